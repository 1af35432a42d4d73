package org.verbatim.transport.iwarp;

import java.util.concurrent.TimeUnit;

/**
 * The bounded retry of connection attempts, per peer: how many attempts failed, when the next
 * may start (exponential backoff from 100 ms, at most 2 s apart), and when to give up (after
 * {@link #MAX_ATTEMPTS} attempts, or when the next one would start after the connect timeout).
 * Soft-iWARP waits only 5 s for the MPA reply, so a peer that accepts later (a busy rank, a
 * starved emulated host) makes an attempt fail that the next one, on a fresh queue pair, makes.
 */
final class ConnectAttempts {
    static final int MAX_ATTEMPTS = 8;
    static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final long timeoutNanos;
    private final int[] failed;
    private final long[] next;

    ConnectAttempts(int size, long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
        this.failed = new int[size];
        this.next = new long[size];
    }

    /**
     * Records a failed attempt at {@code now} of a connection begun at {@code started}: true if
     * another attempt may be made ({@link #due} from then on), false to give up.
     */
    boolean failed(int peer, long started, long now) {
        int n = ++failed[peer];
        long wait = backoffNanos(n);
        if (n >= MAX_ATTEMPTS || now + wait - started >= timeoutNanos) {
            return false;
        }
        next[peer] = now + wait;
        return true;
    }

    /** The wait after the {@code failures}-th failed attempt. */
    static long backoffNanos(int failures) {
        int shift = Math.min(failures - 1, 20);
        return Math.min(MAX_BACKOFF_NANOS, FIRST_BACKOFF_NANOS << shift);
    }

    /** True once the next attempt to {@code peer} may start. */
    boolean due(int peer, long now) {
        return now - next[peer] >= 0;
    }

    /** Attempts to {@code peer} that failed (since the last {@link #reset}). */
    int failures(int peer) {
        return failed[peer];
    }

    /** The connection to {@code peer} is up: a later reconnection starts counting afresh. */
    void reset(int peer) {
        failed[peer] = 0;
    }
}
