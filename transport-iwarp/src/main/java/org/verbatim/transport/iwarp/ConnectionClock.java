package org.verbatim.transport.iwarp;

/**
 * The times of connection set-up, per peer: when the connection (or its recovery) began, when
 * the server accepted it, when it came up on this side. Time this process spends outside MPI
 * does not count against a connection: when {@link #polled} finds that the last poll was more
 * than {@code gapNanos} ago, the times of the connections begun or accepted before that gap move
 * by it (one begun since, by the send that ended the gap, had no gap to forgive).
 */
final class ConnectionClock {
    private final long gapNanos;
    private final long[] begun;
    private final long[] accepted;
    private final long[] up;
    private long lastPoll = System.nanoTime();

    ConnectionClock(int size, long gapNanos) {
        this.gapNanos = gapNanos;
        this.begun = new long[size];
        this.accepted = new long[size];
        this.up = new long[size];
    }

    /** A poll at {@code now}; {@code inProgress}: connections were being set up. */
    void polled(long now, boolean inProgress) {
        long previous = lastPoll;
        long gap = now - previous;
        lastPoll = now;
        if (gap > gapNanos && inProgress) {
            for (int p = 0; p < begun.length; p++) {
                if (begun[p] - previous < 0) {
                    begun[p] += gap;
                }
                if (accepted[p] - previous < 0) {
                    accepted[p] += gap;
                }
            }
        }
    }

    void begin(int peer, long now) {
        begun[peer] = now;
    }

    void accepted(int peer, long now) {
        accepted[peer] = now;
    }

    void up(int peer, long now) {
        up[peer] = now;
    }

    /** Nanoseconds since the connection to {@code peer} began (gaps forgiven). */
    long sinceBegun(int peer, long now) {
        return now - begun[peer];
    }

    long begun(int peer) {
        return begun[peer];
    }

    /** Nanoseconds since the server accepted {@code peer}'s connection (gaps forgiven). */
    long sinceAccepted(int peer, long now) {
        return now - accepted[peer];
    }

    /** Nanoseconds since the connection to {@code peer} came up on this side (or {@link #up} was last set). */
    long sinceUp(int peer, long now) {
        return now - up[peer];
    }
}
