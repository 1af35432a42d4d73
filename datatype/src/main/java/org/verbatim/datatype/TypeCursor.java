package org.verbatim.datatype;

import java.lang.foreign.MemorySegment;

/**
 * A resumable position in the packed bytes of a message ({@code count} elements of a committed
 * type): pack or unpack the next {@code length} bytes, stop anywhere (mid-block too), go on
 * later, or {@link #seek} to any byte. This is what lets a scheme cut a message into segments and
 * pack one while another is on the wire.
 *
 * <p>The base segment holds the type's origin at its byte 0; every call first checks that the
 * whole message fits in it and that the other side has room, so a bad layout writes nothing.
 * A cursor is not thread-safe; make one per transfer ({@link CommittedType#cursor}).
 */
public final class TypeCursor {
    /** Elements a transfer must span before the field-by-field loop pays. */
    private static final long TRANSPOSE_MIN_UNITS = 8;
    /** Most blocks per element for the field-by-field loop. */
    private static final long TRANSPOSE_MAX_BLOCKS = 16;
    private final MessageShape shape;
    private final RunList runs;
    private final boolean transposed;
    private final boolean transposedUnpack;
    private final long total;
    private long position;
    private long unit;
    private int run;
    private long block;
    private long inBlock;

    TypeCursor(MessageShape shape) {
        this.shape = shape;
        this.runs = shape.runs;
        this.total = shape.bytes();
        this.transposed = shape.units >= TRANSPOSE_MIN_UNITS
                && runs.blocks() <= TRANSPOSE_MAX_BLOCKS;
        // unpacking field by field changes the order of writes: only where no byte is written twice
        CommittedType t = shape.type();
        this.transposedUnpack = transposed && !t.isOverlapping() && t.extent >= t.trueExtent();
    }

    /**
     * Whole elements of a type with few blocks each (a struct of a few fields): copied field by
     * field over all the elements (one strided loop per block of the element) instead of element
     * by element, which would pay the loop's per-block overhead for every small field.
     */
    private void wholeUnits(MemorySegment base, MemorySegment other, long at, long m,
                            boolean packing) {
        long from = unit * shape.unitExtent;
        long unitSize = shape.unitSize;
        long unitExtent = shape.unitExtent;
        for (int r = 0; r < runs.count(); r++) {
            long len = runs.length(r);
            for (long k = 0; k < runs.repeat(r); k++) {
                long b = from + runs.offset(r) + k * runs.stride(r);
                long p = at + runs.prefix[r] + k * len;
                if (packing) {
                    CopyKernels.strided(base, b, unitExtent, other, p, unitSize, len, m);
                } else {
                    CopyKernels.strided(other, p, unitSize, base, b, unitExtent, len, m);
                }
            }
        }
    }

    public MessageShape shape() {
        return shape;
    }

    /** Packed bytes done so far. */
    public long position() {
        return position;
    }

    public long remaining() {
        return total - position;
    }

    /** Moves to packed byte {@code to} ({@code 0 <= to <= bytes}). */
    public TypeCursor seek(long to) {
        if (to < 0 || to > total) {
            throw DatatypeException.argument("position " + to + " outside a message of " + total
                    + " bytes");
        }
        position = to;
        if (to == total) {
            unit = shape.units;
            run = 0;
            block = 0;
            inBlock = 0;
            return this;
        }
        unit = to / shape.unitSize;
        long rest = to - unit * shape.unitSize;
        run = runs.runAt(rest);
        long inRun = rest - runs.prefix[run];
        long len = runs.length(run);
        block = inRun / len;
        inBlock = inRun - block * len;
        return this;
    }

    /** Packs the next {@code length} bytes from {@code base} into {@code out} at {@code at}. */
    public void pack(MemorySegment base, MemorySegment out, long at, long length) {
        transfer(base, out, at, length, true);
    }

    /** Unpacks the next {@code length} bytes from {@code in} at {@code at} into {@code base}. */
    public void unpack(MemorySegment in, long at, MemorySegment base, long length) {
        transfer(base, in, at, length, false);
    }

    private void transfer(MemorySegment base, MemorySegment other, long at, long length,
                          boolean packing) {
        if (length < 0 || length > total - position) {
            throw DatatypeException.argument(length + " bytes asked at position " + position
                    + " of a message of " + total + " bytes");
        }
        if (length == 0) {
            return;
        }
        shape.checkFits(base);
        if (at < 0 || at + length > other.byteSize()) {
            throw new DatatypeException(packing ? DatatypeException.Reason.BUFFER
                    : DatatypeException.Reason.ARGUMENT, (packing ? "pack target" : "packed source")
                    + " holds " + other.byteSize() + " bytes, " + (at + length) + " needed");
        }
        if (shape.isContiguous()) {
            long b = runs.offset(0) + position;
            if (packing) {
                MemorySegment.copy(base, b, other, at, length);
            } else {
                MemorySegment.copy(other, at, base, b, length);
            }
            seek(position + length);
            return;
        }
        long left = length;
        if (run == 0 && block == 0 && inBlock == 0 && (packing ? transposed : transposedUnpack)
                && left >= TRANSPOSE_MIN_UNITS * shape.unitSize) {
            long m = left / shape.unitSize;
            wholeUnits(base, other, at, m, packing);
            at += m * shape.unitSize;
            left -= m * shape.unitSize;
            unit += m;
            position += m * shape.unitSize;
            length = left;
            if (left == 0) {
                return;
            }
        }
        long[] offsets = runs.offsets;
        long[] lengths = runs.lengths;
        long[] strides = runs.strides;
        long[] repeats = runs.repeats;
        int runCount = offsets.length;
        while (left > 0) {
            long len = lengths[run];
            long stride = strides[run];
            long addr = unit * shape.unitExtent + offsets[run] + block * stride + inBlock;
            if (inBlock == 0 && left >= len) {
                long m = Math.min(left / len, repeats[run] - block);
                if (packing) {
                    CopyKernels.gather(base, addr, stride, len, m, other, at);
                } else {
                    CopyKernels.scatter(other, at, len, m, base, addr, stride);
                }
                at += m * len;
                left -= m * len;
                block += m;
            } else {
                long c = Math.min(len - inBlock, left);
                if (packing) {
                    MemorySegment.copy(base, addr, other, at, c);
                } else {
                    MemorySegment.copy(other, at, base, addr, c);
                }
                at += c;
                left -= c;
                inBlock += c;
                if (inBlock == len) {
                    inBlock = 0;
                    block++;
                }
            }
            if (block == repeats[run]) {
                block = 0;
                if (++run == runCount) {
                    run = 0;
                    unit++;
                }
            }
        }
        position += length;
    }
}
