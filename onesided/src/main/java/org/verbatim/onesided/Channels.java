package org.verbatim.onesided;

import java.lang.foreign.Arena;

/**
 * The record channels of one {@link Window}, one per member, each made the first time an
 * operation or synchronisation record goes to that member, and freed with the window. A
 * synchronisation record ({@link #sendSync}) follows the operations already in the channel's
 * outbox in the same flush, so a target sees an epoch's records before the record that closes
 * it. Runs under the runtime's lock, except {@link #close}.
 */
final class Channels {
    /** Largest outbox of a channel: the transport's eager limit, at most this. */
    private static final int MAX_OUTBOX = 64 * 1024;

    private final Window w;
    private final Channel[] byRank;
    private final Arena arena = Arena.ofShared();

    Channels(Window w) {
        this.w = w;
        this.byRank = new Channel[w.size];
    }

    /** The channel to group rank {@code rank}, made on first use. */
    Channel get(int rank) {
        Channel c = byRank[rank];
        if (c == null) {
            int world = w.world[rank];
            int max = w.ctx.transport(world).capabilities().maxEager();
            c = new Channel(world, w.ext.kind(), w.ctx.endpoint(world), w.ctx.dispatch(),
                    Math.min(max, MAX_OUTBOX), arena, w.ext.counters);
            byRank[rank] = c;
        }
        return c;
    }

    /** Sends what the channel to {@code rank} holds, if that channel has been made. */
    void flush(int rank) {
        Channel c = byRank[rank];
        if (c != null) {
            c.flush();
        }
    }

    /** Sends what every channel made so far holds. */
    void flushAll() {
        for (Channel c : byRank) {
            if (c != null) {
                c.flush();
            }
        }
    }

    /** Sends a sync record of {@code type} (behind the operations) and flushes. */
    void sendSync(int rank, int type, int aux) {
        Channel c = get(rank);
        long at = c.reserve(0);
        RmaWire.writeHeader(c.outbox(), at, type, 0, 0, w.id, 0, aux, 0, 0);
        c.flush();
    }

    /** Frees the outboxes (the window is freed: nothing is sent any more). */
    void close() {
        arena.close();
    }
}
