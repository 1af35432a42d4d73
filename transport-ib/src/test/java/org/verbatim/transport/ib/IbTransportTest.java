package org.verbatim.transport.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.verbatim.transport.verbs.VerbsCounters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.TransportConformanceSuite;
import org.verbatim.spi.TransportProvider;

/** ib behaviour beyond the SPI contract, inside the RDMA guest: SRQ growth, fast path, cache. */
@Tag("rdma")
class IbTransportTest extends TransportConformanceSuite {
    private Map<String, String> config = Map.of();

    @Override
    protected TransportProvider provider() {
        return new IbTransportProvider();
    }

    @Override
    protected Map<String, String> config() {
        return config;
    }

    @Override
    protected long timeoutSeconds() {
        return 240;
    }

    /** More unexpected messages than SRQ buffers: the limit event grows the pool, nothing is lost. */
    @Test
    void srqExhaustionLosesNothing() throws Exception {
        config = Map.of(IbConfiguration.DEVICE.name(), "rxe0", IbConfiguration.EAGER_CHANNEL.name(), "srq",
                IbConfiguration.SRQ_SIZE.name(), "16", IbConfiguration.SRQ_LOW_WATERMARK.name(), "4",
                IbConfiguration.SRQ_MAX.name(), "64", IbConfiguration.SEND_BUFFERS.name(), "512",
                IbConfiguration.SEND_QUEUE_DEPTH.name(), "1024");
        final int messages = 400;
        runRanks(2, r -> {
            // Connect first (on demand, both sides progressing), then let rank 1 stop progressing.
            if (r.rank == 0) {
                r.send(1, ints(-1), new byte[0]);
            } else {
                r.awaitReceived(1);
            }
            r.barrier();
            if (r.rank == 0) {
                for (int i = 0; i < messages; i++) {
                    r.send(1, ints(i), pattern(1000, i));
                }
            } else {
                Thread.sleep(3000); // not progressing: the sender overruns the 16 first buffers
                r.awaitReceived(messages + 1);
                for (int i = 0; i < messages; i++) {
                    assertEquals(i, firstInt(r.recorder.received.get(i + 1).bytes()));
                }
                VerbsCounters c = ((IbTransport) r.transport).counters();
                assertTrue(c.srqLimitEvents() > 0, "no SRQ limit event: " + ((IbTransport) r.transport).profileLine());
                assertTrue(c.srqBuffers() > 16, "SRQ did not grow");
                assertTrue(c.srqBuffers() <= 64, "SRQ grew past its maximum");
            }
        });
    }

    /** ardma-srq on rxe0 with a fast-path ring of {@code slots} slots after {@code threshold} messages. */
    private static Map<String, String> fastPath(int threshold, int slots) {
        return Map.of(IbConfiguration.DEVICE.name(), "rxe0", IbConfiguration.EAGER_CHANNEL.name(), "ardma-srq",
                IbConfiguration.FASTPATH_THRESHOLD.name(), Integer.toString(threshold),
                IbConfiguration.FASTPATH_SLOTS.name(), Integer.toString(slots));
    }

    /** After the threshold, eager messages take the RDMA fast path; order is kept across the switch. */
    @Test
    void fastPathTakesOverAfterThreshold() throws Exception {
        config = fastPath(8, 8);
        final int messages = 2000;
        runRanks(2, r -> {
            if (r.rank == 0) {
                for (int i = 0; i < messages; i++) {
                    r.send(1, ints(i), pattern(i % 3000, i));
                }
            } else {
                r.awaitReceived(messages);
                for (int i = 0; i < messages; i++) {
                    var m = r.recorder.received.get(i);
                    assertEquals(i, firstInt(m.bytes()));
                    assertEquals(4 + i % 3000, m.bytes().length);
                }
                VerbsCounters c = ((IbTransport) r.transport).counters();
                assertEquals(1, c.fastPathPeers());
                assertTrue(c.fastPathMessagesReceived() > messages / 2, ((IbTransport) r.transport).profileLine());
            }
        });
    }

    /**
     * A request-reply exchange over the fast path both ways returns every ring credit in the
     * replies' footers: no CREDIT_RING control message once both rings are up (a handful may go
     * while only one direction has its ring; without the piggyback it would be one per quarter
     * ring, 500 per side here).
     */
    @Test
    void pingPongReturnsRingCreditsInTheReplies() throws Exception {
        config = fastPath(4, 8);
        final int rounds = 2000;
        runRanks(2, r -> {
            int peer = 1 - r.rank;
            for (int i = 0; i < rounds; i++) {
                if (r.rank == 0) {
                    r.send(peer, ints(i), pattern(16, i));
                    r.awaitReceived(i + 1);
                } else {
                    r.awaitReceived(i + 1);
                    r.send(peer, ints(i), pattern(16, i));
                }
                assertEquals(i, firstInt(r.recorder.received.get(i).bytes()));
            }
            VerbsCounters c = ((IbTransport) r.transport).counters();
            String line = ((IbTransport) r.transport).profileLine();
            assertEquals(1, c.fastPathPeers(), line);
            assertTrue(c.fastPathMessagesReceived() > rounds - 50, line);
            assertTrue(c.creditMessages() <= 8, "credit control messages: " + line);
        });
    }

    /** On-demand connections: only the pairs that talk get RC queue pairs (4 ranks, 2 pairs). */
    @Test
    void onlyPairsThatTalkGetQueuePairs() throws Exception {
        config = Map.of(IbConfiguration.DEVICE.name(), "rxe0");
        runRanks(4, r -> {
            int partner = r.rank ^ 1;
            for (int i = 0; i < 20; i++) {
                r.send(partner, ints(r.rank, i), pattern(i * 100, i));
            }
            r.awaitReceived(20);
            for (int i = 0; i < 20; i++) {
                var m = r.recorder.received.get(i);
                assertEquals(partner, m.source());
                assertEquals(8 + i * 100, m.bytes().length);
            }
            IbTransport t = (IbTransport) r.transport;
            assertEquals(1, t.counters().queuePairs(), t.profileLine());
            assertTrue(t.counters().connectRequests() <= 1, t.profileLine());
            assertEquals(ConnectionManager.NONE, t.connections().state(r.rank ^ 2));
            assertEquals(ConnectionManager.NONE, t.connections().state(r.rank ^ 3));
        });
    }

    /** Every rank connects to every other at the same moment: one queue pair per peer, no loss. */
    @Test
    void simultaneousConnectsFromBothSidesMakeOneQueuePairPerPeer() throws Exception {
        config = Map.of(IbConfiguration.DEVICE.name(), "rxe0", IbConfiguration.EAGER_CHANNEL.name(), "ardma-sr");
        runRanks(4, r -> {
            r.barrier();
            for (int p = 0; p < r.size; p++) {
                if (p != r.rank) {
                    r.transport.endpoint(p);
                }
            }
            for (int i = 0; i < 5; i++) {
                for (int p = 0; p < r.size; p++) {
                    if (p != r.rank) {
                        r.send(p, ints(r.rank, i), pattern(3000, r.rank * 10 + i));
                    }
                }
            }
            r.awaitReceived(15);
            int[] next = new int[r.size];
            for (var m : r.recorder.received) {
                assertEquals(next[m.source()]++, java.nio.ByteBuffer.wrap(m.bytes())
                        .order(java.nio.ByteOrder.nativeOrder()).getInt(4), "order from rank " + m.source());
            }
            IbTransport t = (IbTransport) r.transport;
            assertEquals(3, t.counters().queuePairs(), t.profileLine());
            for (int p = 0; p < r.size; p++) {
                if (p != r.rank) {
                    assertEquals(ConnectionManager.CONNECTED, t.connections().state(p));
                }
            }
        });
    }

    /** Connection datagrams that UD drops are sent again; messages queued meanwhile all arrive. */
    @Test
    void lostConnectionDatagramsAreResent() throws Exception {
        config = Map.of(IbConfiguration.DEVICE.name(), "rxe0", IbConfiguration.CONNECT_RESEND.name(), "100");
        runRanks(2, r -> {
            IbTransport t = (IbTransport) r.transport;
            t.connections().dropIncoming = 1; // rank 1 loses the request, rank 0 the reply
            r.barrier();
            if (r.rank == 0) {
                for (int i = 0; i < 10; i++) {
                    r.send(1, ints(i), pattern(500, i));
                }
                r.awaitReceived(1);
                assertTrue(t.counters().connectResends() >= 1, t.profileLine());
            } else {
                r.awaitReceived(10);
                for (int i = 0; i < 10; i++) {
                    assertEquals(i, firstInt(r.recorder.received.get(i).bytes()));
                }
                r.send(0, ints(99), new byte[0]);
                assertTrue(t.counters().connectResends() >= 1, "the reply was not resent: " + t.profileLine());
            }
            assertEquals(1, t.counters().queuePairs());
        });
    }

    private static int firstInt(byte[] b) {
        return java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.nativeOrder()).getInt(0);
    }

    /** The pin-down cache hits on re-registration and drops entries whose memory was freed. */
    @Test
    void registrationCacheHitsAndInvalidates() throws Exception {
        config = Map.of(IbConfiguration.DEVICE.name(), "rxe0");
        runRanks(2, r -> {
            IbTransport t = (IbTransport) r.transport;
            MemorySegment memory = r.arena.allocate(1 << 20, 4096);
            try (MemoryRegistration a = t.register(memory)) {
                assertEquals(memory.address(), a.address());
            }
            try (MemoryRegistration b = t.register(memory.asSlice(4096, 8192))) {
                assertEquals(memory.address() + 4096, b.address());
            }
            long[] c = t.registrationCacheCounters();
            assertEquals(1, c[0], "hit");
            assertEquals(1, c[1], "miss");
            Arena scoped = Arena.ofConfined();
            MemorySegment freed = scoped.allocate(1 << 16, 4096);
            t.register(freed).close();
            scoped.close();
            MemorySegment fresh = r.arena.allocate(1 << 16, 4096);
            t.register(fresh).close();
            MemorySegment again = Arena.ofAuto().allocate(1 << 16, 4096);
            t.register(again).close();
            c = t.registrationCacheCounters();
            assertEquals(1, c[0], "no hit on other memory");
            assertTrue(c[3] >= 1, "freed memory was not invalidated");
        });
    }
}
