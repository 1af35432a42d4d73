package org.verbatim.transport.iwarp;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The last few set-up steps of each connection (requests, accepts, connection events, the first
 * message), with the milliseconds since the history began: a connection that fails names them
 * in its message, so a failure seen once on a loaded host (CI) can be read from its report. Only
 * the set-up path writes here; the data path never does.
 */
final class ConnectionHistory {
    static final int KEPT = 8;

    private final long origin = System.nanoTime();
    private final ArrayDeque<String>[] steps;

    @SuppressWarnings("unchecked")
    ConnectionHistory(int size) {
        this.steps = new ArrayDeque[size];
    }

    /** Records {@code what} for the connection to {@code peer}, dropping its oldest step beyond {@link #KEPT}. */
    void note(int peer, String what) {
        ArrayDeque<String> s = steps[peer];
        if (s == null) {
            s = steps[peer] = new ArrayDeque<>(KEPT);
        }
        if (s.size() == KEPT) {
            s.removeFirst();
        }
        s.addLast(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - origin) + " ms " + what);
    }

    /** The steps of the connection to {@code peer}, oldest first ("none" before the first). */
    String of(int peer) {
        ArrayDeque<String> s = steps[peer];
        return s == null || s.isEmpty() ? "none" : String.join(", ", s);
    }
}
