package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.datatype.MessageShape;

/**
 * A datatype's committed form as message data: {@code count} elements of a committed type over
 * a base whose byte 0 is the type's origin. Packs and unpacks any byte range through the
 * engine's resumable cursor (so a protocol can move the message in pieces) and its copy kernels;
 * the block list is expanded only if someone asks for it block by block.
 */
public final class TypeLayout implements Layout {
    /** Most blocks {@link #blockOffset} and {@link #blockLength} expand. */
    private static final long EXPAND_LIMIT = 1L << 26;
    private final MessageShape shape;
    private long[][] blocks;

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

    @Override
    public int blockCount() {
        return expanded()[0].length;
    }

    @Override
    public long blockOffset(int i) {
        return expanded()[0][i];
    }

    @Override
    public long blockLength(int i) {
        return expanded()[1][i];
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

    private long[][] expanded() {
        if (blocks == null) {
            blocks = shape.blocks(EXPAND_LIMIT);
        }
        return blocks;
    }

    @Override
    public String toString() {
        return "TypeLayout[" + shape.type() + " x" + shape.count() + "]";
    }
}
