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
     * Registers native memory for RDMA with every {@link Access} right. A heap segment is refused
     * with IllegalArgumentException.
     */
    default MemoryRegistration register(MemorySegment segment) {
        return register(segment, Access.ALL);
    }

    /**
     * Registers native memory for RDMA with the {@link Access} rights in {@code access}: a peer's
     * operation that needs a right the registration lacks completes with
     * {@link CompletionStatus#REMOTE_ACCESS_ERROR}. A heap segment is refused with
     * IllegalArgumentException.
     */
    MemoryRegistration register(MemorySegment segment, int access);

    /**
     * A transport-specific service, or null when this transport offers none of that type
     * (after UCX's interface-specific queries): for example the shared-memory window segments of
     * shm, which the one-sided module uses for direct load/store windows.
     */
    default <T> T extension(Class<T> type) {
        return null;
    }

    /**
     * Makes progress: polls receive rings and completion queues and delivers what it finds to the
     * handler given at open. Returns the amount of work done (0 when idle). Must not block.
     */
    int progress();

    /**
     * How an idle process sleeps until this transport has an event (idle strategy "block"), or
     * null when it cannot sleep on one: the runtime then parks the thread for a short while. The
     * runtime combines the sources of all open transports (see {@link WaitSource}).
     */
    default WaitSource waitSource() {
        return null;
    }

    /**
     * The transport's profiler counters now ({@code verbatim.core.profile}): the runtime combines
     * them over the ranks and rank 0 prints them at finalize. The default has none.
     */
    default java.util.List<ProfileCounter> profileCounters() {
        return java.util.List.of();
    }

    /**
     * Bytes of memory this transport holds for communication in this process (its own receive
     * rings, buffers, registered and pinned buffers; not other processes' memory it maps): the
     * profiler's "communication memory" adds it to the runtime's own, for the memory paper's
     * figure. The default is 0.
     */
    default long communicationMemory() {
        return 0;
    }

    /**
     * The eager limit this transport's own configuration asks for (payload bytes; 0: none, the
     * core's {@code verbatim.core.eager-limit} applies). It replaces the core's default, never a
     * value the user set for the core; the transport's {@link Capabilities#maxEager()} still caps
     * it. A stream transport, where every rendezvous step is a round trip through the kernel,
     * wants a larger one than shared memory or RDMA.
     */
    default long eagerLimit() {
        return 0;
    }

    /**
     * Bytes of messages above the eager limit that a rank may send eagerly to one peer of this
     * transport before that peer has taken them (0: none, such messages go by rendezvous). The
     * receiver gives the bytes back with a CREDIT message once the messages are received (in
     * batches of a quarter of this), so what it holds unexpected from one peer stays within
     * this; a send finding too little left goes by rendezvous. Messages up to the smaller of
     * this and {@link Capabilities#maxEager()} qualify. For a stream transport, where each
     * rendezvous step is a trip through both kernels.
     */
    default long eagerWindow() {
        return 0;
    }

    /** Releases every resource; also removes any files the transport created. */
    @Override
    void close();
}
