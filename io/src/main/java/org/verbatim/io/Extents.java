package org.verbatim.io;

import java.util.Arrays;

/**
 * File extents of one access in data order: {@code (offset, length)} pairs, adjacent ones merged,
 * and the data offset each starts at (a prefix sum). Views give them in ascending file order.
 */
final class Extents {
    private long[] offsets = new long[8];
    private long[] lengths = new long[8];
    private long[] dataAt = new long[8];
    private int count;
    private long bytes;

    void add(long offset, long length) {
        if (length == 0) {
            return;
        }
        if (count > 0 && offsets[count - 1] + lengths[count - 1] == offset) {
            lengths[count - 1] += length;
        } else {
            if (count == offsets.length) {
                offsets = Arrays.copyOf(offsets, count * 2);
                lengths = Arrays.copyOf(lengths, count * 2);
                dataAt = Arrays.copyOf(dataAt, count * 2);
            }
            offsets[count] = offset;
            lengths[count] = length;
            dataAt[count] = bytes;
            count++;
        }
        bytes += length;
    }

    int count() {
        return count;
    }

    long offset(int i) {
        return offsets[i];
    }

    long length(int i) {
        return lengths[i];
    }

    /** Data bytes before extent {@code i}. */
    long dataAt(int i) {
        return dataAt[i];
    }

    /** Total data bytes. */
    long bytes() {
        return bytes;
    }

    /** Lowest file byte, or Long.MAX_VALUE when empty. */
    long low() {
        return count == 0 ? Long.MAX_VALUE : offsets[0];
    }

    /** One past the highest file byte, or Long.MIN_VALUE when empty. */
    long high() {
        return count == 0 ? Long.MIN_VALUE : offsets[count - 1] + lengths[count - 1];
    }

    /** The first extent whose end lies after {@code fileOffset} (count() if none). */
    int firstEndingAfter(long fileOffset) {
        int lo = 0;
        int hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (offsets[mid] + lengths[mid] <= fileOffset) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Data bytes that lie before end of file {@code size}: the prefix of the data whose file
     * bytes exist (a read stops at the first byte past the end).
     */
    long bytesBefore(long size) {
        long n = 0;
        for (int i = 0; i < count; i++) {
            long have = Math.max(0, Math.min(lengths[i], size - offsets[i]));
            n += have;
            if (have < lengths[i]) {
                break;
            }
        }
        return n;
    }
}
