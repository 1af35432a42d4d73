package org.verbatim.runtime.ext;

/**
 * Work a transport refused for now ({@link org.verbatim.spi.PostStatus#RETRY}), kept in the
 * runtime's one pending queue ({@link Dispatch#pending}) and tried again on every progress pass,
 * in the order it was queued (after UCX's {@code uct_ep_pending_add}).
 */
public interface Retryable {
    /** Tries again; true when it is done and leaves the queue. */
    boolean retry();

    /**
     * The world rank whose messages must keep their order behind this item, or -1: while an
     * ordered item for a peer stays queued, later items for the same peer are not tried in that
     * pass (MPI's non-overtaking rule for one peer).
     */
    default int orderedPeer() {
        return -1;
    }
}
