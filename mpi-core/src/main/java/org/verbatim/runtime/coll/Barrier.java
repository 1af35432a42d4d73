package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;

/** Dissemination barrier: ceil(log2 p) rounds, each a zero-byte send and receive. */
public final class Barrier {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private Barrier() {
    }

    public static Schedule build(Schedule s) {
        int p = s.size();
        int r = s.rank();
        for (int k = 1; k < p; k <<= 1) {
            s.send((r + k) % p, EMPTY).recv((r - k + p) % p, EMPTY).waitAll();
        }
        return s;
    }
}
