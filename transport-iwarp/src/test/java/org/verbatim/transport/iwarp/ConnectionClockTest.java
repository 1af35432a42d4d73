package org.verbatim.transport.iwarp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ConnectionClockTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aGapOutsideMpiIsForgivenToConnectionsBegunBeforeIt() {
        long t0 = System.nanoTime();
        ConnectionClock c = new ConnectionClock(3, S);
        c.begin(0, t0 - 5);
        c.accepted(1, t0 - 5);
        c.polled(t0, true);
        c.begin(2, t0 + 10 * S - 1); // begun by the call that ends the gap, before its poll
        c.polled(t0 + 10 * S, true); // 10 s outside MPI
        assertEquals(5, c.sinceBegun(0, t0 + 10 * S), "the gap does not count");
        assertEquals(5, c.sinceAccepted(1, t0 + 10 * S));
        assertEquals(S + 1, c.sinceBegun(2, t0 + 11 * S), "no gap to forgive");
    }

    @Test
    void shortGapsAndIdleGapsCount() {
        long t0 = System.nanoTime();
        ConnectionClock c = new ConnectionClock(1, S);
        c.begin(0, t0 - 1);
        c.polled(t0, true);
        c.polled(t0 + S / 2, true); // below the gap: it counts
        assertEquals(S / 2 + 1, c.sinceBegun(0, t0 + S / 2));
        c.polled(t0 + 5 * S, false); // nothing in progress: nothing moves
        assertEquals(5 * S + 1, c.sinceBegun(0, t0 + 5 * S));
    }
}
