package org.verbatim.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.Capability;
import org.verbatim.spi.TransportConformanceSuite;
import org.verbatim.spi.TransportProvider;

/**
 * The conformance suite over shm with cross-memory attach switched off: RDMA is emulated through
 * the inbox rings, and says so. A small eager size makes every large transfer many chunks.
 */
class ShmFallbackConformanceTest extends TransportConformanceSuite {
    @Override
    protected TransportProvider provider() {
        return new ShmTransportProvider();
    }

    @Override
    protected Map<String, String> config() {
        return Map.of(ShmConfiguration.CMA.name(), "false",
                ShmConfiguration.EAGER_SIZE.name(), "4k",
                ShmConfiguration.INBOX_SIZE.name(), "64k",
                ShmConfiguration.MAX_RDMA_OPS.name(), "64");
    }

    @Test
    void advertisesEmulatedRdmaHonestly() throws Exception {
        runRanks(2, r -> {
            ShmTransport shm = (ShmTransport) r.transport;
            assertFalse(shm.crossMemoryAttach());
            assertEquals("disabled by verbatim.shm.cma=false", shm.crossMemoryAttachUnavailabilityCause());
            assertTrue(r.transport.capabilities().has(Capability.RDMA_WRITE_EMULATED));
            assertTrue(r.transport.capabilities().has(Capability.RDMA_READ_EMULATED));
            assertFalse(r.transport.capabilities().hasNativeRdmaWrite());
            assertEquals(4096, r.transport.capabilities().maxEager());
        });
    }
}
