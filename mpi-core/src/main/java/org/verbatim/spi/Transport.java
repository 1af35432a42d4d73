package org.verbatim.spi;

import java.lang.foreign.MemorySegment;

/**
 * An opened transport: the verbs-shaped operations the protocols in mpi-core are written
 * against. Created by a {@link TransportProvider} during MPI initialisation.
 */
public interface Transport extends AutoCloseable {
    /** Short name, for example "shm". */
    String name();

    /** The immutable capability record. */
    Capabilities capabilities();

    /** True if this transport can reach world rank {@code peer}. */
    boolean reaches(int peer);

    /** The endpoint for {@code peer}, connecting on first use. */
    Endpoint endpoint(int peer);

    /**
     * Registers native memory for RDMA. A heap segment is refused with IllegalArgumentException.
     */
    MemoryRegistration register(MemorySegment segment);

    /**
     * Makes progress: polls receive rings and completion queues and delivers what it finds to the
     * handler given at open. Returns the amount of work done (0 when idle). Must not block.
     */
    int progress();

    /**
     * Called by the runtime (idle strategy "block") when nothing happened for a while and this
     * is the only transport that can bring work: a transport that can sleep on an event
     * (completion channel, futex) sleeps until one arrives, for at most {@code maxNanos}, and
     * returns true (also when it returned early because work was ready). The default returns
     * false at once: the runtime then parks the thread for a short while itself.
     */
    default boolean idle(long maxNanos) {
        return false;
    }

    /**
     * The transport's profiler counters now ({@code verbatim.core.profile}): the runtime combines
     * them over the ranks and rank 0 prints them at finalize. The default has none.
     */
    default java.util.List<ProfileCounter> profileCounters() {
        return java.util.List.of();
    }

    /** Releases every resource; also removes any files the transport created. */
    @Override
    void close();
}
