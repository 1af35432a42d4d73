package org.verbatim.transport.tcp;

/**
 * The send queues' hysteresis: a queue grown by a burst goes back to its first size once nothing
 * has entered it for {@link #QUEUE_IDLE_NANOS} ({@link PeerLink#shrinkIfIdle}). Progress calls
 * {@link #pass} on every pass; it looks at the clock one pass in {@link #CHECK_PASSES}, and only
 * while some queue has grown, and sweeps at most once per half the idle time.
 */
final class QueueSweep {
    /** Progress passes between two looks at the clock. */
    private static final int CHECK_PASSES = 1024;
    /** How long a grown queue must stay unused before it shrinks. */
    static final long QUEUE_IDLE_NANOS = 20_000_000L;

    private final PeerLink[] links;
    private int passesToCheck = CHECK_PASSES;
    /** Links whose send queue has grown beyond its first size. */
    private int grown;
    private long lastSweep;

    QueueSweep(PeerLink[] links) {
        this.links = links;
    }

    /** A link's queue grew beyond its first size (+1) or went back to it (-1). */
    void grown(int change) {
        grown += change;
    }

    /** One progress pass. */
    void pass() {
        if (grown > 0 && --passesToCheck <= 0) {
            passesToCheck = CHECK_PASSES;
            sweep(System.nanoTime());
        }
    }

    /** Gives back the send queues a burst grew and that have stayed unused since. */
    void sweep(long now) {
        if (now - lastSweep < QUEUE_IDLE_NANOS / 2) {
            return;
        }
        lastSweep = now;
        for (PeerLink l : links) {
            if (l != null) {
                l.shrinkIfIdle(now, QUEUE_IDLE_NANOS);
            }
        }
    }
}
