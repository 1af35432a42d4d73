package org.verbatim.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.ConformanceHarness;
import org.verbatim.spi.TransportProvider;

/**
 * What the conformance suite does not reach: frames far larger than a connection's first
 * receive buffer and send queue (both grow), every pair of four ranks connecting to each other
 * at the same moment (exactly one connection per pair survives, nothing is lost or reordered),
 * and a peer that goes away without BYE (reported as failed, naming it).
 */
class TcpTransportTest extends ConformanceHarness {
    @Override
    protected TransportProvider provider() {
        return new TcpTransportProvider();
    }

    @Override
    protected Map<String, String> config() {
        return Map.of(TcpConfiguration.EAGER_SIZE.name(), "1m",
                TcpConfiguration.SEND_QUEUE.name(), "8m");
    }

    @Test
    void framesLargerThanTheFirstBuffersArriveWhole() throws Exception {
        runRanks(2, r -> {
            int max = r.transport.capabilities().maxEager();
            if (r.rank == 0) {
                for (int i = 0; i < 6; i++) {
                    r.send(1, ints(i), pattern(max - 8 - i * 1000, i));
                }
            } else {
                r.awaitReceived(6);
                for (int i = 0; i < 6; i++) {
                    Received m = r.recorder.received.get(i);
                    assertEquals(i, m.intAt(0));
                    byte[] body = java.util.Arrays.copyOfRange(m.bytes(), 4, m.bytes().length);
                    assertArrayEquals(pattern(max - 8 - i * 1000, i), body, "message " + i);
                }
            }
            r.barrier();
        });
    }

    @Test
    void simultaneousConnectsKeepOneConnectionPerPairAndLoseNothing() throws Exception {
        int perPeer = 200;
        runRanks(4, r -> {
            r.barrier();
            for (int seq = 0; seq < perPeer; seq++) {
                for (int p = 0; p < r.size; p++) {
                    if (p != r.rank) {
                        r.send(p, ints(r.rank, seq), new byte[seq % 50]);
                    }
                }
            }
            r.awaitReceived(perPeer * (r.size - 1));
            Map<Integer, Integer> next = new HashMap<>();
            for (Received m : r.recorder.received) {
                int expected = next.getOrDefault(m.source(), 0);
                assertEquals(m.source(), m.intAt(0));
                assertEquals(expected, m.intAt(4), "order from rank " + m.source());
                next.put(m.source(), expected + 1);
            }
            r.barrier();
            TcpTransport t = (TcpTransport) r.transport;
            long connections = t.profileCounters().stream()
                    .filter(c -> c.name().equals("tcp connections")).findFirst().orElseThrow().value();
            assertEquals(r.size - 1, connections, "one connection to each peer");
            assertTrue(r.recorder.failures.isEmpty(), r.recorder.failures.toString());
            r.barrier();
        });
    }

    @Test
    void aPeerThatVanishesWithoutByeIsReportedByRank() throws Exception {
        runRanks(2, r -> {
            if (r.rank == 1) {
                r.send(0, ints(1), new byte[0]);
                r.awaitReceived(1);
                ((TcpTransport) r.transport).dropConnectionsForTest();
                r.signal("gone").countDown();
            } else {
                r.awaitReceived(1);
                r.send(1, ints(0), new byte[0]);
                r.awaitSignal("gone");
                long deadline = System.nanoTime() + 20_000_000_000L;
                while (!r.recorder.failures.containsKey(1) && System.nanoTime() < deadline) {
                    r.transport.progress();
                }
                String reason = r.recorder.failures.get(1);
                assertTrue(reason != null && reason.contains("rank 1")
                        && reason.contains("without finalizing"), String.valueOf(reason));
                r.recorder.failures.clear(); // expected here; the harness checks for others
            }
        });
    }
}
