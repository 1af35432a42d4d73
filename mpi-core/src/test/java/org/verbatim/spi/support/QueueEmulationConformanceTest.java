package org.verbatim.spi.support;

import org.verbatim.spi.TransportConformanceSuite;
import org.verbatim.spi.TransportProvider;

/** The transport conformance suite against a send-only queue transport with RDMA emulated. */
class QueueEmulationConformanceTest extends TransportConformanceSuite {
    @Override
    protected TransportProvider provider() {
        return new QueueTransportProvider();
    }
}
