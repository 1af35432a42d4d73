package org.verbatim.transport.iwarp;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.verbatim.spi.TransportConformanceSuite;
import org.verbatim.spi.TransportProvider;

/**
 * The conformance suite over iwarp on siw0 (inside the RDMA guest): the default sr eager channel, on-demand
 * connections through the RDMA CM. WRITE_WITH_IMMEDIATE and IN_ORDER_PLACEMENT are not
 * advertised, so their checks are skipped; everything advertised is exercised.
 */
@Tag("rdma")
class IwarpConformanceTest extends TransportConformanceSuite {
    @Override
    protected TransportProvider provider() {
        return new IwarpTransportProvider();
    }

    /** Without the pin-down cache: the suite's closed-key checks need the key gone at close. */
    @Override
    protected Map<String, String> config() {
        return Map.of(IwarpConfiguration.DEVICE.name(), "siw0", IwarpConfiguration.VERBS.regCacheSize.name(), "0");
    }

    @Override
    protected long timeoutSeconds() {
        return 240;
    }
}
