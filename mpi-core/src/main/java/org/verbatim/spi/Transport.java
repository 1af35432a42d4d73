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
     * Called by the runtime when nothing happened for a while, so a transport that can sleep on
     * an event (completion channel, futex) may do so for at most {@code maxNanos}. The default
     * does nothing; the runtime's idle strategy then parks the thread itself.
     */
    default void idle(long maxNanos) {
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
