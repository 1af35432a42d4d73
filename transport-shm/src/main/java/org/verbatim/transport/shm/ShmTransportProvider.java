package org.verbatim.transport.shm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.verbatim.config.ConfigSource;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.spi.TransportProvider;

/** Service entry of the shared-memory transport: name "shm", priority 10. */
public final class ShmTransportProvider implements TransportProvider {
    public static final String NAME = "shm";
    public static final int PRIORITY = 10;

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
        Optional<String> calls = LinuxSyscalls.unavailabilityCause();
        if (calls.isPresent()) {
            return calls;
        }
        Path directory = Path.of(ShmConfiguration.DIRECTORY.get(ConfigSource.load()));
        if (!Files.isDirectory(directory) || !Files.isWritable(directory)) {
            return Optional.of(directory + " is not a writable directory ("
                    + ShmConfiguration.DIRECTORY.name() + ")");
        }
        return Optional.empty();
    }

    @Override
    public Transport open(TransportContext context) throws TransportException {
        ShmConfiguration config;
        try {
            config = ShmConfiguration.from(context.config());
        } catch (IllegalArgumentException e) {
            throw new TransportException("shm configuration: " + e.getMessage(), e);
        }
        return ShmTransport.open(context, config);
    }
}
