package org.verbatim.transport.shm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.Capability;
import org.verbatim.spi.TransportConformanceSuite;
import org.verbatim.spi.TransportProvider;

/** The conformance suite over shm with cross-memory attach (single-copy RDMA). */
class ShmCmaConformanceTest extends TransportConformanceSuite {
    @Override
    protected TransportProvider provider() {
        return new ShmTransportProvider();
    }

    @Override
    protected Map<String, String> config() {
        return Map.of(ShmConfiguration.CMA.name(), "true");
    }

    @Test
    void usesNativeRdmaThroughCma() throws Exception {
        runRanks(2, r -> {
            ShmTransport shm = (ShmTransport) r.transport;
            assertTrue(shm.crossMemoryAttach(),
                    "CMA not in use here: " + shm.crossMemoryAttachUnavailabilityCause());
            assertTrue(r.transport.capabilities().hasNativeRdmaWrite());
            assertTrue(r.transport.capabilities().hasNativeRdmaRead());
            assertFalse(r.transport.capabilities().has(Capability.RDMA_WRITE_EMULATED));
        });
    }
}
