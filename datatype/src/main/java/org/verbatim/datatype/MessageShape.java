package org.verbatim.datatype;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * {@code count} elements of a committed type, as the kernels see them: when one element is a
 * single run that repeats across the extent (contiguous, a vector whose extent is its count of
 * strides), the whole message is folded into one run, so a vector of n columns is one run of
 * n x count blocks and a contiguous message one block. Knows the span of memory the message
 * touches (checked against a buffer before anything is copied), its block statistics and its
 * expanded {@code <offset, length>} list.
 */
public final class MessageShape {
    private final CommittedType type;
    private final long count;
    /** Runs of one unit, and how many units lie {@code unitExtent} apart. */
    final RunList runs;
    final long units;
    final long unitExtent;
    final long unitSize;

    MessageShape(CommittedType type, long count) {
        this.type = type;
        this.count = count;
        RunList r = type.runs;
        if (count > 1 && r.count() == 1 && type.size > 0
                && type.extent == r.repeat(0) * r.stride(0)) {
            long n = r.repeat(0) * count;
            RunBuilder b = new RunBuilder();
            b.add(r.offset(0), r.length(0), r.stride(0), n);
            this.runs = b.build();
            this.units = 1;
            this.unitExtent = 0;
            this.unitSize = Math.multiplyExact(type.size, count);
        } else {
            this.runs = r;
            this.units = count;
            this.unitExtent = type.extent;
            this.unitSize = type.size;
        }
    }

    public CommittedType type() {
        return type;
    }

    public long count() {
        return count;
    }

    /** A cursor over the message's packed bytes, at byte 0. */
    public TypeCursor cursor() {
        return new TypeCursor(this);
    }

    /** Packed bytes of the message. */
    public long bytes() {
        return unitSize * units;
    }

    /** True when the message is one block (a single copy). */
    public boolean isContiguous() {
        return bytes() == 0 || (units == 1 && runs.count() == 1 && runs.repeat(0) == 1);
    }

    /** Lowest byte offset (from the origin) the message touches; 0 when it touches none. */
    public long lowest() {
        if (bytes() == 0) {
            return 0;
        }
        return type.trueLb + Math.min(0, (count - 1) * type.extent);
    }

    /** One past the highest byte offset the message touches; 0 when it touches none. */
    public long highest() {
        if (bytes() == 0) {
            return 0;
        }
        return type.trueUb + Math.max(0, (count - 1) * type.extent);
    }

    /**
     * Refuses a buffer of {@code available} bytes (the origin at its byte 0) that the message
     * would overrun: nothing is copied before this check.
     */
    public void checkFits(long available, String what) {
        if (bytes() == 0) {
            return;
        }
        if (lowest() < 0 || highest() > available) {
            throw new DatatypeException(DatatypeException.Reason.BUFFER, what + " too small for "
                    + count + " elements of the type: they reach bytes [" + lowest() + ", "
                    + highest() + "), the buffer holds [0, " + available + ")");
        }
    }

    /** Checks {@code base} holds the whole message. */
    void checkFits(MemorySegment base) {
        checkFits(base.byteSize(), "buffer");
    }

    /** Blocks of the message (after merging), without expanding them. */
    public long blockCount() {
        return runs.blocks() * units;
    }

    /** Offset from the origin of block {@code i} in pack order, computed (no list is built). */
    public long blockOffset(long i) {
        long per = runs.blocks();
        long u = i / per;
        long k = i - u * per;
        int r = runs.runOfBlock(k);
        return u * unitExtent + runs.offset(r) + (k - runs.blockPrefix[r]) * runs.stride(r);
    }

    /** Length of block {@code i} in pack order. */
    public long blockLength(long i) {
        long per = runs.blocks();
        return runs.length(runs.runOfBlock(i % per));
    }

    /**
     * Median block size of the message's blocks, as {@link #statistics()} gives it, but computed
     * once per committed type and kept (no allocation per message): what scheme selection reads.
     */
    public double medianBlock() {
        return runs.blocks() == 0 || units == 0 ? 0 : runs.medianBlock();
    }

    /** Count, mean and median block size of the message's blocks. */
    public BlockStatistics statistics() {
        long blocks = runs.blocks() * units;
        if (blocks == 0) {
            return new BlockStatistics(0, 0, 0, 0, 0, 0);
        }
        int n = runs.count();
        long[][] byLength = new long[n][];
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int r = 0; r < n; r++) {
            byLength[r] = new long[] {runs.length(r), runs.repeat(r) * units};
            min = Math.min(min, runs.length(r));
            max = Math.max(max, runs.length(r));
        }
        Arrays.sort(byLength, (a, b) -> Long.compare(a[0], b[0]));
        long half = (blocks - 1) / 2;
        long seen = 0;
        long lower = 0;
        long upper = 0;
        boolean lowerSet = false;
        for (long[] e : byLength) {
            long next = seen + e[1];
            if (!lowerSet && half < next) {
                lower = e[0];
                lowerSet = true;
            }
            if (blocks / 2 < next) {
                upper = e[0];
                break;
            }
            seen = next;
        }
        double median = blocks % 2 == 1 ? lower : (lower + upper) / 2.0;
        return new BlockStatistics(blocks, bytes(), (double) bytes() / blocks, median, min, max);
    }

    /**
     * The message's blocks as {@code <offset, length>} pairs from the origin, in pack order
     * ({@code offsets.length == lengths.length}); refused beyond {@code limit} blocks.
     */
    public long[][] blocks(long limit) {
        long n = runs.blocks() * units;
        if (n > limit || n > Integer.MAX_VALUE - 8) {
            throw new DatatypeException(DatatypeException.Reason.TYPE, "the message has " + n
                    + " blocks, more than the " + limit + " asked for");
        }
        long[] offsets = new long[(int) n];
        long[] lengths = new long[(int) n];
        int k = 0;
        for (long u = 0; u < units; u++) {
            for (int r = 0; r < runs.count(); r++) {
                for (long i = 0; i < runs.repeat(r); i++) {
                    offsets[k] = u * unitExtent + runs.offset(r) + i * runs.stride(r);
                    lengths[k] = runs.length(r);
                    k++;
                }
            }
        }
        return new long[][] {offsets, lengths};
    }
}
