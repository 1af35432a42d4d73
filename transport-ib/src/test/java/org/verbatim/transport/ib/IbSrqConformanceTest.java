package org.verbatim.transport.ib;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.verbatim.spi.TransportConformanceSuite;
import org.verbatim.spi.TransportProvider;

/** The conformance suite over ib with the SRQ eager channel (inside the RDMA guest). */
@Tag("rdma")
class IbSrqConformanceTest extends TransportConformanceSuite {
    @Override
    protected TransportProvider provider() {
        return new IbTransportProvider();
    }

    /**
     * The suite runs without the pin-down cache: the cache keeps a closed registration's remote
     * key valid (rxe cannot revoke it without deregistering), which the suite's closed-key
     * checks refuse. The cache has its own test in {@link IbTransportTest}.
     */
    @Override
    protected Map<String, String> config() {
        return Map.of(IbConfiguration.EAGER_CHANNEL.name(), "srq", IbConfiguration.DEVICE.name(), "rxe0",
                IbConfiguration.REG_CACHE_SIZE.name(), "0");
    }

    @Override
    protected long timeoutSeconds() {
        return 240;
    }
}
