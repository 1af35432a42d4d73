package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Error completions ({@link CompletionStatus}): a one-sided operation on a registration that lacks
 * the {@link Access} right it needs, on a key that is not (or no longer) registered, or on a range
 * that runs past the registration's end, completes with
 * {@link CompletionStatus#REMOTE_ACCESS_ERROR}, exactly once, to the operation that caused it. It
 * is not an exception in the initiator or the target, not a peer failure, and not a dead
 * endpoint: an operation posted after the error completion was delivered completes normally
 * (one in flight together with it may complete {@link CompletionStatus#CANCELLED}, as on a verbs
 * queue pair that went to the error state and was re-established). The target's memory is left
 * as it was.
 *
 * <p>The contract is not optional: registration rights are part of the base SPI
 * ({@link Transport#register(MemorySegment, int)}), so every transport that advertises an operation
 * checks them for it. No flag excuses a transport whose data path never asks the target (a
 * cross-memory-attach copy made by the initiator): it has to check the target's key table itself
 * before it copies, for example in a table the target publishes in shared memory. The one
 * exception is a device whose writes complete before the target has seen them (iWARP): it cannot
 * report the refusal to the operation, says so with
 * {@link Capability#REMOTE_ACCESS_ERRORS_UNREPORTED}, and these checks skip.
 */
public abstract class ErrorCompletionSection extends ListErrorSection {
    private static final byte CANARY = (byte) 0xC3;
    private static final int LENGTH = 4099;
    /** The guarded region around a registered slice, for the out-of-range case. */
    private static final int GUARD = 64;

    @Test
    void writeWithoutTheRemoteWriteRightCompletesWithRemoteAccessError() throws Exception {
        refused(Capability.RDMA_WRITE, Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC,
                (r, e, local, region, wrId) -> e.write(local, region.address(), region.remoteKey(), wrId));
    }

    @Test
    void readWithoutTheRemoteReadRightCompletesWithRemoteAccessError() throws Exception {
        refused(Capability.RDMA_READ, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_ATOMIC,
                (r, e, local, region, wrId) -> e.read(local, region.address(), region.remoteKey(), wrId));
    }

    @Test
    void atomicWithoutTheRemoteAtomicRightCompletesWithRemoteAccessError() throws Exception {
        refused(Capability.ATOMICS, Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE,
                (r, e, local, region, wrId) -> e.fetchAndAdd(local.asSlice(0, 8), region.address() + 8,
                        region.remoteKey(), 1, wrId));
    }

    @Test
    void gatherWriteWithoutTheRemoteWriteRightCompletesWithRemoteAccessError() throws Exception {
        refused(Capability.WRITE_GATHER, Access.LOCAL_WRITE | Access.REMOTE_READ,
                (r, e, local, region, wrId) -> e.writeGather(halves(local), region.address(),
                        region.remoteKey(), wrId));
    }

    @Test
    void scatterReadWithoutTheRemoteReadRightCompletesWithRemoteAccessError() throws Exception {
        refused(Capability.READ_SCATTER, Access.LOCAL_WRITE | Access.REMOTE_WRITE,
                (r, e, local, region, wrId) -> e.readScatter(halves(local), region.address(),
                        region.remoteKey(), wrId));
    }

    @Test
    void writeToAnUnknownKeyCompletesWithRemoteAccessError() throws Exception {
        refused(Capability.RDMA_WRITE, -1,
                (r, e, local, region, wrId) -> e.write(local, region.address(), region.remoteKey(), wrId));
    }

    @Test
    void readFromAnUnknownKeyCompletesWithRemoteAccessError() throws Exception {
        refused(Capability.RDMA_READ, -1,
                (r, e, local, region, wrId) -> e.read(local, region.address(), region.remoteKey(), wrId));
    }

    @Test
    void writePastTheRegistrationsEndCompletesWithRemoteAccessError() throws Exception {
        refused(Capability.RDMA_WRITE, -2, (r, e, local, region, wrId) -> e.write(local.asSlice(0, 16),
                region.address() + region.length() - 8, region.remoteKey(), wrId));
    }

    /**
     * A write of several kilobytes that starts inside the registration and ends 8 bytes past it:
     * refused as a whole, so nothing lands, not even the part inside (verbs checks the whole
     * range before placing anything; a transport that moves data in chunks checks before its
     * first chunk).
     */
    @Test
    void aLongWritePastTheRegistrationsEndPlacesNothing() throws Exception {
        refused(Capability.RDMA_WRITE, -2, (r, e, local, region, wrId) -> e.write(local,
                region.address() + 8, region.remoteKey(), wrId));
    }

    @Test
    void readPastTheRegistrationsEndCompletesWithRemoteAccessError() throws Exception {
        refused(Capability.RDMA_READ, -2, (r, e, local, region, wrId) -> e.read(local.asSlice(0, 16),
                region.address() + region.length() - 8, region.remoteKey(), wrId));
    }

    @Test
    void writeWithImmediateRefusedDeliversNoImmediate() throws Exception {
        refused(Capability.WRITE_WITH_IMMEDIATE, Access.LOCAL_WRITE | Access.REMOTE_READ,
                (r, e, local, region, wrId) -> e.writeWithImmediate(local, region.address(),
                        region.remoteKey(), 0xBAD, wrId));
    }

    @Test
    void misalignedAtomicCompletesWithRemoteOperationError() throws Exception {
        refused(Capability.ATOMICS, Access.ALL, CompletionStatus.REMOTE_OPERATION_ERROR,
                (r, e, local, region, wrId) -> e.fetchAndAdd(local.asSlice(0, 8), region.address() + 12,
                        region.remoteKey(), 1, wrId));
    }

    /** One refused operation: posts it and returns its post status. */
    @FunctionalInterface
    private interface Refused {
        int post(Rank r, Endpoint endpoint, MemorySegment local, RemoteMemory region, long wrId);
    }

    /**
     * Rank 1 offers a region that refuses {@code bad}: registered with {@code access}, or (-1) a
     * key deregistered already, or (-2) registered as a slice whose end the operation crosses.
     * Rank 0 posts it and needs {@code expected} (REMOTE_ACCESS_ERROR; REMOTE_OPERATION_ERROR for a
     * misaligned atomic); then a good write or read, an immediate where the flag is present, and
     * an eager message still go through, and rank 1's memory is unchanged where it refused.
     */
    private void refused(Capability flag, int access, Refused bad) throws Exception {
        refused(flag, access, CompletionStatus.REMOTE_ACCESS_ERROR, bad);
    }

    private void refused(Capability flag, int access, int expected, Refused bad) throws Exception {
        runRanks(2, r -> {
            Capabilities caps = r.caps();
            assumeTrue(caps.has(flag), "no " + flag);
            assumeFalse(expected == CompletionStatus.REMOTE_ACCESS_ERROR
                    && caps.has(Capability.REMOTE_ACCESS_ERRORS_UNREPORTED), "the transport says "
                    + Capability.REMOTE_ACCESS_ERRORS_UNREPORTED + ": a refused operation is not reported to it");
            boolean immediate = caps.has(Capability.WRITE_WITH_IMMEDIATE);
            if (r.rank == 1) {
                MemorySegment guarded = r.allocate(LENGTH + 2 * GUARD, CANARY);
                MemoryRegistration refusing = switch (access) {
                    case -1 -> r.transport.register(guarded.asSlice(GUARD, LENGTH));
                    case -2 -> r.transport.register(guarded.asSlice(GUARD, LENGTH));
                    default -> r.transport.register(guarded.asSlice(GUARD, LENGTH), access);
                };
                if (access == -1) {
                    refusing.close(); // the key is published after it was deregistered
                }
                MemorySegment good = r.allocate(LENGTH, (byte) 0);
                good.copyFrom(MemorySegment.ofArray(pattern(LENGTH, 5)));
                MemoryRegistration allowed = r.transport.register(good);
                r.publish("refusing", refusing);
                r.publish("allowed", allowed);
                r.awaitReceived(1);
                if (immediate) {
                    r.awaitImmediates(1);
                    assertEquals(List.of(0x600D), r.recorder.immediates.stream().map(i -> (int) i[1]).toList(),
                            "immediates (the refused write's is 0xBAD)");
                }
                r.barrier();
                assertArrayEquals(filled(LENGTH + 2 * GUARD, CANARY), bytes(guarded, 0, guarded.byteSize()),
                        "memory of the refusing registration, and around it");
                if (caps.has(Capability.RDMA_WRITE)) {
                    assertArrayEquals(pattern(LENGTH, 6), bytes(good, 0, LENGTH), "the good write after the error");
                }
                if (access != -1) {
                    refusing.close();
                }
                allowed.close();
            } else {
                RemoteMemory refusing = r.awaitShared("refusing");
                RemoteMemory allowed = r.awaitShared("allowed");
                MemorySegment scratch = r.allocate(LENGTH, (byte) 0);
                scratch.copyFrom(MemorySegment.ofArray(pattern(LENGTH, 6)));
                MemoryRegistration scratchRegistration = r.transport.register(scratch);
                MemorySegment local = r.allocate(LENGTH, (byte) 0);
                local.copyFrom(MemorySegment.ofArray(pattern(LENGTH, 6)));
                MemoryRegistration registration = r.transport.register(local);
                Endpoint endpoint = r.transport.endpoint(1);
                r.post(() -> bad.post(r, endpoint, scratch, refusing, 1));
                assertEquals(CompletionStatus.describe(expected),
                        CompletionStatus.describe(r.awaitStatus(1)), "status of the refused " + flag + " operation");
                if (caps.has(Capability.RDMA_READ)) {
                    MemorySegment in = r.allocate(LENGTH, (byte) 0);
                    MemoryRegistration inRegistration = r.transport.register(in);
                    r.post(() -> endpoint.read(in, allowed.address(), allowed.remoteKey(), 2));
                    r.awaitCompletion(2);
                    assertArrayEquals(pattern(LENGTH, 5), bytes(in, 0, LENGTH), "a good read after the error");
                    inRegistration.close();
                }
                if (caps.has(Capability.RDMA_WRITE)) {
                    r.post(() -> endpoint.write(local, allowed.address(), allowed.remoteKey(), 3));
                    r.awaitCompletion(3);
                }
                if (immediate) {
                    r.post(() -> endpoint.writeWithImmediate(local, allowed.address(), allowed.remoteKey(),
                            0x600D, 4));
                    r.awaitCompletion(4);
                }
                r.send(1, ints(7), new byte[0]);
                r.barrier();
                for (long wrId = 1; wrId <= 4; wrId++) {
                    assertTrue(r.timesCompleted(wrId) <= 1, "work request " + wrId + " completed more than once");
                }
                registration.close();
                scratchRegistration.close();
            }
        });
    }

    /** The local range cut into two entries of a gather or scatter list. */
    private static IoVector halves(MemorySegment local) {
        return new IoVector(2).add(local, 0, 7).add(local, 7, local.byteSize() - 7);
    }
}
