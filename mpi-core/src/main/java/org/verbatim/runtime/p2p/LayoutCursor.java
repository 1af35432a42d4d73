package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;

/**
 * A resumable position in the packed bytes of a {@link Layout} over a base: each call packs or
 * unpacks the next bytes and leaves the position after them, so a message can move in pieces
 * (eager fragments) without looking its place up again per piece. One per message, walked
 * forward only.
 */
public interface LayoutCursor {
    /** Packs the next {@code length} message bytes from {@code base} into {@code to} at {@code at}. */
    void pack(MemorySegment base, MemorySegment to, long at, long length);

    /** Unpacks {@code length} bytes from {@code from} at {@code at} into the next message bytes of
     *  {@code base}. */
    void unpack(MemorySegment from, long at, MemorySegment base, long length);

    /** The cursor of a layout without one of its own: positions kept here, each call finds its
     *  block again through {@link Layout#pack} and {@link Layout#unpack}. */
    final class ByOffset implements LayoutCursor {
        private final Layout layout;
        private long position;

        ByOffset(Layout layout) {
            this.layout = layout;
        }

        @Override
        public void pack(MemorySegment base, MemorySegment to, long at, long length) {
            layout.pack(base, position, length, to, at);
            position += length;
        }

        @Override
        public void unpack(MemorySegment from, long at, MemorySegment base, long length) {
            layout.unpack(from, at, length, base, position);
            position += length;
        }
    }
}
