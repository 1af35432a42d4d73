package org.verbatim.transport.shm;

import java.util.Map;
import org.verbatim.spi.TransportConformanceSuite;
import org.verbatim.spi.TransportProvider;

/**
 * The conformance suite with the smallest inbox and eager size and the fallback: every message
 * and every emulated-RDMA chunk wraps the rings many times, and posts get RETRY all the time.
 */
class ShmTinyRingConformanceTest extends TransportConformanceSuite {
    @Override
    protected TransportProvider provider() {
        return new ShmTransportProvider();
    }

    @Override
    protected Map<String, String> config() {
        return Map.of(ShmConfiguration.CMA.name(), "false",
                ShmConfiguration.EAGER_SIZE.name(), "256",
                ShmConfiguration.INBOX_SIZE.name(), "4k",
                ShmConfiguration.MAX_RDMA_OPS.name(), "4");
    }
}
