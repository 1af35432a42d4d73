package org.verbatim.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Address cards of peers of other worlds, their peer numbers and parked HELLOs. */
class ForeignPeersTest {
    @Test
    void cardsRoundTripAndNameTheirPeer() {
        ForeignPeers f = new ForeignPeers(4, 4 + 8);
        String card = ForeignPeers.card(0xfedcba9876543210L, 2, "10.1.2.3:4000 [::1]:4000");
        assertFalse(card.contains(" "), card);
        assertTrue(f.add(5, card));
        assertTrue(f.known(5));
        assertFalse(f.known(4));
        assertFalse(f.known(3), "world ranks are not foreign");
        assertEquals(2, f.rankInItsWorld(5));
        assertEquals(5, f.peerOf(0xfedcba9876543210L, 2));
        assertEquals(-1, f.peerOf(0xfedcba9876543210L, 3));
        assertEquals(List.of(new InetSocketAddress("10.1.2.3", 4000), new InetSocketAddress("::1", 4000)),
                f.addresses(5));
    }

    @Test
    void refusesBadCardsAndNumbers() {
        ForeignPeers f = new ForeignPeers(4, 6);
        String card = ForeignPeers.card(1, 0, "127.0.0.1:1");
        assertFalse(f.add(3, card), "a world rank");
        assertFalse(f.add(6, card), "beyond the capacity");
        assertFalse(f.add(4, "not a card"));
        assertFalse(f.add(4, "zz/0/127.0.0.1:1"));
    }
}
