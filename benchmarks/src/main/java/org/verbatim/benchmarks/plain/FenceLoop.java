package org.verbatim.benchmarks.plain;

import java.nio.ByteBuffer;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * Active-target epochs as a plain program runs them: every rank of the job puts 8 bytes into
 * its right neighbour's window and fences, {@code epochs} times after {@code warmup} untimed
 * ones; rank 0 prints the average time per epoch. With more ranks than cores this shows what a
 * rank waiting in a fence costs the ranks it waits for. The window is allocated
 * ({@code MPI_Win_allocate}); {@code shared} allocates it with allocate-shared instead.
 *
 * <p>Usage: {@code FenceLoop [epochs] [warmup] [shared]} (defaults 2000, 200).
 */
public final class FenceLoop {
    private FenceLoop() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int epochs = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        boolean shared = args.length > 2 && args[2].equals("shared");
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Win win = new Win(8 * size, 1, new Info(), MPI.COMM_WORLD, MPI.newByteBuffer(1),
                shared ? Win.FLAVOR_SHARED : Win.FLAVOR_PRIVATE);
        ByteBuffer origin = MPI.newByteBuffer(8);
        origin.putLong(0, rank);
        int right = (rank + 1) % size;
        win.fence(MPI.MODE_NOPRECEDE);
        long start = 0;
        for (int i = 0; i < warmup + epochs; i++) {
            if (i == warmup) {
                MPI.COMM_WORLD.barrier();
                start = System.nanoTime();
            }
            win.put(origin, 8, MPI.BYTE, right, 8 * rank, 8, MPI.BYTE);
            win.fence(0);
        }
        long nanos = System.nanoTime() - start;
        win.fence(MPI.MODE_NOSUCCEED);
        win.free();
        if (rank == 0) {
            System.out.printf("fence loop: %d ranks, %s window, %d epochs: %.2f us per epoch%n", size,
                    shared ? "shared" : "allocated", epochs, nanos / 1e3 / epochs);
        }
        MPI.Finalize();
    }
}
