package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;

/**
 * Reduce and allreduce. Every algorithm combines in the same bracketing, that of a binomial tree
 * over ranks 0..p-1 with the lower ranks' value on the left, so a result does not depend on the
 * algorithm chosen (floating-point sums are reproducible for a given process count), and
 * non-commutative operations see rank order.
 */
public final class Reduction {
    private Reduction() {
    }

    /**
     * Reduce to {@code root}: binomial tree to rank 0, then to the root if it is another rank.
     * {@code recv} is used only at the root.
     */
    public static Schedule reduce(Schedule s, MemorySegment send, MemorySegment recv, int count,
                                  Reducer op, int root) {
        int r = s.rank();
        long bytes = send.byteSize();
        MemorySegment value = s.temp(bytes);
        s.local(() -> MemorySegment.copy(send, 0, value, 0, bytes));
        binomialToZero(s, value, count, op);
        if (root == 0) {
            if (r == 0) {
                s.local(() -> MemorySegment.copy(value, 0, recv, 0, bytes));
            }
        } else if (r == 0) {
            s.send(root, value).waitAll();
        } else if (r == root) {
            s.recv(0, recv).waitAll();
        }
        return s;
    }

    /**
     * Binomial tree to rank 0; {@code value} holds this rank's contribution when the schedule
     * reaches this point, and rank 0's {@code value} holds the result at the end.
     */
    static void binomialToZero(Schedule s, MemorySegment value, int count, Reducer op) {
        int p = s.size();
        int r = s.rank();
        long bytes = value.byteSize();
        MemorySegment in = null;
        for (int mask = 1; mask < p; mask <<= 1) {
            if ((r & mask) != 0) {
                s.waitAll().send(r - mask, value).waitAll();
                return;
            }
            if (r + mask < p) {
                MemorySegment child = in == null ? (in = s.temp(bytes)) : in;
                s.recv(r + mask, child).waitAll();
                s.local(() -> {
                    op.reduce(value, child, count); // lower (mine) op higher (the subtree's)
                    MemorySegment.copy(child, 0, value, 0, bytes);
                });
            }
        }
    }

    /** Allreduce into {@code recv} (which may already hold the input: in place). */
    public static Schedule allreduce(Schedule s, MemorySegment userSend, MemorySegment recv,
                                     int count, int elementSize, Reducer op, boolean commutative) {
        int p = s.size();
        long bytes = recv.byteSize();
        // Large vectors in Java arrays: work in native scratch, so every transfer is single-copy
        // (a heap buffer would be staged through native memory on both sides of each message).
        boolean scratch = p > 1 && !recv.isNative() && bytes >= LARGE_HEAP_VECTOR;
        MemorySegment work = scratch ? s.temp(bytes) : recv;
        boolean pow2 = Integer.bitCount(p) == 1;
        boolean halving = p > 1 && pow2 && bytes >= s.group().settings().allreduceLarge()
                && commutative && count >= p;
        // Recursive doubling and the binomial pair send the whole vector in their first step: from
        // WHOLE_VECTOR_NATIVE the input goes to the scratch first and they run there in place,
        // so that step is zero-copy too instead of staged on both sides (Rabenseifner, 4 ranks,
        // 1 MiB of floats, measured this way: 1114 us staged, 550-620 us in scratch). Rabenseifner
        // needs only the half its first step sends in native memory: it copies that half itself
        // and reads the half it keeps from the heap.
        boolean wholeVector = scratch && bytes >= WHOLE_VECTOR_NATIVE && !userSend.isNative()
                && !halving;
        if (wholeVector) {
            s.local(() -> MemorySegment.copy(userSend, 0, work, 0, bytes));
        }
        MemorySegment send = wholeVector ? work : userSend;
        if (halving) {
            rabenseifner(s, send, work, count, elementSize, op); // reads send itself: no copy
        } else {
            if (send != work) {
                s.local(() -> MemorySegment.copy(send, 0, work, 0, bytes));
            }
            if (p == 1) {
                // nothing to combine
            } else if (pow2) {
                recursiveDoubling(s, work, count, op);
            } else {
                // reduce to 0 (binomial), then broadcast (binomial or scatter+allgather)
                binomialToZero(s, work, count, op);
                Broadcast.build(s, work, 0);
            }
        }
        if (scratch) {
            s.local(() -> MemorySegment.copy(work, 0, recv, 0, bytes));
        }
        return s;
    }

    /** Heap vectors from this size are reduced in native scratch memory. */
    static final long LARGE_HEAP_VECTOR = 16 * 1024;

    /** Heap vectors from this size are also copied into that scratch before the first step. */
    static final long WHOLE_VECTOR_NATIVE = 256 * 1024;

    /** Power-of-two groups: log p exchanges of the whole vector. */
    static Schedule recursiveDoubling(Schedule s, MemorySegment buf, int count, Reducer op) {
        int p = s.size();
        int r = s.rank();
        long bytes = buf.byteSize();
        MemorySegment in = s.temp(bytes);
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = r ^ mask;
            s.send(partner, buf).recv(partner, in).waitAll();
            if (partner > r) {
                s.local(() -> {
                    op.reduce(buf, in, count);           // mine (lower) op theirs
                    MemorySegment.copy(in, 0, buf, 0, bytes);
                });
            } else {
                s.local(() -> op.reduce(in, buf, count)); // theirs (lower) op mine
            }
        }
        return s;
    }

    /**
     * Commutative operations on power-of-two groups, large vectors: reduce-scatter by recursive
     * halving with the distance doubling (so the bracketing is the binomial one), then an
     * allgather retracing the same steps. The input is read from {@code src}, the result ends in
     * {@code buf}; when they differ, the first step sends its half straight from {@code src},
     * receives the partner's half straight into {@code buf} and combines it there with the half
     * of {@code src} it keeps, so the input is never copied as a whole. A {@code src} on the heap
     * (Java arrays) sends its first half from a native copy of just that half, so the transfer
     * is single-copy; the kept half is read in place.
     */
    static Schedule rabenseifner(Schedule s, MemorySegment src, MemorySegment buf, int count,
                                 int elementSize, Reducer op) {
        int p = s.size();
        int r = s.rank();
        int steps = Integer.numberOfTrailingZeros(p);
        int[] lo = new int[steps + 1];
        int[] hi = new int[steps + 1];
        lo[0] = 0;
        hi[0] = count;
        MemorySegment in = s.temp((long) (count - count / 2) * elementSize);
        for (int k = 0; k < steps; k++) {
            int mask = 1 << k;
            int partner = r ^ mask;
            int a = lo[k];
            int b = hi[k];
            int mid = a + (b - a) / 2;
            boolean keepLow = (r & mask) == 0;
            int ka = keepLow ? a : mid;
            int kb = keepLow ? mid : b;
            int sa = keepLow ? mid : a;
            int sb = keepLow ? b : mid;
            lo[k + 1] = ka;
            hi[k + 1] = kb;
            MemorySegment keep = slice(buf, ka, kb, elementSize);
            if (k == 0 && src != buf) {
                MemorySegment mine = slice(src, ka, kb, elementSize);
                MemorySegment out = slice(src, sa, sb, elementSize);
                if (!src.isNative() && buf.isNative()) {
                    // the temporary is free in this step: the partner's half goes into buf
                    MemorySegment heapHalf = out;
                    MemorySegment nativeHalf = in.asSlice(0, out.byteSize());
                    long n = heapHalf.byteSize();
                    s.local(() -> MemorySegment.copy(heapHalf, 0, nativeHalf, 0, n));
                    out = nativeHalf;
                }
                s.send(partner, out).recv(partner, keep).waitAll();
                s.local(() -> op.reduce(mine, keep, kb - ka)); // commutative: order-free
                continue;
            }
            MemorySegment tmp = in.asSlice(0, (long) (kb - ka) * elementSize);
            s.send(partner, slice(buf, sa, sb, elementSize)).recv(partner, tmp).waitAll();
            s.local(() -> op.reduce(tmp, keep, kb - ka)); // commutative: order-free
        }
        for (int k = steps - 1; k >= 0; k--) {
            int partner = r ^ (1 << k);
            int ka = lo[k + 1];
            int kb = hi[k + 1];
            int a = lo[k];
            int b = hi[k];
            int oa = ka == a ? kb : a;
            int ob = ka == a ? b : ka;
            s.send(partner, slice(buf, ka, kb, elementSize))
                    .recv(partner, slice(buf, oa, ob, elementSize)).waitAll();
        }
        return s;
    }

    static MemorySegment slice(MemorySegment buf, int from, int to, int elementSize) {
        return buf.asSlice((long) from * elementSize, (long) (to - from) * elementSize);
    }
}
