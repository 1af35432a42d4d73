package org.verbatim.spi;

/**
 * The conformance suite against the reference transport with emulated one-sided operations: the
 * target's progress carries them out.
 */
class ReferenceEmulatedConformanceTest extends TransportConformanceSuite {
    @Override
    protected TransportProvider provider() {
        return new ReferenceFabric(true);
    }
}
