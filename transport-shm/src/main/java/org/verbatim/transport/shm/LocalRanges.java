package org.verbatim.transport.shm;

import java.lang.foreign.MemorySegment;
import org.verbatim.spi.IoVector;

/**
 * The local side of an emulated gather write or scatter read, copied out of the caller's
 * {@link IoVector} when it is posted (the caller may reuse its list at once) and treated as one
 * byte stream. Owned by a pooled {@link RdmaOp}: the arrays grow once to the largest list seen
 * and are reused, so posting allocates nothing after warm-up.
 */
final class LocalRanges {
    private MemorySegment[] segments = new MemorySegment[0];
    private long[] offsets = new long[0];
    private long[] lengths = new long[0];
    private int count;
    private long total;

    void copyOf(IoVector vector) {
        final int n = vector.count();
        if (segments.length < n) {
            segments = new MemorySegment[n];
            offsets = new long[n];
            lengths = new long[n];
        }
        total = 0;
        for (int i = 0; i < n; i++) {
            segments[i] = vector.segment(i);
            offsets[i] = vector.offset(i);
            lengths[i] = vector.length(i);
            total += lengths[i];
        }
        count = n;
    }

    long total() {
        return total;
    }

    void clear() {
        java.util.Arrays.fill(segments, 0, count, null);
        count = 0;
        total = 0;
    }

    /** Copies {@code n} bytes of the stream from {@code at} to {@code to} at {@code toOffset}. */
    void gather(long at, MemorySegment to, long toOffset, long n) {
        long skip = at;
        for (int i = 0; i < count && n > 0; i++) {
            if (skip >= lengths[i]) {
                skip -= lengths[i];
                continue;
            }
            final long take = Math.min(n, lengths[i] - skip);
            MemorySegment.copy(segments[i], offsets[i] + skip, to, toOffset, take);
            toOffset += take;
            n -= take;
            skip = 0;
        }
    }

    /** Copies {@code n} bytes from {@code from} at {@code fromOffset} into the stream at {@code at}. */
    void scatter(MemorySegment from, long fromOffset, long at, long n) {
        long skip = at;
        for (int i = 0; i < count && n > 0; i++) {
            if (skip >= lengths[i]) {
                skip -= lengths[i];
                continue;
            }
            final long take = Math.min(n, lengths[i] - skip);
            MemorySegment.copy(from, fromOffset, segments[i], offsets[i] + skip, take);
            fromOffset += take;
            n -= take;
            skip = 0;
        }
    }
}
