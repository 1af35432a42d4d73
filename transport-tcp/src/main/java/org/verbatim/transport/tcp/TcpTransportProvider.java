package org.verbatim.transport.tcp;

import java.util.Optional;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.spi.TransportProvider;

/**
 * Service entry of the TCP transport: name "tcp", priority 40 (after self, shm and the RDMA
 * transports, so it carries what nothing faster reaches: other hosts without RDMA).
 */
public final class TcpTransportProvider implements TransportProvider {
    public static final String NAME = "tcp";
    public static final int PRIORITY = 40;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int priority() {
        return PRIORITY;
    }

    @Override
    public Optional<String> unavailabilityCause() {
        return Optional.empty();
    }

    @Override
    public Transport open(TransportContext context) throws TransportException {
        TcpConfiguration config;
        try {
            config = TcpConfiguration.from(context.config());
        } catch (IllegalArgumentException e) {
            throw new TransportException("tcp configuration: " + e.getMessage(), e);
        }
        return TcpTransport.open(context, config);
    }
}
