package org.verbatim.transport.iwarp;

import java.util.List;
import java.util.Optional;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.transport.verbs.VerbsTransportProvider;
import org.verbatim.transport.verbs.DeviceKind;

/**
 * Service entry of the iWARP transport: name "iwarp", priority 30 (after shm and ib, before
 * tcp). Unavailable, with the reason, where verbs or the RDMA CM cannot be used or no device is
 * an iWARP device, so MPI falls back to the other transports; never crashes the JVM.
 */
public final class IwarpTransportProvider extends VerbsTransportProvider {
    public static final String NAME = "iwarp";
    public static final int PRIORITY = 30;

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
        if (devices.stream().noneMatch(DeviceKind::isIwarp)) {
            return Optional.of("no iWARP devices (" + devices + "): use transport ib");
        }
        return Optional.empty();
    }

    @Override
    public Transport open(TransportContext context) throws TransportException {
        IwarpConfiguration config;
        try {
            config = IwarpConfiguration.from(context.config());
        } catch (IllegalArgumentException e) {
            throw new TransportException("iwarp configuration: " + e.getMessage(), e);
        }
        return IwarpTransport.open(context, config);
    }
}
