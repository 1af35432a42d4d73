package org.verbatim.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The rule by which two processes of different worlds choose shm: both apply it to the same two
 * cards, so it must be symmetric, and it must refuse whatever would not share memory.
 */
class ForeignInboxesTest {
    private static String card(String boot, String ns, String uid, long pid, boolean cma, boolean ptraceable,
                               int maxRecord) {
        return String.join(",", "v1", boot, ns, uid, Long.toString(pid), "7", "9", "7f00aa", cma ? "1" : "0",
                ptraceable ? "1" : "0", Integer.toString(maxRecord));
    }

    private static boolean both(String a, String b) {
        ForeignInboxes.Card x = ForeignInboxes.Card.parse(a);
        ForeignInboxes.Card y = ForeignInboxes.Card.parse(b);
        assertNotNull(x, a);
        assertNotNull(y, b);
        boolean one = x.sharesMemoryWith(y);
        assertEquals(one, y.sharesMemoryWith(x), "the rule must be symmetric: " + a + " / " + b);
        return one;
    }

    @Test
    void sameHostUserAndNamespaceShare() {
        assertTrue(both(card("b", "1", "0", 10, true, true, 4096), card("b", "1", "0", 11, true, true, 4096)));
        assertTrue(both(card("b", "1", "0", 10, false, false, 4096), card("b", "1", "0", 11, false, false, 4096)));
        // one side copies with CMA and the other allows it; the other does not copy
        assertTrue(both(card("b", "1", "0", 10, true, true, 4096), card("b", "1", "0", 11, false, true, 4096)));
    }

    @Test
    void anythingThatWouldNotShareMemoryIsRefusedByBoth() {
        String mine = card("b", "1", "0", 10, true, true, 4096);
        assertFalse(both(mine, card("other-boot", "1", "0", 11, true, true, 4096)), "another host");
        assertFalse(both(mine, card("b", "2", "0", 11, true, true, 4096)), "another pid namespace");
        assertFalse(both(mine, card("b", "1", "1000", 11, true, true, 4096)), "another user");
        assertFalse(both(mine, card("b", "1", "0", 10, true, true, 4096)), "the same process");
        assertFalse(both(mine, card("b", "1", "0", 11, true, true, 8192)), "another record size");
        assertFalse(both(mine, card("b", "1", "0", 11, false, false, 4096)), "CMA into a process that forbids it");
    }

    @Test
    void cardsOfAnotherVersionOrMalformedAreNotRead() {
        assertNull(ForeignInboxes.Card.parse(null));
        assertNull(ForeignInboxes.Card.parse("v2,b,1,0,10,7,9,7f,1,1,4096"));
        assertNull(ForeignInboxes.Card.parse("v1,b,1,0,x,7,9,7f,1,1,4096"));
        assertNull(ForeignInboxes.Card.parse("v1,b,1,0,10"));
    }
}
