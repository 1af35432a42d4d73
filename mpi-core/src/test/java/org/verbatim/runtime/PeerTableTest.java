package org.verbatim.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.DynamicPeers;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.Transport;

/** Peer numbers of the processes of other worlds, and the cards that lead to them. */
class PeerTableTest {
    /** A transport that reaches any card starting with "ok", remembering what it was given. */
    private static final class CardTransport implements Transport, DynamicPeers {
        final Map<Integer, String> given = new HashMap<>();

        @Override public String name() { return "fake"; }
        @Override public Capabilities capabilities() { return null; }
        @Override public boolean reaches(int peer) { return given.containsKey(peer); }
        @Override public Endpoint endpoint(int peer) { throw new UnsupportedOperationException(); }
        @Override public MemoryRegistration register(MemorySegment s, int access) { throw new UnsupportedOperationException(); }
        @Override public int progress() { return 0; }
        @Override public void close() { }
        @Override public <T> T extension(Class<T> type) { return type == DynamicPeers.class ? type.cast(this) : null; }
        @Override public String addressCard() { return "ok-me"; }

        @Override
        public boolean addPeer(int peer, String card) {
            if (!card.startsWith("ok")) {
                return false;
            }
            given.put(peer, card);
            return true;
        }
    }

    @Test
    void ownRanksKeepTheirNumbersOthersGetNewOnesOnce() {
        CardTransport t = new CardTransport();
        PeerTable table = new PeerTable("jobA", 1, 4, "hostA");
        assertEquals("jobA|1|hostA|fake=ok-me", table.card(List.of(t)));
        int[] peers = table.add(List.of("jobA|3|hostA|fake=ok-3", "jobB|0|hostB|fake=ok-b0",
                "jobB|1|hostB|fake=ok-b1"), List.of(t));
        assertArrayEquals(new int[] {3, 4, 5}, peers);
        assertEquals("ok-b1", t.given.get(5));
        assertArrayEquals(new int[] {5, 6}, table.add(List.of("jobB|1|hostB|fake=ok-b1",
                "jobC|0|hostC|fake=ok-c0"), List.of(t)), "met again: same number");
        assertEquals("hostC", table.host(6));
        assertEquals("rank 1 of job jobB on hostB", table.describe(5));
        assertEquals("rank 2", table.describe(2));
    }

    @Test
    void unreachableOrMalformedCardsAreErrors() {
        CardTransport t = new CardTransport();
        PeerTable table = new PeerTable("jobA", 0, 2, "hostA");
        MpiError e = assertThrows(MpiError.class, () -> table.add(List.of("jobB|0|hostB|fake=no"), List.of(t)));
        assertEquals(org.verbatim.runtime.base.ErrorClass.ERR_OTHER, e.errorClass());
        assertThrows(MpiError.class, () -> table.add(List.of("garbage"), List.of(t)));
        assertArrayEquals(new int[] {2}, table.add(List.of("jobB|0|hostB|fake=ok"), List.of(t)),
                "a failed add takes no number");
    }
}
