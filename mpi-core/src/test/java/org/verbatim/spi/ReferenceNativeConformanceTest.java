package org.verbatim.spi;

/** The conformance suite against the reference transport with native one-sided operations. */
class ReferenceNativeConformanceTest extends TransportConformanceSuite {
    @Override
    protected TransportProvider provider() {
        return new ReferenceFabric(false);
    }
}
