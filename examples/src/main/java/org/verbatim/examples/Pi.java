package org.verbatim.examples;

import mpi.MPI;
import mpi.MPIException;

/**
 * Computes pi by integrating 4/(1+x^2) over [0,1] with the midpoint rule: rank 0 broadcasts the
 * number of intervals, each rank takes every size-th interval, and a reduction adds up the parts.
 */
public final class Pi {
    private Pi() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long[] n = {args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L};
        double start = MPI.wtime();
        MPI.COMM_WORLD.bcast(n, 1, MPI.LONG, 0);
        long intervals = n[0];

        double h = 1.0 / intervals;
        double sum = 0;
        for (long i = rank; i < intervals; i += size) {
            double x = h * (i + 0.5);
            sum += 4.0 / (1.0 + x * x);
        }
        double[] part = {sum * h};
        double[] pi = new double[1];
        MPI.COMM_WORLD.reduce(part, pi, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (rank == 0) {
            System.out.printf("pi is approximately %.16f, error %.3e (%d intervals, %d ranks, %.3f s)%n",
                    pi[0], Math.abs(pi[0] - Math.PI), intervals, size, MPI.wtime() - start);
        }
        MPI.Finalize();
    }
}
