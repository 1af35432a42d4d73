package org.verbatim.transport.iwarp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConnectionHistoryTest {
    @Test
    void keepsTheLastStepsPerPeerInOrder() {
        ConnectionHistory h = new ConnectionHistory(3);
        assertEquals("none", h.of(1));
        for (int i = 0; i < ConnectionHistory.KEPT + 2; i++) {
            h.note(1, "step " + i);
        }
        h.note(2, "other");
        String one = h.of(1);
        assertFalse(one.contains("step 0,"), one);
        assertFalse(one.contains("step 1,"), one);
        assertTrue(one.matches("\\d+ ms step 2, .*\\d+ ms step " + (ConnectionHistory.KEPT + 1)), one);
        assertEquals(ConnectionHistory.KEPT, one.split(", ").length);
        assertTrue(h.of(2).endsWith("ms other"), h.of(2));
        assertEquals("none", h.of(0));
    }
}
