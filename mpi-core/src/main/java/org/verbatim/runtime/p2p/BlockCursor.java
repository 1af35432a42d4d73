package org.verbatim.runtime.p2p;

/**
 * A position in the bytes of a message laid out by a {@link Layout} (or contiguous, with no
 * layout): which block, and how far into it. The block schemes walk the sender's and the
 * receiver's blocks side by side with two cursors, cutting the message into pieces that are
 * contiguous on both sides. {@link #mark()} and {@link #reset()} undo the advances of a post the
 * transport refused for now.
 */
final class BlockCursor {
    private final Layout layout;
    /** Added to every offset: 0 for a local base, the registration's address for remote blocks. */
    private final long origin;
    private int block;
    private long skip;
    private int markBlock;
    private long markSkip;

    /** A cursor at the first byte of {@code layout} (null: contiguous from {@code origin}). */
    BlockCursor(Layout layout, long origin) {
        this.layout = layout;
        this.origin = origin;
        settle();
    }

    /** Offset (or address) of the byte under the cursor. */
    long position() {
        return layout == null ? origin + skip : origin + layout.blockOffset(block) + skip;
    }

    /** Bytes from the cursor to the end of its block (unbounded when contiguous). */
    long leftInBlock() {
        if (layout == null) {
            return Long.MAX_VALUE;
        }
        return block < layout.blockCount() ? layout.blockLength(block) - skip : 0;
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
        block = markBlock;
        skip = markSkip;
    }

    /** Steps over the end of a block and over empty blocks. */
    private void settle() {
        if (layout == null) {
            return;
        }
        int n = layout.blockCount();
        while (block < n && skip >= layout.blockLength(block)) {
            skip -= layout.blockLength(block);
            block++;
        }
    }
}
