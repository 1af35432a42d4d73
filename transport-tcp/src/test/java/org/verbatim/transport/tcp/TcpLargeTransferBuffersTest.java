package org.verbatim.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.ConformanceHarness;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.RemoteMemory;
import org.verbatim.spi.TransportProvider;

/**
 * Emulated RDMA through sockets whose buffers take a few KiB at a time: every chunk of read and
 * write data is written in many pieces. Its unwritten rest stays in the caller's registered memory
 * (not copied into the send queue) and the receiver reads it straight into place (not into its
 * receive buffer), so both stay at their first size, while the data, and small messages sent in
 * between, arrive whole and in order.
 */
class TcpLargeTransferBuffersTest extends ConformanceHarness {
    /** A link's buffers at their first size: scratch, a 16 KiB queue and a 16 KiB receive buffer. */
    private static final long SMALL_BUFFERS = 64 << 10;

    @Override
    protected TransportProvider provider() {
        return new TcpTransportProvider();
    }

    @Override
    protected Map<String, String> config() {
        return Map.of(TcpConfiguration.SNDBUF.name(), "8k", TcpConfiguration.RCVBUF.name(), "8k");
    }

    @Test
    void readsAndWritesOfMegabytesKeepTheLinkBuffersSmall() throws Exception {
        final int readLength = 3 * (1 << 20) + 5;
        final int writeLength = 2 * (1 << 20) + 3;
        final int messages = 50;
        runRanks(2, r -> {
            if (r.rank == 1) {
                MemorySegment source = r.arena.allocate(readLength, 64);
                source.copyFrom(MemorySegment.ofArray(pattern(readLength, 21)));
                MemoryRegistration sourceRegistration = r.transport.register(source);
                r.publish("source", sourceRegistration);
                RemoteMemory target = r.awaitShared("target");
                MemorySegment out = r.arena.allocate(writeLength, 64);
                out.copyFrom(MemorySegment.ofArray(pattern(writeLength, 22)));
                MemoryRegistration outRegistration = r.transport.register(out);
                Endpoint endpoint = r.transport.endpoint(0);
                r.post(() -> endpoint.write(out, target.address(), target.remoteKey(), 7));
                for (int i = 0; i < messages; i++) {
                    r.send(0, ints(i), pattern(100 + i, i));
                }
                r.awaitCompletion(7);
                r.barrier();
                assertTrue(r.transport.communicationMemory() < SMALL_BUFFERS,
                        "rank 1's tcp buffers grew to " + r.transport.communicationMemory() + " bytes");
                outRegistration.close();
                sourceRegistration.close();
            } else {
                MemorySegment target = r.arena.allocate(writeLength, 64);
                MemoryRegistration targetRegistration = r.transport.register(target);
                r.publish("target", targetRegistration);
                RemoteMemory source = r.awaitShared("source");
                MemorySegment local = r.arena.allocate(readLength, 64);
                MemoryRegistration localRegistration = r.transport.register(local);
                Endpoint endpoint = r.transport.endpoint(1);
                r.post(() -> endpoint.read(local, source.address(), source.remoteKey(), 9));
                r.awaitCompletion(9);
                r.awaitReceived(messages);
                r.barrier();
                assertArrayEquals(pattern(readLength, 21), local.toArray(ValueLayout.JAVA_BYTE));
                assertArrayEquals(pattern(writeLength, 22), target.toArray(ValueLayout.JAVA_BYTE));
                for (int i = 0; i < messages; i++) {
                    Received m = r.recorder.received.get(i);
                    assertEquals(i, m.intAt(0), "message order");
                    assertArrayEquals(pattern(100 + i, i),
                            java.util.Arrays.copyOfRange(m.bytes(), 4, m.bytes().length));
                }
                assertTrue(r.transport.communicationMemory() < SMALL_BUFFERS,
                        "rank 0's tcp buffers grew to " + r.transport.communicationMemory() + " bytes");
                localRegistration.close();
                targetRegistration.close();
            }
            r.barrier();
        });
    }
}
