package org.verbatim.benchmarks.plain;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * The datatype paper's vector test: ranks 0 and 1 ping-pong a block of x columns of a 128 x 4096
 * int matrix ({@code Datatype.createVector(128, x, 4096, MPI.INT)}), and, for comparison, the
 * same number of bytes sent contiguous. Prints, per x, the average half round trip of both and
 * their ratio. Only the public {@code mpi} API (compiles against Open MPI's bindings too).
 *
 * <p>Usage: {@code VectorPingPong [columns=1,4,16,64,256,1024,4096] [iterations=200] [array]}
 * ({@code array}: an int[] matrix instead of a direct IntBuffer).
 */
public final class VectorPingPong {
    private static final int ROWS = 128;
    private static final int COLS = 4096;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String[] xs = (args.length > 0 ? args[0] : "1,4,16,64,256,1024,4096").split(",");
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        boolean array = args.length > 2 && args[2].equals("array");
        Comm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        Object matrix = array ? new int[ROWS * COLS] : MPI.newIntBuffer(ROWS * COLS);
        if (rank == 0) {
            System.out.printf("%8s %12s %14s %8s%n", "columns", "vector us", "contiguous us", "ratio");
        }
        for (String x : xs) {
            int columns = Integer.parseInt(x.trim());
            Datatype block = Datatype.createVector(ROWS, columns, COLS, MPI.INT);
            block.commit();
            double vector = pingPong(comm, rank, matrix, 1, block, iterations);
            double contiguous = pingPong(comm, rank, matrix, ROWS * columns, MPI.INT, iterations);
            block.free();
            if (rank == 0) {
                System.out.printf("%8d %12.2f %14.2f %8.2f%n", columns, vector, contiguous,
                        vector / contiguous);
            }
        }
        MPI.Finalize();
    }

    /** Average half round trip in microseconds (a tenth of the iterations warm up first). */
    private static double pingPong(Comm comm, int rank, Object buf, int count, Datatype type,
                                   int iterations) throws MPIException {
        int warmup = Math.max(10, iterations / 10);
        long start = 0;
        for (int i = 0; i < warmup + iterations; i++) {
            if (i == warmup) {
                comm.barrier();
                start = System.nanoTime();
            }
            if (rank == 0) {
                comm.send(buf, count, type, 1, 7);
                comm.recv(buf, count, type, 1, 7);
            } else if (rank == 1) {
                comm.recv(buf, count, type, 0, 7);
                comm.send(buf, count, type, 0, 7);
            }
        }
        return (System.nanoTime() - start) / 1e3 / iterations / 2;
    }
}
