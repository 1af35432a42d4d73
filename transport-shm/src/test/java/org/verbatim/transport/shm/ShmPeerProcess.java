package org.verbatim.transport.shm;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;

/**
 * A rank in its own JVM for {@link ShmTransportTest}: opens shm through a {@link FileBootstrap},
 * echoes every eager message back to its sender, and runs until it is killed.
 * Arguments: bootstrap directory, job id, rank, size, cma (true/false).
 */
public final class ShmPeerProcess {
    private ShmPeerProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        int rank = Integer.parseInt(args[2]);
        int size = Integer.parseInt(args[3]);
        String[] hosts = new String[size];
        java.util.Arrays.fill(hosts, "localhost");
        Transport[] transport = new Transport[1];
        CompletionHandler echo = new CompletionHandler() {
            @Override
            public void onReceive(int source, MemorySegment message) {
                while (transport[0].endpoint(source).send(message, MemorySegment.NULL) != 0) {
                    Thread.onSpinWait();
                }
            }

            @Override
            public void onImmediate(int source, int immediate) {
            }

            @Override
            public void onComplete(long wrId, int status) {
            }

            @Override
            public void onPeerFailure(int peer, String reason) {
                System.err.println("peer " + peer + " failed: " + reason);
                System.exit(3);
            }
        };
        TransportContext context = new TransportContext(rank, size, hosts,
                new FileBootstrap(directory, args[1], rank, size), echo,
                Map.of(ShmConfiguration.CMA.name(), args[4],
                        ShmConfiguration.LIVENESS_INTERVAL.name(), "100"));
        transport[0] = new ShmTransportProvider().open(context);
        // memory a test may write to (after killing this process)
        var memory = java.lang.foreign.Arena.global().allocate(4096, 64);
        var registration = transport[0].register(memory);
        context.bootstrap().put("peer.memory", registration.address() + ":" + registration.remoteKey());
        while (true) {
            if (transport[0].progress() == 0) {
                Thread.onSpinWait();
            }
        }
    }
}
