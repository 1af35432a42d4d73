package org.verbatim.transport.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CreditAccountTest {
    @Test
    void senderSpendsTheWindowThenWaits() {
        CreditAccount c = new CreditAccount(8);
        for (int i = 0; i < 8; i++) {
            assertTrue(c.tryConsume());
        }
        assertFalse(c.tryConsume(), "no credit: the sender must get RETRY, never overwrite");
        c.grant(3);
        assertEquals(3, c.credits());
        assertThrows(IllegalStateException.class, () -> c.grant(6), "more than the window back");
    }

    @Test
    void receiverReturnsInQuarterBatches() {
        CreditAccount c = new CreditAccount(32);
        for (int i = 0; i < 7; i++) {
            c.consumed();
            assertFalse(c.returnDue());
        }
        c.consumed();
        assertTrue(c.returnDue());
        assertEquals(8, c.takeReturn());
        assertEquals(0, c.pendingReturn());
        assertFalse(c.returnDue());
    }

    @Test
    void aRoundTripKeepsTheBalance() {
        CreditAccount sender = new CreditAccount(16);
        CreditAccount receiver = new CreditAccount(16);
        int inFlight = 0;
        for (int step = 0; step < 10_000; step++) {
            if (sender.tryConsume()) {
                inFlight++;
            }
            if (inFlight > 0 && step % 3 == 0) {
                inFlight--;
                receiver.consumed();
            }
            if (receiver.returnDue()) {
                sender.grant(receiver.takeReturn());
            }
            assertTrue(inFlight <= 16, "more in flight than buffers");
            assertEquals(16, sender.credits() + inFlight + receiver.pendingReturn());
        }
    }

    @Test
    void piggybackedReturnsEveryMessageOrUntakenKeepTheBalance() {
        // the fast path takes whatever is pending at each reply (piggyback), gives it back when
        // the post fails (untake), and sends a batch return only when replies stop
        CreditAccount sender = new CreditAccount(8);
        CreditAccount receiver = new CreditAccount(8);
        int inFlight = 0;
        for (int step = 0; step < 10_000; step++) {
            if (sender.tryConsume()) {
                inFlight++;
            }
            if (inFlight > 0 && step % 2 == 0) {
                inFlight--;
                receiver.consumed();
            }
            if (step % 5 == 0) {
                int n = receiver.takeReturn();
                if (step % 3 == 0) {
                    receiver.untake(n); // the reply could not be posted
                } else {
                    sender.grant(n);
                }
            } else if (receiver.returnDue()) {
                sender.grant(receiver.takeReturn());
            }
            assertEquals(8, sender.credits() + inFlight + receiver.pendingReturn());
        }
    }
}
