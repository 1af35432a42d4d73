package org.verbatim.benchmarks.plain;

import mpi.MPI;
import mpi.MPIException;

/**
 * Start-up as a user sees it: {@code MPI.Init}, a barrier, {@code MPI.Finalize}. Rank 0 prints
 * the longest {@code MPI.Init} of any rank, the longest time from a rank's JVM start to the end
 * of its {@code MPI.Init}, and the wall clock (ms since the epoch) right after the barrier, so
 * that a script that noted when it started mpirun gets "mpirun start to every rank initialized".
 * With {@code alltoall}, the ranks also run an 8-byte {@code allToAll} before the barrier, so
 * that more peers talk (how many depends on the library's algorithm: Verbatim's small
 * all-to-all is log-step). Compiles against Open MPI's Java bindings too; the C twin is
 * {@code startup_barrier.c}.
 *
 * <p>Usage: {@code StartupBarrier [alltoall]}.
 */
public final class StartupBarrier {
    private StartupBarrier() {
    }

    public static void main(String[] args) throws MPIException {
        long start = System.nanoTime();
        MPI.Init(args);
        long init = System.nanoTime() - start;
        long jvmStart = ProcessHandle.current().info().startInstant()
                .map(java.time.Instant::toEpochMilli).orElse(System.currentTimeMillis());
        long sinceJvmStart = System.currentTimeMillis() - jvmStart;
        int size = MPI.COMM_WORLD.getSize();
        if (args.length > 0 && args[0].equals("alltoall")) {
            byte[] out = new byte[8 * size];
            byte[] in = new byte[8 * size];
            MPI.COMM_WORLD.allToAll(out, 8, MPI.BYTE, in, 8, MPI.BYTE);
        }
        long[] mine = {init / 1_000_000, sinceJvmStart};
        long[] max = new long[2];
        MPI.COMM_WORLD.reduce(mine, max, 2, MPI.LONG, MPI.MAX, 0);
        MPI.COMM_WORLD.barrier();
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.out.printf("startup: %d ranks, MPI.Init max %d ms, JVM start to Init done max %d ms,"
                    + " barrier done at %d%n", size, max[0], max[1], System.currentTimeMillis());
        }
        MPI.Finalize();
    }
}
