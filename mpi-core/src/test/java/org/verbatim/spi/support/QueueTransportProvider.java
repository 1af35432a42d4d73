package org.verbatim.spi.support;

import java.util.Optional;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportProvider;

/**
 * Opens {@link QueueTransport}s for the ranks of one in-JVM job (found by the bootstrap's job id).
 * Configuration: {@code verbatim.queue.eager} (maxEager, default 256), {@code
 * verbatim.queue.capacity} (messages per queue, default 64), {@code verbatim.queue.ops} (the
 * emulation's operation table, default {@link RdmaEmulation#DEFAULT_MAX_OPERATIONS}).
 */
final class QueueTransportProvider implements TransportProvider {
    static final String NAME = "queue-emulated";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int priority() {
        return 90;
    }

    @Override
    public Optional<String> unavailabilityCause() {
        return Optional.empty();
    }

    @Override
    public Transport open(TransportContext context) {
        int eager = Integer.parseInt(context.config("verbatim.queue.eager", "256"));
        int capacity = Integer.parseInt(context.config("verbatim.queue.capacity", "64"));
        int ops = Integer.parseInt(context.config("verbatim.queue.ops",
                String.valueOf(RdmaEmulation.DEFAULT_MAX_OPERATIONS)));
        QueueTransport.Fabric fabric = QueueTransport.fabric(context.bootstrap().jobId(),
                context.size(), eager, capacity);
        return new QueueTransport(context.rank(), fabric, context.handler(), ops);
    }
}
