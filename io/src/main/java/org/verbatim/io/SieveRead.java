package org.verbatim.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * Data sieving for independent noncontiguous reads (ROMIO's, for reads): extents that lie close
 * together are read as one span into a sieve buffer and copied out, so a fine-grained view (one
 * etype in every few) costs one read per buffer's worth of file instead of one per extent. An
 * extent as large as the buffer is read straight into place. Stops at the end of file, as a read
 * does: the count is the prefix of the data that exists.
 */
final class SieveRead {
    /** Bytes of the sieve buffer. */
    static final long BUFFER = 4 << 20;

    private SieveRead() {
    }

    static long read(ChannelIo io, Extents ex, Transfer t, MemorySegment sieve)
            throws IOException {
        long moved = 0;
        int i = 0;
        while (i < ex.count()) {
            long start = ex.offset(i);
            int j = i;
            while (j + 1 < ex.count()
                    && ex.offset(j + 1) + ex.length(j + 1) - start <= sieve.byteSize()) {
                j++;
            }
            if (j == i) {
                long len = ex.length(i);
                long got = io.read(start, t.data, t.dataOffset + ex.dataAt(i), len);
                moved += got;
                if (got < len) {
                    return moved;
                }
                i++;
                continue;
            }
            long span = ex.offset(j) + ex.length(j) - start;
            long got = io.read(start, sieve, 0, span);
            for (int k = i; k <= j; k++) {
                long at = ex.offset(k) - start;
                long have = Math.max(0, Math.min(ex.length(k), got - at));
                MemorySegment.copy(sieve, at, t.data, t.dataOffset + ex.dataAt(k), have);
                moved += have;
                if (have < ex.length(k)) {
                    return moved;
                }
            }
            i = j + 1;
        }
        return moved;
    }
}
