package org.verbatim.runtime.p2p;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.ext.Dispatch;
import org.verbatim.runtime.ext.Retryable;
import org.verbatim.spi.PostStatus;

/**
 * The protocols' replies without payload (FIN, SYNC_ACK, PUT_FIN, SEG_DONE, SEG_ACK): a bare header, sent at once
 * or, when the transport refuses it for now, queued in the runtime's pending queue. Replies need
 * no order among themselves, so they never hold up a peer's data messages.
 */
final class ControlMessages implements AutoCloseable {
    private final Dispatch dispatch;
    private final Arena arena = Arena.ofShared();
    /** Header scratch: used only under the runtime's lock. */
    private final MemorySegment header = arena.allocate(WireHeader.BASE_SIZE, 8);
    private final MemorySegment empty = MemorySegment.ofArray(new byte[0]);

    ControlMessages(Dispatch dispatch) {
        this.dispatch = dispatch;
    }

    /** Sends {@code kind} with {@code flags} naming request {@code id}, or queues it. */
    void send(PeerState p, byte kind, int flags, long id) {
        send(p, kind, flags, id, 0);
    }

    /** As {@link #send(PeerState, byte, int, long)}, with {@code length} in the LENGTH field. */
    void send(PeerState p, byte kind, int flags, long id, long length) {
        if (!post(p, kind, flags, id, length)) {
            dispatch.pending(new Pending(p, kind, flags, id, length));
        }
    }

    private boolean post(PeerState p, byte kind, int flags, long id, long length) {
        WireHeader.write(header, kind, (byte) flags, 0, 0, 0, length, id);
        return p.endpoint.send(header, empty) == PostStatus.OK;
    }

    /** A reply the transport refused: the only allocation, and only on RETRY. */
    private final class Pending implements Retryable {
        private final PeerState peer;
        private final byte kind;
        private final int flags;
        private final long id;
        private final long length;

        Pending(PeerState peer, byte kind, int flags, long id, long length) {
            this.peer = peer;
            this.kind = kind;
            this.flags = flags;
            this.id = id;
            this.length = length;
        }

        @Override
        public boolean retry() {
            return post(peer, kind, flags, id, length);
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
