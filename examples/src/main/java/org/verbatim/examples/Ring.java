package org.verbatim.examples;

import mpi.MPI;
import mpi.MPIException;

/**
 * A token travels around the ring of ranks several times; rank 0 decrements it each lap and
 * everyone stops when it reaches zero (the classic Open MPI ring_c, in Java).
 */
public final class Ring {
    private static final int TAG = 201;

    private Ring() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int[] token = new int[1];
        if (rank == 0) {
            token[0] = args.length > 0 ? Integer.parseInt(args[0]) : 10;
            System.out.printf("Rank 0 sends %d to rank %d (%d ranks in the ring)%n", token[0], next, size);
            MPI.COMM_WORLD.send(token, 1, MPI.INT, next, TAG);
        }
        while (true) {
            MPI.COMM_WORLD.recv(token, 1, MPI.INT, prev, TAG);
            if (rank == 0) {
                token[0]--;
                System.out.printf("Rank 0 decremented the token to %d%n", token[0]);
            }
            MPI.COMM_WORLD.send(token, 1, MPI.INT, next, TAG);
            if (token[0] == 0) {
                System.out.printf("Rank %d exits%n", rank);
                break;
            }
        }
        if (rank == 0) {
            MPI.COMM_WORLD.recv(token, 1, MPI.INT, prev, TAG); // the last zero comes home
        }
        MPI.Finalize();
    }
}
