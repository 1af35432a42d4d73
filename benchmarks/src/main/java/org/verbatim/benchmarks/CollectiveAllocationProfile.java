package org.verbatim.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.FloatBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The allocation profile of the blocking small collectives: bytes the JVM allocates on the
 * calling thread per blocking barrier and per 8-byte allreduce (2 floats, {@code MPI.SUM}),
 * arrays and direct buffers, after warm-up ({@code ThreadMXBean#getCurrentThreadAllocatedBytes},
 * which does not depend on machine load), and the average time per call of the same tight loop
 * (no barrier between calls, unlike OSU). Any number of ranks:
 * {@code bin/mpirun -np 4 -cp benchmarks/target/verbatim-benchmarks-*.jar
 * org.verbatim.benchmarks.CollectiveAllocationProfile [rounds]}.
 *
 * <p>Rank 0 prints the figures; the bytes are rank 0's own (every rank runs the same code).
 * Verbatim-only: it uses the JDK's ThreadMXBean, not anything beyond the Open MPI Java API.
 */
public final class CollectiveAllocationProfile {
    private static final int WARMUP = 30_000;

    private CollectiveAllocationProfile() {
    }

    private interface Call {
        void run() throws MPIException;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        Comm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        if (rank == 0) {
            System.out.println("# Allocation and time per blocking collective call, "
                    + comm.getSize() + " ranks, " + rounds + " calls after " + WARMUP
                    + " warm-up calls");
            System.out.printf("# %-26s %14s %14s%n", "Case", "Bytes/call", "Time/call(us)");
        }
        float[] in = {1, 2};
        float[] out = new float[2];
        FloatBuffer din = MPI.newFloatBuffer(2).put(0, 1).put(1, 2);
        FloatBuffer dout = MPI.newFloatBuffer(2);
        measure(comm, "barrier", comm::barrier, rounds);
        measure(comm, "allreduce 8 B array",
                () -> comm.allReduce(in, out, 2, MPI.FLOAT, MPI.SUM), rounds);
        measure(comm, "allreduce 8 B direct",
                () -> comm.allReduce(din, dout, 2, MPI.FLOAT, MPI.SUM), rounds);
        measure(comm, "allreduce 8 B in place",
                () -> comm.allReduce(out, 2, MPI.FLOAT, MPI.SUM), rounds);
        MPI.Finalize();
    }

    private static void measure(Comm comm, String name, Call call, int rounds)
            throws MPIException {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARMUP; i++) {
            call.run();
        }
        comm.barrier();
        long before = threads.getCurrentThreadAllocatedBytes();
        long start = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            call.run();
        }
        long nanos = System.nanoTime() - start;
        long perCall = (threads.getCurrentThreadAllocatedBytes() - before) / rounds;
        if (comm.getRank() == 0) {
            System.out.printf("  %-26s %14d %14.2f%n", name, perCall, nanos / 1e3 / rounds);
        }
    }
}
