package org.verbatim.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.Capability;
import org.verbatim.spi.TransportConformanceSuite;
import org.verbatim.spi.TransportProvider;

/**
 * The conformance suite over TCP on loopback: eager frames, and RDMA, atomics, gather/scatter,
 * flush and list posts through the shared emulation. A small frame size makes every large
 * transfer many frames and a send queue that grows from 16 KiB to 256 KiB, then returns RETRY.
 */
class TcpConformanceTest extends TransportConformanceSuite {
    @Override
    protected TransportProvider provider() {
        return new TcpTransportProvider();
    }

    @Override
    protected Map<String, String> config() {
        return Map.of(TcpConfiguration.EAGER_SIZE.name(), "4k",
                TcpConfiguration.SEND_QUEUE.name(), "256k",
                TcpConfiguration.MAX_RDMA_OPS.name(), "64");
    }

    @Test
    void advertisesEmulatedRdmaHonestly() throws Exception {
        runRanks(2, r -> {
            var caps = r.transport.capabilities();
            assertTrue(caps.has(Capability.RDMA_WRITE_EMULATED));
            assertTrue(caps.has(Capability.RDMA_READ_EMULATED));
            assertTrue(caps.has(Capability.ATOMICS_EMULATED));
            assertFalse(caps.hasNativeRdmaWrite());
            assertFalse(caps.has(Capability.RDMA_BY_CPU));
            // a frame: eager-size (4 KiB here) and the headers' room, less the escape byte
            assertEquals(4096 + Frames.HEADROOM - 1, caps.maxEager());
            assertEquals("tcp", r.transport.name());
        });
    }
}
