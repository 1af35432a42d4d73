package org.verbatim.transport.ib;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.Access;
import org.verbatim.spi.AtomicOp;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.IoVector;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.RemoteMemory;
import org.verbatim.spi.TransportConformanceSuite;
import org.verbatim.spi.TransportProvider;
import org.verbatim.spi.WorkList;
import org.verbatim.transport.verbs.VerbsCounters;

/**
 * ib behaviour beyond the SPI contract, inside the RDMA guest: SRQ growth, fast path, cache,
 * on-demand connections, and the optional operations on rxe0 (gather write and scatter read with
 * several entries, chained list posts with several reads in flight, atomics, flush, access
 * rights). One class, so the inherited conformance suite runs once more here, not once per topic.
 */
@Tag("rdma")
class IbTransportTest extends TransportConformanceSuite {
    /**
     * The inherited suite runs without the pin-down cache (its closed-key checks need the key
     * gone at close; see {@link IbSrqConformanceTest}); the tests here that set their own
     * configuration keep the default cache.
     */
    private Map<String, String> config = Map.of(IbConfiguration.REG_CACHE_SIZE.name(), "0");

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
            pingPong(r, rounds, 16);
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

    // ------------------------------------------------------------------ optional operations

    private static final Map<String, String> RXE = Map.of(IbConfiguration.DEVICE.name(), "rxe0");

    /** What ib advertises on rxe0: every new operation, with the device's limits. */
    @Test
    void advertisesTheOptionalOperationsOnRxe() throws Exception {
        config = RXE;
        runRanks(2, r -> {
            Capabilities c = r.transport.capabilities();
            if (r.rank == 0) {
                System.out.println("ib capabilities on rxe0: " + c);
            }
            for (Capability f : new Capability[] {Capability.WRITE_GATHER, Capability.READ_SCATTER,
                    Capability.LIST_POST, Capability.FLUSH, Capability.ATOMICS, Capability.IN_ORDER_PLACEMENT}) {
                assertTrue(c.has(f), "no " + f + " in " + c);
            }
            assertEquals(java.util.EnumSet.allOf(AtomicOp.class), c.atomics());
            assertTrue(c.put().maxIov() > 1 && c.get().maxIov() > 1, c.toString());
            assertTrue(c.readsInFlight() > 1, c.toString());
            assertTrue(c.maxListPost() > 1, c.toString());
        });
    }

    /** Gather write, scatter read, list post (reads in flight), atomics and flush in one job. */
    @Test
    void gatherScatterListAtomicsAndFlush() throws Exception {
        final int size = 64 << 10;
        config = RXE;
        runRanks(2, r -> {
            if (r.rank == 1) {
                MemorySegment target = r.arena.allocate(size, 4096);
                MemoryRegistration reg = r.transport.register(target);
                r.publish("target", reg);
                r.awaitShared("flushed");
                // flush completed at rank 0: the write before it is in place, with no message
                assertArrayEquals(pattern(4096, 77), target.asSlice(32 << 10, 4096).toArray(ValueLayout.JAVA_BYTE));
                r.awaitShared("done");
                assertEquals(99, target.get(ValueLayout.JAVA_LONG, 48 << 10));
                reg.close();
                return;
            }
            Capabilities caps = r.transport.capabilities();
            RemoteMemory remote = r.awaitShared("target");
            Endpoint ep = r.transport.endpoint(1);
            MemorySegment local = r.arena.allocate(size, 4096);
            MemoryRegistration reg = r.transport.register(local);
            // gather: three pieces of two segments land as one range
            byte[] data = pattern(3000, 5);
            local.asSlice(100, 3000).copyFrom(MemorySegment.ofArray(data));
            MemorySegment other = r.arena.allocate(4096, 64);
            IoVector gather = new IoVector(caps.put().maxIov());
            gather.add(local, 100, 1000).add(local, 1100, 1500).add(local, 2600, 500);
            r.post(() -> ep.writeGather(gather, remote.address(), remote.remoteKey(), 1));
            r.awaitCompletion(1);
            // scatter the same range back into three other places, one of them unregistered memory
            IoVector scatter = new IoVector(caps.get().maxIov());
            scatter.add(local, 8192, 700).add(other, 0, 1800).add(local, 16384, 500);
            r.post(() -> ep.readScatter(scatter, remote.address(), remote.remoteKey(), 2));
            r.awaitCompletion(2);
            byte[] back = new byte[3000];
            MemorySegment b = MemorySegment.ofArray(back);
            scatter.gatherInto(b, 0);
            assertArrayEquals(data, back);
            // a list: 8 writes, then 8 reads of them (several reads outstanding), posted in chains
            WorkList list = new WorkList(16);
            for (int i = 0; i < 8; i++) {
                local.asSlice(20480 + i * 1024, 1024).copyFrom(MemorySegment.ofArray(pattern(1024, 10 + i)));
                list.write(local.asSlice(20480 + i * 1024, 1024), remote.address() + 8192 + i * 1024,
                        remote.remoteKey(), 100 + i);
            }
            postAll(r, ep, list);
            for (int i = 0; i < 8; i++) {
                r.awaitCompletion(100 + i);
            }
            list.clear();
            for (int i = 0; i < 8; i++) {
                list.read(local.asSlice(40960 + i * 1024, 1024), remote.address() + 8192 + i * 1024,
                        remote.remoteKey(), 200 + i);
            }
            postAll(r, ep, list);
            for (int i = 0; i < 8; i++) {
                r.awaitCompletion(200 + i);
                assertArrayEquals(pattern(1024, 10 + i),
                        local.asSlice(40960 + i * 1024, 1024).toArray(ValueLayout.JAVA_BYTE));
            }
            // atomics on the word at 48 KiB (zero): ten fetch-and-adds of 3, then compare-and-swap
            long word = remote.address() + (48 << 10);
            MemorySegment result = r.arena.allocate(8, 8);
            for (int i = 0; i < 10; i++) {
                final long id = 300 + i;
                r.post(() -> ep.fetchAndAdd(result, word, remote.remoteKey(), 3, id));
                r.awaitCompletion(id);
                assertEquals(3L * i, result.get(ValueLayout.JAVA_LONG, 0));
            }
            r.post(() -> ep.compareAndSwap(result, word, remote.remoteKey(), 30, 99, 320));
            r.awaitCompletion(320);
            assertEquals(30, result.get(ValueLayout.JAVA_LONG, 0));
            r.post(() -> ep.compareAndSwap(result, word, remote.remoteKey(), 30, 5, 321));
            r.awaitCompletion(321);
            assertEquals(99, result.get(ValueLayout.JAVA_LONG, 0), "a failed compare returns the word");
            // a misaligned atomic completes (REMOTE_OPERATION_ERROR) without breaking the connection
            r.post(() -> ep.fetchAndAdd(result, word + 4, remote.remoteKey(), 1, 322));
            assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, r.awaitStatus(322));
            // write, then flush: once the flush completes the data is in rank 1's memory
            local.asSlice(0, 4096).copyFrom(MemorySegment.ofArray(pattern(4096, 77)));
            r.post(() -> ep.write(local.asSlice(0, 4096), remote.address() + (32 << 10), remote.remoteKey(), 400));
            r.post(() -> ep.flush(401));
            r.awaitCompletion(401);
            r.publish("flushed", reg);
            // the connection still carries messages after all this
            r.sendEmpty(1);
            r.publish("done", reg);
            reg.close();
        });
    }

    private static void postAll(Rank r, Endpoint ep, WorkList list) {
        int[] next = {0};
        while (next[0] < list.count()) {
            r.post(() -> {
                int n = ep.postList(list, next[0]);
                next[0] += n;
                return n > 0 ? org.verbatim.spi.PostStatus.OK : org.verbatim.spi.PostStatus.RETRY;
            });
        }
    }

    /**
     * A write into memory registered without REMOTE_WRITE completes with REMOTE_ACCESS_ERROR; both
     * queue pairs went to error, and the connection is re-established (a new epoch over UD)
     * without a peer failure: a read, a write with immediate and eager messages in both
     * directions go through afterwards, twice over (a second error re-establishes it again).
     */
    @Test
    void aRefusedWriteReestablishesTheConnection() throws Exception {
        config = Map.of(IbConfiguration.DEVICE.name(), "rxe0", IbConfiguration.EAGER_CHANNEL.name(), "ardma-sr");
        runRanks(2, r -> {
            if (r.rank == 1) {
                MemorySegment target = r.arena.allocate(4096, 4096);
                MemoryRegistration reg = r.transport.register(target, Access.REMOTE_READ);
                target.fill((byte) 7);
                r.publish("target", reg);
                for (int round = 0; round < 2; round++) {
                    r.awaitReceived(round + 1);
                    r.sendEmpty(0);
                }
                r.barrier();
                assertEquals(7, target.get(ValueLayout.JAVA_BYTE, 0), "a refused write changed memory");
                reg.close();
                return;
            }
            RemoteMemory remote = r.awaitShared("target");
            Endpoint ep = r.transport.endpoint(1);
            MemorySegment local = r.arena.allocate(4096, 4096);
            MemoryRegistration reg = r.transport.register(local);
            for (int round = 0; round < 2; round++) {
                final long id = 10L * round;
                r.post(() -> ep.write(local.asSlice(0, 1024), remote.address(), remote.remoteKey(), id));
                assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, r.awaitStatus(id));
                r.post(() -> ep.read(local.asSlice(0, 64), remote.address(), remote.remoteKey(), id + 1));
                assertEquals(CompletionStatus.OK, r.awaitStatus(id + 1));
                assertEquals(7, local.get(ValueLayout.JAVA_BYTE, 0), "reading is allowed");
                r.send(1, ints(round), new byte[0]);
                r.awaitReceived(round + 1);
            }
            r.barrier();
            reg.close();
        });
    }
}
