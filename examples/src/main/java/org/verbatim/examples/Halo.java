package org.verbatim.examples;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * A Jacobi relaxation on a grid split by columns across the ranks, whose halo columns travel
 * as a derived datatype: a column of a row-major {@code double[rows][cols + 2]} block is
 * {@code Datatype.createVector(rows, 1, cols + 2, MPI.DOUBLE)}, sent straight from the array
 * (no packing in user code). The left edge of the global grid is held at 1, the rest starts at
 * 0; rank 0 prints how far the heat has spread and the global sum after each report.
 *
 * <p>Usage: {@code Halo [rows=64] [columns per rank=64] [iterations=200]}.
 */
public final class Halo {
    private Halo() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 64;
        int cols = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int width = cols + 2; // a ghost column on each side
        double[] grid = new double[rows * width];
        double[] next = new double[rows * width];
        Datatype column = Datatype.createVector(rows, 1, width, MPI.DOUBLE);
        column.commit();
        int left = rank > 0 ? rank - 1 : MPI.PROC_NULL;
        int right = rank < size - 1 ? rank + 1 : MPI.PROC_NULL;
        for (int it = 1; it <= iterations; it++) {
            if (rank == 0) {
                for (int r = 0; r < rows; r++) {
                    grid[r * width] = 1.0; // the hot global edge lives in rank 0's left ghost
                }
            }
            // my first real column goes left while my right ghost comes from the right, and back
            MPI.COMM_WORLD.sendRecv(MPI.slice(grid, 1), 1, column, left, 1,
                    MPI.slice(grid, cols + 1), 1, column, right, 1);
            MPI.COMM_WORLD.sendRecv(MPI.slice(grid, cols), 1, column, right, 2,
                    MPI.slice(grid, 0), 1, column, left, 2);
            for (int r = 0; r < rows; r++) {
                for (int c = 1; c <= cols; c++) {
                    int i = r * width + c;
                    double up = r > 0 ? grid[i - width] : grid[i];
                    double down = r < rows - 1 ? grid[i + width] : grid[i];
                    next[i] = 0.25 * (grid[i - 1] + grid[i + 1] + up + down);
                }
                next[r * width] = grid[r * width];
                next[r * width + cols + 1] = grid[r * width + cols + 1];
            }
            double[] t = grid;
            grid = next;
            next = t;
            if (it % Math.max(1, iterations / 4) == 0 || it == iterations) {
                double[] local = {0};
                for (int r = 0; r < rows; r++) {
                    for (int c = 1; c <= cols; c++) {
                        local[0] += grid[r * width + c];
                    }
                }
                double[] total = {0};
                MPI.COMM_WORLD.reduce(local, total, 1, MPI.DOUBLE, MPI.SUM, 0);
                if (rank == 0) {
                    System.out.printf("iteration %d: heat in the grid %.6f%n", it, total[0]);
                }
            }
        }
        column.free();
        MPI.Finalize();
    }
}
