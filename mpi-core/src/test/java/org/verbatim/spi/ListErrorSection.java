package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * An error inside a posted list reaches only the request that caused it: a list of good writes
 * (and reads) around one write to a registration without {@link Access#REMOTE_WRITE} completes
 * that one with {@link CompletionStatus#REMOTE_ACCESS_ERROR}, and each of the others exactly once,
 * OK or (in flight together with the error, as on a verbs queue pair gone to the error state)
 * {@link CompletionStatus#CANCELLED}; every OK write's data is in place, every OK read's data
 * fetched, and a write posted after all of them completes OK.
 */
public abstract class ListErrorSection extends ManyRegistrationsSection {
    private static final int PIECE = 1000;
    private static final int REQUESTS = 7;

    @Test
    void anErrorInAListReachesOnlyItsOwnRequest() throws Exception {
        runRanks(2, r -> {
            Capabilities caps = r.caps();
            assumeTrue(caps.has(Capability.RDMA_WRITE), "no RDMA_WRITE");
            assumeFalse(caps.has(Capability.REMOTE_ACCESS_ERRORS_UNREPORTED), "the transport says "
                    + Capability.REMOTE_ACCESS_ERRORS_UNREPORTED + ": a refused write is not reported to it");
            int n = Math.min(REQUESTS, caps.has(Capability.LIST_POST) ? caps.maxListPost() : REQUESTS);
            boolean reads = caps.has(Capability.RDMA_READ);
            int bad = n / 2; // the request that goes to the refusing registration
            Map<Integer, Integer> statuses = r.shared("statuses", ConcurrentHashMap::new);
            if (r.rank == 1) {
                MemorySegment refusing = r.allocate(PIECE, (byte) 0x77);
                MemorySegment allowed = r.allocate((long) PIECE * (n + 1), (byte) 0);
                allowed.copyFrom(MemorySegment.ofArray(pattern(PIECE * (n + 1), 8)));
                MemoryRegistration refusingRegistration = r.transport.register(refusing, Access.LOCAL_WRITE | Access.REMOTE_READ);
                MemoryRegistration good = r.transport.register(allowed);
                r.publish("refusing", refusingRegistration);
                r.publish("allowed", good);
                r.barrier();
                assertArrayEquals(filled(PIECE, (byte) 0x77), bytes(refusing, 0, PIECE), "the refusing registration");
                byte[] written = pattern(PIECE * (n + 1), 9);
                for (int k = 0; k < n; k++) {
                    if (k != bad && !isRead(k, bad, reads) && statuses.get(k) == CompletionStatus.OK) {
                        assertArrayEquals(bytes(MemorySegment.ofArray(written), (long) k * PIECE, PIECE),
                                bytes(allowed, (long) k * PIECE, PIECE), "write " + k + " completed OK");
                    }
                }
                assertArrayEquals(bytes(MemorySegment.ofArray(written), (long) n * PIECE, PIECE),
                        bytes(allowed, (long) n * PIECE, PIECE), "the write after the list");
                refusingRegistration.close();
                good.close();
            } else {
                RemoteMemory refusing = r.awaitShared("refusing");
                RemoteMemory allowed = r.awaitShared("allowed");
                MemorySegment local = r.allocate((long) PIECE * (n + 1), (byte) 0);
                local.copyFrom(MemorySegment.ofArray(pattern(PIECE * (n + 1), 9)));
                MemorySegment in = r.allocate((long) PIECE * n, (byte) 0);
                MemoryRegistration localRegistration = r.transport.register(local);
                MemoryRegistration inRegistration = r.transport.register(in);
                Endpoint endpoint = r.transport.endpoint(1);
                WorkList list = new WorkList(n);
                for (int k = 0; k < n; k++) {
                    long at = (long) k * PIECE;
                    if (k == bad) {
                        list.write(local.asSlice(at, PIECE), refusing.address(), refusing.remoteKey(), k);
                    } else if (isRead(k, bad, reads)) {
                        list.read(in.asSlice(at, PIECE), allowed.address() + at, allowed.remoteKey(), k);
                    } else {
                        list.write(local.asSlice(at, PIECE), allowed.address() + at, allowed.remoteKey(), k);
                    }
                }
                for (int from = 0; from < n; ) {
                    final int f = from;
                    int[] posted = new int[1];
                    r.post(() -> (posted[0] = endpoint.postList(list, f)) > 0 ? PostStatus.OK : PostStatus.RETRY);
                    from += posted[0];
                }
                for (int k = 0; k < n; k++) {
                    int status = r.awaitStatus(k);
                    statuses.put(k, status);
                    if (k == bad) {
                        assertEquals(CompletionStatus.describe(CompletionStatus.REMOTE_ACCESS_ERROR),
                                CompletionStatus.describe(status), "the refused write in the list");
                    } else {
                        assertTrue(status == CompletionStatus.OK || status == CompletionStatus.CANCELLED,
                                "request " + k + " of the list: " + CompletionStatus.describe(status));
                    }
                    if (isRead(k, bad, reads) && status == CompletionStatus.OK) {
                        assertArrayEquals(bytes(MemorySegment.ofArray(pattern(PIECE * (n + 1), 8)), (long) k * PIECE,
                                PIECE), bytes(in, (long) k * PIECE, PIECE), "read " + k + " completed OK");
                    }
                }
                long last = (long) n * PIECE;
                r.post(() -> endpoint.write(local.asSlice(last, PIECE), allowed.address() + last,
                        allowed.remoteKey(), 100));
                r.awaitCompletion(100);
                r.progressFor(20);
                for (int k = 0; k < n; k++) {
                    assertEquals(1, r.timesCompleted(k), "completions of request " + k);
                }
                r.barrier();
                localRegistration.close();
                inRegistration.close();
            }
        });
    }

    private static boolean isRead(int k, int bad, boolean reads) {
        return reads && k % 2 == 1 && k != bad;
    }
}
