package org.verbatim.spi;

import java.util.Optional;

/**
 * Service-provider entry of a transport module, found with {@link java.util.ServiceLoader}
 * (META-INF/services/org.verbatim.spi.TransportProvider). mpi-core never imports a transport.
 */
public interface TransportProvider {
    /** Short name used in configuration, for example "shm" or "ib". */
    String name();

    /**
     * Dispatch order among transports that reach a peer: lower wins. Convention: self 0, shm 10,
     * ib 20, iwarp 30, tcp 40.
     */
    int priority();

    /** Empty when usable here, else the reason in words ("no RDMA devices", ...). */
    Optional<String> unavailabilityCause();

    /**
     * Opens the transport. Collective over the world: every rank calls it (in the same order for
     * all providers), so it may use the bootstrap's put/barrier/get.
     */
    Transport open(TransportContext context) throws TransportException;
}
