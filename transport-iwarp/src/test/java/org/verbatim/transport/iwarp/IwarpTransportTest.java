package org.verbatim.transport.iwarp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.ConformanceHarness;
import org.verbatim.spi.TransportProvider;
import org.verbatim.transport.verbs.VerbsCounters;

/**
 * iwarp beyond the SPI contract, inside the RDMA guest on siw0: the capability record, connection
 * set-up through the RDMA CM at 2 to 8 ranks all at once and on demand, the hidden first message,
 * and the error an RDMA CM failure gives.
 */
@Tag("rdma")
class IwarpTransportTest extends ConformanceHarness {
    private Map<String, String> config = Map.of(IwarpConfiguration.DEVICE.name(), "siw0");

    @Override
    protected TransportProvider provider() {
        return new IwarpTransportProvider();
    }

    @Override
    protected Map<String, String> config() {
        return config;
    }

    @Override
    protected long timeoutSeconds() {
        return 300;
    }

    private void use(String... keyValues) {
        Map<String, String> c = new HashMap<>(Map.of(IwarpConfiguration.DEVICE.name(), "siw0"));
        for (int i = 0; i < keyValues.length; i += 2) {
            c.put(keyValues[i], keyValues[i + 1]);
        }
        config = c;
    }

    private static IwarpTransport iwarp(Rank r) {
        return (IwarpTransport) r.transport;
    }

    /**
     * No immediate data and no placement order; the device's own gather entries, one read sink
     * entry, its read depth; refused writes not reported.
     */
    @Test
    void capabilityRecordSaysWhatIwarpGives() throws Exception {
        runRanks(2, r -> {
            Capabilities caps = r.caps();
            assertFalse(caps.has(Capability.WRITE_WITH_IMMEDIATE), caps.toString());
            assertFalse(caps.has(Capability.IN_ORDER_PLACEMENT), caps.toString());
            assertTrue(caps.has(Capability.RDMA_READ) && caps.has(Capability.RDMA_WRITE), caps.toString());
            assertFalse(caps.has(Capability.SHARED_RECEIVE_QUEUE), "sr by default: " + caps);
            assertTrue(caps.readsInFlight() >= 1, caps.toString());
            assertTrue(caps.put().maxIov() >= 1, caps.toString());
            // an iWARP read request names one sink buffer: siw0 says max_sge_rd 1
            assertEquals(1, caps.get().maxIov(), caps.toString());
            assertFalse(caps.has(Capability.READ_SCATTER), caps.toString());
            assertTrue(caps.has(Capability.WRITE_GATHER) == caps.put().maxIov() >= 2, caps.toString());
            // writes complete once sent: a refused one is not reported to it
            assertTrue(caps.has(Capability.REMOTE_ACCESS_ERRORS_UNREPORTED), caps.toString());
            assertEquals(8192 - 4, caps.maxEager(), "the in-band control word comes off the eager size");
        });
    }

    /**
     * All at once: every pair is connected when open returns (connect requests in reverse rank
     * order, then a barrier); each client sent one hidden first message per server and each
     * server one answer per client, and every message afterwards arrives once, in order, with no
     * first message among them.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8})
    void connectsAllAtOnce(int ranks) throws Exception {
        use(IwarpConfiguration.CONNECT.name(), "all");
        runRanks(ranks, r -> {
            CmConnections c = iwarp(r).connections();
            assertEquals(r.size - 1, c.connected(), "connections up after open");
            VerbsCounters counters = iwarp(r).counters();
            assertEquals(r.size - 1, counters.firstMessages(), "one first message per lower rank, one answer per higher");
            assertEquals(r.size - 1, counters.firstMessagesReceived(), "one answer per lower rank, one first message per higher");
            exchangeWithEveryone(r, 3);
        });
    }

    /**
     * On demand: nothing is connected at open; every rank then sends to every other, so half the
     * pairs start from the server's side (CALL_ME) and half from the client's, some at once.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8})
    void connectsOnDemand(int ranks) throws Exception {
        use(IwarpConfiguration.CONNECT.name(), "on-demand");
        runRanks(ranks, r -> {
            assertEquals(0, iwarp(r).connections().connected(), "nothing connected at open");
            exchangeWithEveryone(r, 3);
            assertEquals(r.size - 1, iwarp(r).counters().queuePairs(), iwarp(r).profileLine());
            // a first message to each lower rank, an answer to each higher rank's
            assertEquals(r.size - 1, iwarp(r).counters().firstMessages(), iwarp(r).profileLine());
        });
    }

    /** Only pairs that talk connect: 0 to 3 (a server talking first) and 2 to 1 (a client). */
    @Test
    void onDemandConnectsOnlyTalkingPairs() throws Exception {
        use(IwarpConfiguration.CONNECT.name(), "on-demand");
        runRanks(4, r -> {
            int partner = switch (r.rank) {
                case 0 -> 3;
                case 3 -> 0;
                case 1 -> 2;
                default -> 1;
            };
            if (r.rank == 0 || r.rank == 2) {
                r.send(partner, ints(r.rank), pattern(100, r.rank));
            }
            if (r.rank == 3 || r.rank == 1) {
                r.awaitReceived(1);
                assertEquals(partner, r.recorder.received.get(0).source());
            }
            r.barrier();
            assertEquals(1, iwarp(r).counters().queuePairs(), iwarp(r).profileLine());
        });
    }

    /**
     * The first message and its answer are the transport's: a server that is sent nothing sees
     * nothing, although the client's first message arrived (it made the connection count as up),
     * and the client sees only what it was sent, not the answer.
     */
    @Test
    void firstMessageNeverReachesTheRuntime() throws Exception {
        use(IwarpConfiguration.CONNECT.name(), "on-demand");
        runRanks(2, r -> {
            if (r.rank == 0) {
                r.send(1, ints(42), new byte[0]); // rank 0 is the server: CALL_ME, rank 1 connects
            } else {
                r.awaitReceived(1);
                assertEquals(42, r.recorder.received.get(0).intAt(0));
            }
            r.barrier();
            r.progressFor(500);
            if (r.rank == 0) {
                assertEquals(0, r.recorder.received.size(), "rank 0 was sent nothing");
                assertEquals(1, iwarp(r).counters().firstMessagesReceived());
                assertEquals(1, iwarp(r).counters().firstMessages(), "the answer");
                assertEquals(ConnectionState.CONNECTED, iwarp(r).connections().state(1));
            } else {
                assertEquals(1, r.recorder.received.size());
                assertEquals(1, iwarp(r).counters().firstMessages());
                assertEquals(1, iwarp(r).counters().firstMessagesReceived(), "the answer");
            }
        });
    }

    /**
     * On the sr channel a reply carries the credits of the request it answers in its in-band
     * word: a ping-pong of 2,000 round trips (far beyond the 24-credit window) sends no credit
     * message, and every message arrives whole and in order.
     */
    @Test
    void pingPongReturnsCreditsInTheReplies() throws Exception {
        final int rounds = 2000;
        runRanks(2, r -> {
            pingPong(r, rounds, 16);
            VerbsCounters c = iwarp(r).counters();
            assertTrue(c.creditMessages() <= 1, "credit control messages: " + iwarp(r).profileLine());
        });
    }

    /**
     * Credits still come back when no data goes the other way: 1,000 messages one way (40 times
     * the window) arrive in order, the receiver returning its credits by control messages.
     */
    @Test
    void oneWayStreamReturnsCreditsByMessage() throws Exception {
        final int messages = 1000;
        runRanks(2, r -> {
            if (r.rank == 0) {
                for (int i = 0; i < messages; i++) {
                    r.send(1, ints(i), pattern(100, i));
                }
            } else {
                r.awaitReceived(messages);
                for (int i = 0; i < messages; i++) {
                    assertEquals(i, r.recorder.received.get(i).intAt(0));
                }
                assertTrue(iwarp(r).counters().creditMessages() >= messages / 24,
                        "credit control messages: " + iwarp(r).profileLine());
            }
            r.barrier();
        });
    }

    /** A refused connection fails the peer with the device, this side's address and the peer's address and port. */
    @Test
    void refusedConnectionNamesDeviceAddressAndPort() throws Exception {
        use(IwarpConfiguration.CONNECT.name(), "on-demand", IwarpConfiguration.CONNECT_TIMEOUT.name(), "30");
        runRanks(2, r -> {
            if (r.rank == 1) {
                InetSocketAddress wrong = new InetSocketAddress(
                        iwarp(r).connections().listening().getAddress(), 9);
                iwarp(r).connections().useAddress(0, wrong);
                // one post (RETRY while connecting); a failed peer keeps answering RETRY, the
                // failure goes to the handler
                r.transport.endpoint(0).send(java.lang.foreign.MemorySegment.ofArray(ints(1)),
                        java.lang.foreign.MemorySegment.ofArray(new byte[0]));
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (!r.recorder.failures.containsKey(0) && System.nanoTime() < deadline) {
                    r.transport.progress();
                }
                String reason = r.recorder.failures.get(0);
                assertTrue(reason != null, "no failure reported");
                assertTrue(reason.contains("siw0"), reason);
                assertTrue(reason.contains(wrong.getAddress().getHostAddress() + ":9"), reason);
                // refused at once by rdma_connect (errno 111, ECONNREFUSED) or later as an event
                assertTrue(reason.contains("REJECTED") || reason.contains("UNREACHABLE")
                        || reason.contains("CONNECT_ERROR") || reason.contains("errno 111"), reason);
                r.recorder.failures.clear();
                r.signal("done").countDown();
            } else {
                r.awaitSignal("done");
            }
        });
    }

    /** A listener address of no local interface: open fails naming the device, the address and the port. */
    @Test
    void unusableAddressFailsOpenClearly() {
        use(IwarpConfiguration.ADDRESS.name(), "192.0.2.1", IwarpConfiguration.PORT.name(), "4791");
        AssertionError e = assertThrows(AssertionError.class, () -> runRanks(1, r -> { }));
        String message = String.valueOf(e.getMessage());
        assertTrue(message.contains("siw0") && message.contains("192.0.2.1:4791"), message);
    }

    /** Every rank sends {@code rounds} messages to every other and checks it got exactly theirs. */
    private static void exchangeWithEveryone(Rank r, int rounds) {
        for (int round = 0; round < rounds; round++) {
            for (int k = 1; k < r.size; k++) {
                int peer = (r.rank + k) % r.size;
                r.send(peer, ints(r.rank, round), pattern(64 + round * 1000, r.rank * 31 + round));
            }
        }
        int expected = rounds * (r.size - 1);
        r.awaitReceived(expected);
        r.barrier();
        r.progressFor(100);
        assertEquals(expected, r.recorder.received.size(), "exactly the messages sent, no first message");
        int[] next = new int[r.size];
        for (Received m : r.recorder.received) {
            int round = m.intAt(4);
            assertEquals(next[m.source()]++, round, "order from rank " + m.source());
            assertEquals(m.source(), m.intAt(0));
            assertEquals(8 + 64 + round * 1000, m.bytes().length);
        }
    }
}
