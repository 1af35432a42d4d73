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

    @Override
    protected Map<String, String> config() {
        return Map.of(IbConfiguration.EAGER_CHANNEL.name(), "srq", IbConfiguration.DEVICE.name(), "rxe0");
    }

    @Override
    protected long timeoutSeconds() {
        return 240;
    }
}
