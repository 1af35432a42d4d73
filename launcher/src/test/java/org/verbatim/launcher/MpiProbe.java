package org.verbatim.launcher;

import java.util.concurrent.TimeUnit;
import mpi.MPI;
import mpi.MPIException;

/**
 * An MPI rank program for the multi-process tests: {@code ring} passes arrays around the ring
 * (small and rendezvous-sized) and checks them; {@code kill R} and {@code abort R C} make rank R
 * die or abort after a first exchange while the others block in a receive from it; {@code linger}
 * prints each rank's pid and then waits in a receive that nothing matches (the launcher-loss
 * tests kill the launcher under it); {@code where} prints whether the rank runs under ssh, the
 * variable PROBE_VAR and its working directory.
 */
public final class MpiProbe {
    private MpiProbe() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "ring";
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        ring(rank, size, 1);
        ring(rank, size, 1 << 18);
        switch (mode) {
            case "ring" -> System.out.println("mpi rank " + rank + " of " + size + " ring ok");
            case "kill" -> {
                int victim = Integer.parseInt(args[1]);
                if (rank == victim) {
                    System.out.println("mpi rank " + rank + " killing itself");
                    System.out.flush();
                    new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                    TimeUnit.SECONDS.sleep(60);
                }
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, victim, 99);
                throw new AssertionError("received from a dead rank");
            }
            case "abort" -> {
                int who = Integer.parseInt(args[1]);
                if (rank == who) {
                    MPI.COMM_WORLD.abort(Integer.parseInt(args[2]));
                    TimeUnit.SECONDS.sleep(60);
                }
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, who, 99);
                throw new AssertionError("received from an aborted rank");
            }
            case "fatal" -> {
                if (rank == Integer.parseInt(args[1])) {
                    MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, size + 5, 0); // no such rank
                }
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, Integer.parseInt(args[1]), 99);
                throw new AssertionError("received from a rank that failed");
            }
            case "where" -> System.out.println("where rank " + rank + " of " + size + " ssh="
                    + (System.getenv("SSH_CONNECTION") != null) + " var=" + System.getenv("PROBE_VAR") + " cwd="
                    + System.getProperty("user.dir"));
            case "linger" -> {
                System.out.println("linger rank " + rank + " pid " + ProcessHandle.current().pid());
                System.out.flush();
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, (rank + 1) % size, 98); // never sent
                throw new AssertionError("received a message nobody sent");
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        MPI.Finalize();
    }

    private static void ring(int rank, int size, int count) throws MPIException {
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int[] out = new int[count];
        int[] in = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = rank * 1_000_003 + i;
        }
        MPI.COMM_WORLD.sendRecv(out, count, MPI.INT, next, 7, in, count, MPI.INT, prev, 7);
        for (int i = 0; i < count; i++) {
            if (in[i] != prev * 1_000_003 + i) {
                System.err.println("mpi rank " + rank + ": element " + i + " is " + in[i]);
                System.exit(3);
            }
        }
    }
}
