package org.verbatim.transport.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
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
            if (r.rank == 0) {
                for (int i = 0; i < messages; i++) {
                    r.send(1, ints(i), pattern(1000, i));
                }
            } else {
                Thread.sleep(3000); // not progressing: the sender overruns the 16 first buffers
                r.awaitReceived(messages);
                for (int i = 0; i < messages; i++) {
                    assertEquals(i, firstInt(r.recorder.received.get(i).bytes()));
                }
                IbCounters c = ((IbTransport) r.transport).counters();
                assertTrue(c.srqLimitEvents() > 0, "no SRQ limit event: " + ((IbTransport) r.transport).profileLine());
                assertTrue(c.srqBuffers() > 16, "SRQ did not grow");
                assertTrue(c.srqBuffers() <= 64, "SRQ grew past its maximum");
            }
        });
    }

    /** After the threshold, eager messages take the RDMA fast path; order is kept across the switch. */
    @Test
    void fastPathTakesOverAfterThreshold() throws Exception {
        config = Map.of(IbConfiguration.DEVICE.name(), "rxe0", IbConfiguration.EAGER_CHANNEL.name(), "ardma-srq",
                IbConfiguration.FASTPATH_THRESHOLD.name(), "8", IbConfiguration.FASTPATH_SLOTS.name(), "8");
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
                IbCounters c = ((IbTransport) r.transport).counters();
                assertEquals(1, c.fastPathPeers());
                assertTrue(c.fastPathMessagesReceived() > messages / 2, ((IbTransport) r.transport).profileLine());
            }
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
