package org.verbatim.runtime.p2p;

import java.util.Arrays;

/** A {@link Layout} given as explicit (offset, length) blocks over a base segment. */
public final class BlockList implements Layout {
    private final long[] offsets;
    private final long[] lengths;
    private final long size;
    private final double median;

    /** Blocks {@code i} at {@code offsets[i]} of {@code lengths[i]} bytes, in message order. */
    public BlockList(long[] offsets, long[] lengths) {
        if (offsets.length != lengths.length) {
            throw new IllegalArgumentException(offsets.length + " offsets but " + lengths.length
                    + " lengths");
        }
        long total = 0;
        for (int i = 0; i < offsets.length; i++) {
            if (offsets[i] < 0 || lengths[i] < 0) {
                throw new IllegalArgumentException("block " + i + " has a negative offset or length");
            }
            total += lengths[i];
        }
        this.offsets = offsets.clone();
        this.lengths = lengths.clone();
        this.size = total;
        this.median = Layout.super.medianBlock();
    }

    @Override
    public double medianBlock() {
        return median;
    }

    /** {@code count} blocks of {@code blockLength} bytes, {@code stride} bytes apart. */
    public static BlockList vector(int count, long blockLength, long stride) {
        long[] o = new long[count];
        long[] l = new long[count];
        for (int i = 0; i < count; i++) {
            o[i] = i * stride;
            l[i] = blockLength;
        }
        return new BlockList(o, l);
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int blockCount() {
        return offsets.length;
    }

    @Override
    public long blockOffset(int i) {
        return offsets[i];
    }

    @Override
    public long blockLength(int i) {
        return lengths[i];
    }

    @Override
    public String toString() {
        return "BlockList" + Arrays.toString(offsets) + Arrays.toString(lengths);
    }
}
