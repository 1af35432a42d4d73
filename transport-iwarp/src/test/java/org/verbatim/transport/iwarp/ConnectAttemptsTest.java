package org.verbatim.transport.iwarp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConnectAttemptsTest {
    private static final long S = TimeUnit.SECONDS.toNanos(1);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void backoffDoublesFrom100MsUpTo2S() {
        assertEquals(100 * MS, ConnectAttempts.backoffNanos(1));
        assertEquals(200 * MS, ConnectAttempts.backoffNanos(2));
        assertEquals(800 * MS, ConnectAttempts.backoffNanos(4));
        assertEquals(1600 * MS, ConnectAttempts.backoffNanos(5));
        assertEquals(2 * S, ConnectAttempts.backoffNanos(6));
        assertEquals(2 * S, ConnectAttempts.backoffNanos(100));
    }

    @Test
    void nextAttemptIsDueOnlyAfterTheBackoff() {
        ConnectAttempts a = new ConnectAttempts(2, 60 * S);
        long now = 1_000 * S;
        assertTrue(a.failed(1, now - S, now));
        assertFalse(a.due(1, now + 99 * MS));
        assertTrue(a.due(1, now + 100 * MS));
        assertTrue(a.failed(1, now - S, now + 100 * MS));
        assertFalse(a.due(1, now + 299 * MS));
        assertTrue(a.due(1, now + 300 * MS));
        assertEquals(2, a.failures(1));
        assertEquals(0, a.failures(0), "per peer");
    }

    @Test
    void givesUpAfterMaxAttempts() {
        ConnectAttempts a = new ConnectAttempts(1, 3600 * S);
        long now = 0;
        for (int i = 1; i < ConnectAttempts.MAX_ATTEMPTS; i++) {
            assertTrue(a.failed(0, 0, now), "attempt " + i);
            now += 10 * S;
        }
        assertFalse(a.failed(0, 0, now));
        assertEquals(ConnectAttempts.MAX_ATTEMPTS, a.failures(0));
    }

    @Test
    void givesUpWhenTheNextAttemptWouldStartAfterTheTimeout() {
        ConnectAttempts a = new ConnectAttempts(1, 10 * S);
        assertTrue(a.failed(0, 0, 9 * S));
        assertFalse(a.failed(0, 0, 9_900 * MS), "the 200 ms backoff ends past 10 s");
    }

    @Test
    void resetStartsCountingAfresh() {
        ConnectAttempts a = new ConnectAttempts(1, 60 * S);
        a.failed(0, 0, 0);
        a.failed(0, 0, 0);
        a.reset(0);
        assertEquals(0, a.failures(0));
        assertTrue(a.failed(0, 0, 0));
        assertTrue(a.due(0, 100 * MS));
    }
}
