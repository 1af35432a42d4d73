package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;

/**
 * Allgather: recursive doubling for power-of-two groups below the large threshold, the ring
 * otherwise; allgatherv on the ring. Blocks land in {@code recv} in rank order.
 */
public final class Allgather {
    private Allgather() {
    }

    /** {@code send} is this rank's block, or null when it is already in place in recv. */
    public static Schedule build(Schedule s, MemorySegment send, MemorySegment recv, long block) {
        int p = s.size();
        int r = s.rank();
        if (send != null) {
            s.local(() -> MemorySegment.copy(send, 0, recv, r * block, block));
        }
        if (p == 1) {
            return s;
        }
        if (Integer.bitCount(p) == 1 && block * p < s.group().settings().allgatherLarge()) {
            for (int mask = 1; mask < p; mask <<= 1) {
                int partner = r ^ mask;
                long mine = (long) (r & ~(mask - 1)) * block;
                long theirs = (long) (partner & ~(mask - 1)) * block;
                s.send(partner, recv.asSlice(mine, mask * block))
                        .recv(partner, recv.asSlice(theirs, mask * block)).waitAll();
            }
            return s;
        }
        long[] counts = new long[p];
        long[] displs = new long[p];
        for (int i = 0; i < p; i++) {
            counts[i] = block;
            displs[i] = i * block;
        }
        return ring(s, recv, counts, displs);
    }

    /** Ring allgatherv: p-1 steps, each passing one block to the right. */
    public static Schedule ring(Schedule s, MemorySegment recv, long[] counts, long[] displs) {
        int p = s.size();
        int r = s.rank();
        int right = (r + 1) % p;
        int left = (r - 1 + p) % p;
        for (int i = 0; i < p - 1; i++) {
            int sb = (r - i + p) % p;
            int rb = (r - i - 1 + p) % p;
            s.send(right, recv.asSlice(displs[sb], counts[sb]))
                    .recv(left, recv.asSlice(displs[rb], counts[rb])).waitAll();
        }
        return s;
    }

    /** Allgatherv with this rank's contribution in {@code send} (null: already in place). */
    public static Schedule gatherv(Schedule s, MemorySegment send, MemorySegment recv,
                                   long[] counts, long[] displs) {
        int r = s.rank();
        if (send != null) {
            s.local(() -> MemorySegment.copy(send, 0, recv, displs[r], counts[r]));
        }
        return s.size() == 1 ? s : ring(s, recv, counts, displs);
    }
}
