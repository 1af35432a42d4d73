package org.verbatim.transport.verbs;

import java.util.List;
import java.util.Optional;
import org.verbatim.spi.TransportProvider;
import org.verbatim.verbs.VerbsAvailability;

/**
 * The service entry of a transport on the verbs data path: unavailable, with the reason, where
 * verbs cannot be used (no native access, no libibverbs, no kernel support, no devices) or none of
 * the devices is of the subclass's kind, so MPI falls back to the other transports; never crashes
 * the JVM.
 */
public abstract class VerbsTransportProvider implements TransportProvider {

    /** Why none of {@code devices} (the RDMA device names) serves this transport, or empty. */
    protected abstract Optional<String> devicesUnsuitable(List<String> devices);

    @Override
    public final Optional<String> unavailabilityCause() {
        try {
            var report = VerbsAvailability.probe();
            if (report.cause().isPresent()) {
                return report.cause();
            }
            return devicesUnsuitable(report.devices());
        } catch (Throwable t) {
            return Optional.of("verbs probe failed: " + t);
        }
    }
}
