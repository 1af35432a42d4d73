package org.verbatim.runtime.p2p;

/**
 * A position in the bytes of a message laid out by a {@link Layout} (or contiguous, with no
 * layout): which block, and how far into it. The block schemes walk the sender's and the
 * receiver's blocks side by side with two cursors, cutting the message into pieces that are
 * contiguous on both sides. {@link #mark()} and {@link #reset()} undo the advances of a post the
 * transport refused for now.
 *
 * <p>The current block's offset and length are looked up once when the cursor enters it (a
 * datatype's blocks are computed from its runs), not on every question: a scatter list of a
 * thousand 256-byte blocks asks three questions per block.
 */
final class BlockCursor {
    private final Layout layout;
    /** Added to every offset: 0 for a local base, the registration's address for remote blocks. */
    private final long origin;
    private final int blocks;
    private int block;
    private long skip;
    /** Offset from the origin and length of {@code block} (0 past the last). */
    private long blockOffset;
    private long blockLength;
    private int markBlock;
    private long markSkip;

    /** A cursor at the first byte of {@code layout} (null: contiguous from {@code origin}). */
    BlockCursor(Layout layout, long origin) {
        this.layout = layout;
        this.origin = origin;
        this.blocks = layout == null ? 0 : layout.blockCount();
        enter(0);
        settle();
    }

    /** Offset (or address) of the byte under the cursor. */
    long position() {
        return layout == null ? origin + skip : origin + blockOffset + skip;
    }

    /** Bytes from the cursor to the end of its block (unbounded when contiguous). */
    long leftInBlock() {
        if (layout == null) {
            return Long.MAX_VALUE;
        }
        return blockLength - skip;
    }

    /** Moves {@code n} bytes on (at most {@link #leftInBlock()}). */
    void advance(long n) {
        skip += n;
        settle();
    }

    void mark() {
        markBlock = block;
        markSkip = skip;
    }

    void reset() {
        if (block != markBlock) {
            enter(markBlock);
        }
        skip = markSkip;
    }

    private void enter(int b) {
        block = b;
        if (layout != null && b < blocks) {
            blockOffset = layout.blockOffset(b);
            blockLength = layout.blockLength(b);
        } else {
            blockOffset = 0;
            blockLength = 0;
        }
    }

    /** Steps over the end of a block and over empty blocks. */
    private void settle() {
        if (layout == null) {
            return;
        }
        while (block < blocks && skip >= blockLength) {
            skip -= blockLength;
            enter(block + 1);
        }
    }
}
