package org.verbatim.benchmarks;

import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * The collectives {@link OsuCollective} measures, each called as the matching OSU program calls
 * it: reductions on {@code size / 4} floats with {@code MPI.SUM} (osu_reduce, osu_allreduce,
 * osu_reduce_scatter), the others on {@code size} bytes per rank ({@code MPI_CHAR} in OSU), with
 * root 0 for the rooted ones.
 */
enum CollectiveOp {
    BARRIER("barrier", "Barrier"),
    BCAST("bcast", "Broadcast"),
    REDUCE("reduce", "Reduce"),
    ALLREDUCE("allreduce", "Allreduce"),
    GATHER("gather", "Gather"),
    SCATTER("scatter", "Scatter"),
    ALLGATHER("allgather", "Allgather"),
    ALLTOALL("alltoall", "All-to-All Personalized Exchange"),
    REDUCE_SCATTER("reduce_scatter", "Reduce_scatter");

    static final int ROOT = 0;

    /** The name on the command line ({@code --op allreduce}), as OSU's program name without osu_. */
    final String option;
    /** The title word of the OSU program's header. */
    final String title;

    CollectiveOp(String option, String title) {
        this.option = option;
        this.title = title;
    }

    static CollectiveOp of(String option) {
        for (CollectiveOp op : values()) {
            if (op.option.equals(option)) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown collective " + option);
    }

    /** Whether the elements are floats combined with MPI.SUM (else bytes, merely moved). */
    boolean reduction() {
        return this == REDUCE || this == ALLREDUCE || this == REDUCE_SCATTER;
    }

    /** Whether the message size means anything (the barrier has one row, size 0). */
    boolean sized() {
        return this != BARRIER;
    }

    /** Bytes the send buffer needs for {@code size} on {@code ranks} ranks. */
    long sendBytes(int size, int ranks) {
        return this == SCATTER || this == ALLTOALL ? (long) size * ranks : size;
    }

    /** Bytes the receive buffer needs for {@code size} on {@code ranks} ranks. */
    long recvBytes(int size, int ranks) {
        return this == GATHER || this == ALLGATHER || this == ALLTOALL ? (long) size * ranks : size;
    }

    /**
     * The receive counts of osu_reduce_scatter for {@code size} bytes of floats: the elements
     * divided as evenly as possible, the first ranks getting one more; one each to the first
     * ranks when there are fewer elements than ranks. Null for the other collectives.
     */
    int[] recvCounts(int size, int ranks) {
        if (this != REDUCE_SCATTER) {
            return null;
        }
        int elements = size / 4;
        int[] counts = new int[ranks];
        for (int i = 0; i < ranks; i++) {
            counts[i] = elements < ranks ? (i < elements ? 1 : 0)
                    : elements / ranks + (i < elements % ranks ? 1 : 0);
        }
        return counts;
    }

    /** One call of the collective on {@code size} bytes (per rank where it is per rank). */
    void run(Comm comm, Object send, Object recv, int size, int[] counts) throws MPIException {
        Datatype b = MPI.BYTE;
        switch (this) {
            case BARRIER -> comm.barrier();
            case BCAST -> comm.bcast(send, size, b, ROOT);
            case REDUCE -> comm.reduce(send, recv, size / 4, MPI.FLOAT, MPI.SUM, ROOT);
            case ALLREDUCE -> comm.allReduce(send, recv, size / 4, MPI.FLOAT, MPI.SUM);
            case GATHER -> comm.gather(send, size, b, recv, size, b, ROOT);
            case SCATTER -> comm.scatter(send, size, b, recv, size, b, ROOT);
            case ALLGATHER -> comm.allGather(send, size, b, recv, size, b);
            case ALLTOALL -> comm.allToAll(send, size, b, recv, size, b);
            case REDUCE_SCATTER -> comm.reduceScatter(send, recv, counts, MPI.FLOAT, MPI.SUM);
            default -> throw new AssertionError(this);
        }
    }
}
