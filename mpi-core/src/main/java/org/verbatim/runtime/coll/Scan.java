package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;

/**
 * Inclusive and exclusive prefix reductions by recursive doubling (log p rounds). The lower
 * ranks' partial result is always the left operand, so non-commutative operations work.
 */
public final class Scan {
    private Scan() {
    }

    /**
     * @param exclusive for exScan: rank 0's {@code recv} is left untouched (undefined in MPI)
     */
    public static Schedule build(Schedule s, MemorySegment send, MemorySegment recv, int count,
                                 Reducer op, boolean exclusive) {
        int p = s.size();
        int r = s.rank();
        long bytes = recv.byteSize();
        MemorySegment partial = s.temp(bytes);
        MemorySegment in = s.temp(bytes);
        MemorySegment tmp = s.temp(bytes);
        boolean[] haveResult = {!exclusive};
        s.local(() -> {
            MemorySegment.copy(send, 0, partial, 0, bytes);
            if (!exclusive && send != recv) {
                MemorySegment.copy(send, 0, recv, 0, bytes);
            }
        });
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = r ^ mask;
            if (partner >= p) {
                continue;
            }
            s.send(partner, partial).recv(partner, in).waitAll();
            if (partner < r) {
                s.local(() -> {
                    // result = theirs op result; partial = theirs op partial
                    if (haveResult[0]) {
                        MemorySegment.copy(recv, 0, tmp, 0, bytes);
                        op.reduce(in, tmp, count);
                        MemorySegment.copy(tmp, 0, recv, 0, bytes);
                    } else {
                        MemorySegment.copy(in, 0, recv, 0, bytes);
                        haveResult[0] = true;
                    }
                    op.reduce(in, partial, count);
                });
            } else {
                s.local(() -> {
                    // partial = partial op theirs
                    op.reduce(partial, in, count);
                    MemorySegment.copy(in, 0, partial, 0, bytes);
                });
            }
        }
        return s;
    }
}
