package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.datatype.MessageShape;
import org.verbatim.datatype.TypeCursor;

/**
 * A datatype's committed form as message data: {@code count} elements of a committed type over
 * a base whose byte 0 is the type's origin. Packs and unpacks any byte range through the
 * engine's resumable cursor (so a protocol can move the message in pieces) and its copy kernels;
 * blocks are computed from the compact runs when a scheme walks them one by one.
 */
public final class TypeLayout implements Layout {
    private final MessageShape shape;

    /** The caller has checked that the base it will pass holds the whole shape. */
    public TypeLayout(MessageShape shape) {
        this.shape = shape;
    }

    public MessageShape shape() {
        return shape;
    }

    @Override
    public long size() {
        return shape.bytes();
    }

    /** Blocks after merging; computed from the runs, so asking per message costs nothing. */
    @Override
    public int blockCount() {
        return Math.toIntExact(shape.blockCount());
    }

    /** Computed from the runs (a binary search over them), no block list is built. */
    @Override
    public long blockOffset(int i) {
        return shape.blockOffset(i);
    }

    @Override
    public long blockLength(int i) {
        return shape.blockLength(i);
    }

    @Override
    public double medianBlock() {
        return shape.medianBlock();
    }

    @Override
    public long extent() {
        return shape.highest();
    }

    @Override
    public void pack(MemorySegment base, long from, long length, MemorySegment to, long at) {
        shape.cursor().seek(from).pack(base, to, at, length);
    }

    @Override
    public void unpack(MemorySegment from, long at, long length, MemorySegment base,
                       long position) {
        shape.cursor().seek(position).unpack(from, at, base, length);
    }

    /** The engine's own cursor: each piece continues where the previous one stopped. */
    @Override
    public LayoutCursor cursor() {
        TypeCursor c = shape.cursor();
        return new LayoutCursor() {
            @Override
            public void pack(MemorySegment base, MemorySegment to, long at, long length) {
                c.pack(base, to, at, length);
            }

            @Override
            public void unpack(MemorySegment from, long at, MemorySegment base, long length) {
                c.unpack(from, at, base, length);
            }
        };
    }

    @Override
    public String toString() {
        return "TypeLayout[" + shape.type() + " x" + shape.count() + "]";
    }
}
