package org.verbatim.spi;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A gather or scatter list: up to {@link #capacity()} entries, each a byte range of a native
 * segment (after verbs' {@code ibv_sge} and {@code struct iovec}). Owned and reused by the caller,
 * so that posting a list allocates nothing: {@link #clear()}, then {@link #add} the ranges in
 * order. The transport reads the entries during the post call only; the memory itself must stay
 * valid until the operation completes.
 */
public final class IoVector {
    private final MemorySegment[] segments;
    private final long[] offsets;
    private final long[] lengths;
    private int count;
    private long totalLength;

    public IoVector(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        segments = new MemorySegment[capacity];
        offsets = new long[capacity];
        lengths = new long[capacity];
    }

    /** Removes every entry. */
    public IoVector clear() {
        Arrays.fill(segments, 0, count, null);
        count = 0;
        totalLength = 0;
        return this;
    }

    /** Appends {@code length} bytes of {@code segment} from {@code offset}. */
    public IoVector add(MemorySegment segment, long offset, long length) {
        if (count == segments.length) {
            throw new IllegalStateException("gather list full (" + count + " entries)");
        }
        if (offset < 0 || length < 0 || offset + length > segment.byteSize()) {
            throw new IndexOutOfBoundsException("range [" + offset + ", " + (offset + length)
                    + ") outside a segment of " + segment.byteSize() + " bytes");
        }
        segments[count] = segment;
        offsets[count] = offset;
        lengths[count] = length;
        count++;
        totalLength += length;
        return this;
    }

    /** Appends a whole segment. */
    public IoVector add(MemorySegment segment) {
        return add(segment, 0, segment.byteSize());
    }

    public int count() {
        return count;
    }

    public int capacity() {
        return segments.length;
    }

    /** Sum of the entries' lengths. */
    public long totalLength() {
        return totalLength;
    }

    public MemorySegment segment(int i) {
        check(i);
        return segments[i];
    }

    public long offset(int i) {
        check(i);
        return offsets[i];
    }

    public long length(int i) {
        check(i);
        return lengths[i];
    }

    /** Native address of entry {@code i}'s first byte. */
    public long address(int i) {
        check(i);
        return segments[i].address() + offsets[i];
    }

    /** True when every entry is in native memory (RDMA needs it). */
    public boolean allNative() {
        for (int i = 0; i < count; i++) {
            if (!segments[i].isNative()) {
                return false;
            }
        }
        return true;
    }

    /** Copies the entries, in order, to {@code to} from {@code at} (gather by the CPU). */
    public void gatherInto(MemorySegment to, long at) {
        long p = at;
        for (int i = 0; i < count; i++) {
            MemorySegment.copy(segments[i], offsets[i], to, p, lengths[i]);
            p += lengths[i];
        }
    }

    /** Copies {@code from} from {@code at} into the entries, in order (scatter by the CPU). */
    public void scatterFrom(MemorySegment from, long at) {
        long p = at;
        for (int i = 0; i < count; i++) {
            MemorySegment.copy(from, p, segments[i], offsets[i], lengths[i]);
            p += lengths[i];
        }
    }

    private void check(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("entry " + i + " of " + count);
        }
    }
}
