package org.verbatim.examples;

import mpi.MPI;
import mpi.MPIException;

/** Every rank says hello with its rank, the job size and its host. */
public final class Hello {
    private Hello() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        System.out.printf("Hello from rank %d of %d on %s%n", rank, size, MPI.getProcessorName());
        MPI.Finalize();
    }
}
