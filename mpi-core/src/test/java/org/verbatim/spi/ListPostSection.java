package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Endpoint#postList}: lists of 1 to {@code maxListPost} requests (up to 16 through the
 * default one-by-one posting where {@link Capability#LIST_POST} is absent, which every transport
 * must get right too), writes and reads mixed (every other write with an immediate, whose data
 * is in place when it arrives), each completing exactly once with status OK; and a
 * call that cannot take the whole list says how many it took, so that the caller posts the rest
 * later without losing or repeating any.
 */
public abstract class ListPostSection extends GatherScatterSection {
    /** Each request has its own slot of this many bytes, on both sides. */
    private static final int SLOT = 4104;
    private static final int[] PIECES = {1, 3, 7, 4095, 100, 64};
    /** Lists of every length up to this are tried; beyond it only maxListPost itself. */
    private static final int EVERY_LENGTH_UP_TO = 64;

    private static int listLimit(Capabilities caps) {
        return caps.has(Capability.LIST_POST) ? caps.maxListPost() : 16;
    }

    private static long pieceOffset(int k) {
        return (long) k * SLOT + k % 7;
    }

    private static int pieceLength(int k) {
        return PIECES[k % PIECES.length];
    }

    @Test
    void listsOfEveryLengthCompleteEachRequestOnce() throws Exception {
        runRanks(2, r -> {
            Capabilities caps = r.caps();
            assumeTrue(caps.has(Capability.RDMA_WRITE), "no RDMA_WRITE");
            boolean reads = caps.has(Capability.RDMA_READ);
            boolean immediates = caps.has(Capability.WRITE_WITH_IMMEDIATE);
            int max = listLimit(caps);
            int[] lengths = max <= EVERY_LENGTH_UP_TO ? range(1, max)
                    : concat(range(1, EVERY_LENGTH_UP_TO), max);
            long regionLength = (long) max * SLOT + 8;
            if (r.rank == 1) {
                MemorySegment written = r.allocate(regionLength, (byte) 0);
                MemorySegment readable = r.allocate(regionLength, (byte) 0);
                readable.copyFrom(MemorySegment.ofArray(pattern((int) regionLength, 31)));
                MemoryRegistration w = r.transport.register(written);
                MemoryRegistration rd = r.transport.register(readable);
                r.publish("written", w);
                r.publish("readable", rd);
                List<String> problems = new ArrayList<>();
                int immediatesSoFar = 0;
                for (int n : lengths) {
                    byte[] expected = pattern((int) regionLength, n);
                    r.recorder.immediateHook = (source, imm) -> {
                        int k = imm % 1000;
                        if (imm / 1000 != n || !withImmediate(k, reads, immediates)) {
                            problems.add("immediate " + imm + " in the round of lists of " + n);
                        } else if (!Arrays.equals(bytes(MemorySegment.ofArray(expected), pieceOffset(k), pieceLength(k)),
                                bytes(written, pieceOffset(k), pieceLength(k)))) {
                            problems.add("data of request " + k + " of " + n + " not in place at its immediate");
                        }
                    };
                    r.barrier();
                    r.barrier();
                    for (int k = 0; k < n; k++) {
                        immediatesSoFar += withImmediate(k, reads, immediates) ? 1 : 0;
                    }
                    r.awaitImmediates(immediatesSoFar);
                    for (int k = 0; k < n; k++) {
                        if (!reads || k % 2 == 0) {
                            assertArrayEquals(bytes(MemorySegment.ofArray(expected), pieceOffset(k), pieceLength(k)),
                                    bytes(written, pieceOffset(k), pieceLength(k)),
                                    "write " + k + " of a list of " + n);
                        }
                    }
                }
                assertEquals(List.of(), problems);
                assertEquals(immediatesSoFar, r.recorder.immediates.size(), "immediates");
                w.close();
                rd.close();
            } else {
                RemoteMemory written = r.awaitShared("written");
                RemoteMemory readable = r.awaitShared("readable");
                byte[] remoteBytes = pattern((int) regionLength, 31);
                MemorySegment out = r.allocate(regionLength, (byte) 0);
                MemorySegment in = r.allocate(regionLength, (byte) 0);
                MemoryRegistration outReg = r.transport.register(out);
                MemoryRegistration inReg = r.transport.register(in);
                Endpoint endpoint = r.transport.endpoint(1);
                WorkList list = new WorkList(4);
                for (int n : lengths) {
                    out.copyFrom(MemorySegment.ofArray(pattern((int) regionLength, n)));
                    in.fill((byte) 0);
                    list.clear();
                    for (int k = 0; k < n; k++) {
                        long at = pieceOffset(k);
                        MemorySegment piece = (!reads || k % 2 == 0 ? out : in).asSlice(at, pieceLength(k));
                        long wrId = wrId(n, k);
                        if (withImmediate(k, reads, immediates)) {
                            list.writeWithImmediate(piece, written.address() + at, written.remoteKey(),
                                    1000 * n + k, wrId);
                        } else if (!reads || k % 2 == 0) {
                            list.write(piece, written.address() + at, written.remoteKey(), wrId);
                        } else {
                            list.read(piece, readable.address() + at, readable.remoteKey(), wrId);
                        }
                    }
                    r.barrier();
                    postAll(r, endpoint, list, max);
                    for (int k = 0; k < n; k++) {
                        r.awaitCompletion(wrId(n, k));
                    }
                    for (int k = 1; reads && k < n; k += 2) {
                        assertArrayEquals(bytes(MemorySegment.ofArray(remoteBytes), pieceOffset(k), pieceLength(k)),
                                bytes(in, pieceOffset(k), pieceLength(k)), "read " + k + " of a list of " + n);
                    }
                    r.barrier();
                }
                r.progressFor(20);
                for (int n : lengths) {
                    for (int k = 0; k < n; k++) {
                        assertEquals(1, r.timesCompleted(wrId(n, k)), "completions of request " + k + " of " + n);
                    }
                }
                outReg.close();
                inReg.close();
            }
        });
    }

    /**
     * Reads posted as lists without any progress: once the transport has {@code readsInFlight}
     * reads outstanding (none of them can have completed: nothing delivered their completion), a
     * call must take fewer than offered. The advertised number is thus a bound the transport
     * enforces with a short post, which protocols can rely on, not a hint it may exceed by
     * queueing internally. Then the rest goes out after progress, and every request
     * completes once with the right data.
     */
    @Test
    void aShortPostLeavesTheRestForLaterWithoutLossOrRepetition() throws Exception {
        runRanks(2, r -> {
            Capabilities caps = r.caps();
            assumeTrue(caps.has(Capability.RDMA_READ), "no RDMA_READ");
            assumeTrue(caps.readsInFlight() <= 1 << 16, "readsInFlight " + caps.readsInFlight()
                    + ": too many reads to hold outstanding in a test");
            int n = Math.min(7, listLimit(caps));
            int lists = caps.readsInFlight() / n + 2;
            int total = lists * n;
            long regionLength = (long) total * 8 + 8;
            if (r.rank == 1) {
                MemorySegment readable = r.allocate(regionLength, (byte) 0);
                readable.copyFrom(MemorySegment.ofArray(pattern((int) regionLength, 41)));
                MemoryRegistration registration = r.transport.register(readable);
                r.publish("readable", registration);
                r.barrier();
                registration.close();
            } else {
                RemoteMemory readable = r.awaitShared("readable");
                MemorySegment in = r.allocate(regionLength, (byte) 0);
                MemoryRegistration registration = r.transport.register(in);
                Endpoint endpoint = r.transport.endpoint(1);
                WorkList[] work = new WorkList[lists];
                for (int l = 0; l < lists; l++) {
                    work[l] = new WorkList(n);
                    for (int k = 0; k < n; k++) {
                        long at = 8L * (l * n + k);
                        work[l].read(in.asSlice(at, 8), readable.address() + at, readable.remoteKey(), l * n + k);
                    }
                }
                int outstanding = 0;
                int l = 0;
                int from = 0;
                boolean shortPost = false;
                while (!shortPost) {
                    int posted = endpoint.postList(work[l], from);
                    assertTrue(posted >= 0 && posted <= n - from, "posted " + posted + " of " + (n - from));
                    outstanding += posted;
                    assertTrue(outstanding <= caps.readsInFlight(), outstanding
                            + " reads outstanding without progress, readsInFlight " + caps.readsInFlight());
                    shortPost = posted < n - from;
                    from += posted;
                    if (from == n) {
                        l++;
                        from = 0;
                    }
                }
                for (; l < lists; l++, from = 0) {
                    postAll(r, endpoint, work[l], n, from);
                }
                for (int id = 0; id < total; id++) {
                    r.awaitCompletion(id);
                }
                r.progressFor(20);
                for (int id = 0; id < total; id++) {
                    assertEquals(1, r.timesCompleted(id), "completions of read " + id);
                }
                assertArrayEquals(bytes(MemorySegment.ofArray(pattern((int) regionLength, 41)), 0, 8L * total),
                        bytes(in, 0, 8L * total));
                registration.close();
                r.barrier();
            }
        });
    }

    private static void postAll(Rank r, Endpoint endpoint, WorkList list, int max) {
        postAll(r, endpoint, list, max, 0);
    }

    /** Posts {@code list} from {@code from} on, progressing after every short post. */
    private static void postAll(Rank r, Endpoint endpoint, WorkList list, int max, int from) {
        long deadline = r.deadline();
        while (from < list.count()) {
            int posted = endpoint.postList(list, from);
            assertTrue(posted >= 0 && posted <= list.count() - from && posted <= max,
                    "posted " + posted + " of " + (list.count() - from) + " (maxListPost " + max + ")");
            from += posted;
            if (from < list.count()) {
                r.transport.progress();
                r.checkDeadline(deadline, "the rest of a list of " + list.count());
            }
        }
    }

    /** Every other write of a list carries an immediate where the transport has them. */
    private static boolean withImmediate(int k, boolean reads, boolean immediates) {
        return immediates && (!reads || k % 2 == 0) && k % 4 == 2;
    }

    private static long wrId(int n, int k) {
        return 1_000_000L * n + k;
    }

    private static int[] range(int from, int to) {
        int[] values = new int[to - from + 1];
        for (int i = 0; i < values.length; i++) {
            values[i] = from + i;
        }
        return values;
    }

    private static int[] concat(int[] values, int last) {
        int[] out = Arrays.copyOf(values, values.length + 1);
        out[values.length] = last;
        return out;
    }
}
