package org.verbatim.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The allocation profile of the point-to-point hot path: bytes the JVM allocates on the calling
 * thread per blocking send + receive (one ping-pong half), after warm-up, measured with
 * {@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}. Unlike a latency this
 * figure does not depend on machine load. Run on 2 ranks:
 * {@code bin/mpirun -np 2 -cp benchmarks/target/verbatim-benchmarks-*.jar
 * org.verbatim.benchmarks.AllocationProfile}.
 *
 * <p>MPI_Recv must return a new Status (the API says so): that object, about 40 bytes, is the
 * floor for a blocking receive.
 */
public final class AllocationProfile {
    private static final int WARMUP = 50_000;
    private static final int ROUNDS = 100_000;

    private AllocationProfile() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Comm comm = MPI.COMM_WORLD;
        if (comm.getSize() != 2) {
            System.err.println("AllocationProfile needs exactly 2 ranks");
            MPI.Finalize();
            System.exit(1);
        }
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int rank = comm.getRank();
        if (rank == 0) {
            System.out.println("# Allocation per ping-pong half (blocking send + receive), bytes");
            System.out.printf("# %-28s %14s%n", "Case", "Bytes/message");
        }
        for (int size : new int[] {8, 4096}) {
            byte[] array = new byte[size];
            ByteBuffer direct = MPI.newByteBuffer(size);
            for (boolean useDirect : new boolean[] {false, true}) {
                Object buf = useDirect ? direct : array;
                long before = 0;
                for (int i = 0; i < WARMUP + ROUNDS; i++) {
                    if (i == WARMUP) {
                        before = threads.getCurrentThreadAllocatedBytes();
                    }
                    if (rank == 0) {
                        comm.send(buf, size, MPI.BYTE, 1, 1);
                        comm.recv(buf, size, MPI.BYTE, 1, 1);
                    } else {
                        comm.recv(buf, size, MPI.BYTE, 0, 1);
                        comm.send(buf, size, MPI.BYTE, 0, 1);
                    }
                }
                long perMessage = (threads.getCurrentThreadAllocatedBytes() - before) / ROUNDS;
                if (rank == 0) {
                    System.out.printf("  %-28s %14d%n", size + " B " + (useDirect ? "direct" : "array"),
                            perMessage);
                }
                comm.barrier();
            }
        }
        MPI.Finalize();
    }
}
