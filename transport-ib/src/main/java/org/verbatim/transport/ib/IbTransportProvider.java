package org.verbatim.transport.ib;

import java.util.Optional;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.spi.TransportProvider;
import org.verbatim.verbs.VerbsAvailability;

/**
 * Service entry of the InfiniBand / RoCE transport: name "ib", priority 20. Unavailable (with the
 * reason) where verbs cannot be used, so MPI falls back to the other transports; never crashes
 * the JVM.
 */
public final class IbTransportProvider implements TransportProvider {
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
    public Optional<String> unavailabilityCause() {
        try {
            var report = VerbsAvailability.probe();
            if (report.cause().isPresent()) {
                return report.cause();
            }
            if (report.devices().stream().allMatch(PortSelection::isIwarp)) {
                return Optional.of("only iWARP devices (" + report.devices() + "): use transport iwarp");
            }
            return Optional.empty();
        } catch (Throwable t) {
            return Optional.of("verbs probe failed: " + t);
        }
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
