package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.verbatim.spi.ReferenceFabric.Defect;

/**
 * The conformance sections can fail: each runs against the reference transport with the one
 * defect it is written to catch, and must report it (an assertion, not a skip).
 */
class ReferenceDefectsTest {

    /** The suite against the reference transport with {@code defect}. */
    private static TransportConformanceSuite suite(boolean emulated, Defect defect) {
        return suite(emulated, defect, 20);
    }

    private static TransportConformanceSuite suite(boolean emulated, Defect defect, long timeoutSeconds) {
        return new TransportConformanceSuite() {
            @Override
            protected TransportProvider provider() {
                return new ReferenceFabric(emulated, defect);
            }

            @Override
            protected long timeoutSeconds() {
                return timeoutSeconds;
            }
        };
    }

    /** {@code test} fails, and for the reason given (not a time-out or some other slip). */
    private static void fails(Executable test, String reason) {
        AssertionError e = assertThrows(AssertionError.class, test);
        assertTrue(e.getMessage().contains(reason), "failed, but not for \"" + reason + "\": " + e.getMessage());
    }

    @Test
    void accessChecksAreRequired() {
        TransportConformanceSuite s = suite(false, Defect.NO_ACCESS_CHECK);
        fails(s::writeWithoutTheRemoteWriteRightCompletesWithRemoteAccessError, "status of the refused RDMA_WRITE");
        fails(s::readWithoutTheRemoteReadRightCompletesWithRemoteAccessError, "status of the refused RDMA_READ");
        fails(s::atomicWithoutTheRemoteAtomicRightCompletesWithRemoteAccessError, "status of the refused ATOMICS");
        fails(s::writeToAnUnknownKeyCompletesWithRemoteAccessError, "status of the refused RDMA_WRITE");
        fails(s::readPastTheRegistrationsEndCompletesWithRemoteAccessError, "status of the refused RDMA_READ");
        fails(s::checksHoldWithManyRegistrations, "a write without the right among");
        fails(s::aLongWritePastTheRegistrationsEndPlacesNothing, "status of the refused RDMA_WRITE");
        fails(s::writeWithImmediateRefusedDeliversNoImmediate, "status of the refused WRITE_WITH_IMMEDIATE");
    }

    @Test
    void anAbortedClaimMustNotArrive() {
        fails(suite(false, Defect.ABORT_DELIVERS)::claimsArriveInOrderWithSendsAndAbortedOnesNever, "(kind 3)");
    }

    @Test
    void emulatedOperationsMustWaitForTheTarget() {
        TransportConformanceSuite s = suite(true, Defect.EMULATED_BUT_SYNCHRONOUS);
        fails(s::emulatedWriteWaitsForTheTargetsProgress, "WRITE completed while the target made no progress");
        fails(s::emulatedReadWaitsForTheTargetsProgress, "READ completed while the target made no progress");
        fails(s::emulatedGatherWriteWaitsForTheTargetsProgress, "GATHER_WRITE completed while the target made no progress");
        fails(s::emulatedScatterReadWaitsForTheTargetsProgress, "SCATTER_READ completed while the target made no progress");
        fails(s::emulatedAtomicWaitsForTheTargetsProgress, "FETCH_AND_ADD completed while the target made no progress");
    }

    /** A native operation that waits for the target never completes here: the hard limit trips. */
    @Test
    void nativeOperationsMustNotNeedTheTarget() {
        TransportConformanceSuite s = suite(false, Defect.NATIVE_BUT_TARGET_DOES_IT, 2);
        String reason = "timed out waiting for"; // rank 0 for its completion, or rank 1 for the news of it
        fails(s::nativeWriteCompletesWithoutTheTargetsProgress, reason);
        fails(s::nativeReadCompletesWithoutTheTargetsProgress, reason);
        fails(s::nativeAtomicCompletesWithoutTheTargetsProgress, reason);
        fails(s::nativeGatherWriteCompletesWithoutTheTargetsProgress, reason);
        fails(s::nativeScatterReadCompletesWithoutTheTargetsProgress, reason);
    }

    @Test
    void fetchAndAddMustReturnTheOldValue() {
        fails(suite(false, Defect.FETCH_RETURNS_NEW)::fetchAndAddFromFourRanksLosesNoUpdateAndReturnsDistinctValues, "smallest old value returned");
    }

    @Test
    void listRequestsMustCompleteOnce() {
        fails(suite(false, Defect.LIST_COMPLETES_TWICE)::listsOfEveryLengthCompleteEachRequestOnce, "completions of request");
    }

    @Test
    void gatherAndScatterMustUseEveryEntry() {
        TransportConformanceSuite s = suite(false, Defect.GATHER_DROPS_LAST_ENTRY);
        fails(s::gatherWriteAtOddCutPoints, "2 entries (4 bytes)");
        fails(s::gatherWriteWithImmediateArrivesAfterAllTheData, "2 entries (4 bytes)");
        fails(s::scatterReadAtOddCutPoints, "scatter list of 2 entries");
    }

    @Test
    void aFlushMustWaitForEarlierWrites() {
        fails(suite(false, Defect.FLUSH_EARLY)::aCompletedFlushMeansEveryEarlierWriteIsPlaced, "when the flush of round 0 completed");
    }
}
