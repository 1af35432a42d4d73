package org.verbatim.transport.ib;

import java.util.List;
import java.util.Optional;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.transport.verbs.VerbsTransportProvider;

/**
 * Service entry of the InfiniBand / RoCE transport: name "ib", priority 20. Unavailable (with the
 * reason) where verbs cannot be used, so MPI falls back to the other transports; never crashes
 * the JVM.
 */
public final class IbTransportProvider extends VerbsTransportProvider {
    public static final String NAME = "ib";
    public static final int PRIORITY = 20;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int priority() {
        return PRIORITY;
    }

    @Override
    protected Optional<String> devicesUnsuitable(List<String> devices) {
        if (devices.stream().allMatch(PortSelection::isIwarp)) {
            return Optional.of("only iWARP devices (" + devices + "): use transport iwarp");
        }
        return Optional.empty();
    }

    @Override
    public Transport open(TransportContext context) throws TransportException {
        IbConfiguration config;
        try {
            config = IbConfiguration.from(context.config());
        } catch (IllegalArgumentException e) {
            throw new TransportException("ib configuration: " + e.getMessage(), e);
        }
        return IbTransport.open(context, config);
    }
}
