package org.verbatim.examples;

import mpi.MPI;
import mpi.MPIException;

/**
 * Computes pi by integrating 4/(1+x^2) over [0,1] with the midpoint rule; each rank takes every
 * size-th interval and rank 0 adds up the parts.
 */
public final class Pi {
    private static final int TAG = 7;

    private Pi() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long intervals = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        double start = MPI.wtime();

        double h = 1.0 / intervals;
        double sum = 0;
        for (long i = rank; i < intervals; i += size) {
            double x = h * (i + 0.5);
            sum += 4.0 / (1.0 + x * x);
        }
        double[] part = {sum * h};

        if (rank == 0) {
            double pi = part[0];
            double[] other = new double[1];
            for (int r = 1; r < size; r++) {
                MPI.COMM_WORLD.recv(other, 1, MPI.DOUBLE, r, TAG);
                pi += other[0];
            }
            System.out.printf("pi is approximately %.16f, error %.3e (%d intervals, %d ranks, %.3f s)%n",
                    pi, Math.abs(pi - Math.PI), intervals, size, MPI.wtime() - start);
        } else {
            MPI.COMM_WORLD.send(part, 1, MPI.DOUBLE, 0, TAG);
        }
        MPI.Finalize();
    }
}
