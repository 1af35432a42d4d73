package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;

/**
 * Message data that need not be contiguous: the message's bytes are the blocks of a layout over
 * a base segment, in order (a list of blocks today; a datatype's committed form implements the
 * same interface once the datatype module exists). The protocols pack and unpack any byte range
 * of the message, so a large message can move in pieces (a resumable cursor, not a whole copy).
 */
public interface Layout {
    /** Bytes of the message (the sum of the block lengths). */
    long size();

    /** Number of blocks. */
    int blockCount();

    /** Offset of block {@code i} from the start of the base segment. */
    long blockOffset(int i);

    /** Length of block {@code i} in bytes. */
    long blockLength(int i);

    /**
     * Median block length (bytes), what scheme selection reads; the default sorts the block
     * lengths, so implementations used per message keep it (a datatype's is computed once).
     */
    default double medianBlock() {
        int n = blockCount();
        if (n == 0) {
            return 0;
        }
        long[] l = new long[n];
        for (int i = 0; i < n; i++) {
            l[i] = blockLength(i);
        }
        java.util.Arrays.sort(l);
        return (l[(n - 1) / 2] + l[n / 2]) / 2.0;
    }

    /** The smallest base size the layout fits in: the end of its furthest block. */
    default long extent() {
        long end = 0;
        for (int i = 0, n = blockCount(); i < n; i++) {
            end = Math.max(end, blockOffset(i) + blockLength(i));
        }
        return end;
    }

    /**
     * Copies message bytes {@code [from, from + length)} out of {@code base} into {@code to} at
     * {@code at}: the sender's pack.
     */
    default void pack(MemorySegment base, long from, long length, MemorySegment to, long at) {
        transfer(base, from, length, to, at, true);
    }

    /** Copies {@code length} bytes from {@code from} at {@code at} into message bytes
     *  {@code [position, position + length)} of {@code base}: the receiver's unpack. */
    default void unpack(MemorySegment from, long at, long length, MemorySegment base,
                        long position) {
        transfer(base, position, length, from, at, false);
    }

    /** A cursor at message byte 0, for moving the message in pieces from front to back. */
    default LayoutCursor cursor() {
        return new LayoutCursor.ByOffset(this);
    }

    private void transfer(MemorySegment base, long position, long length, MemorySegment other,
                          long at, boolean pack) {
        long skip = position;
        long left = length;
        long o = at;
        for (int i = 0, n = blockCount(); i < n && left > 0; i++) {
            long len = blockLength(i);
            if (skip >= len) {
                skip -= len;
                continue;
            }
            long chunk = Math.min(len - skip, left);
            long b = blockOffset(i) + skip;
            if (pack) {
                MemorySegment.copy(base, b, other, o, chunk);
            } else {
                MemorySegment.copy(other, o, base, b, chunk);
            }
            o += chunk;
            left -= chunk;
            skip = 0;
        }
        if (left > 0) {
            throw new IndexOutOfBoundsException("bytes [" + position + ", " + (position + length)
                    + ") outside a layout of " + size() + " bytes");
        }
    }
}
