package org.verbatim.mpitests;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * A job in which one rank fails while the others are blocked waiting for it, under the default
 * ERRORS_ARE_FATAL handler. Arguments: {@code mode victimRank}; modes: {@code rank}, {@code tag},
 * {@code count}, {@code buffer}, {@code comm}, {@code truncate}, {@code abort}, {@code kill}.
 * The victim first takes part in ring exchanges (eager and rendezvous), so the failure is mid-run.
 */
public final class FailureProgram {
    private FailureProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        String mode = args[0];
        int victim = Integer.parseInt(args[1]);
        int next = (rank + 1) % size;
        int prev = (rank - 1 + size) % size;
        for (int i = 0; i < 40; i++) {
            int n = i % 4 == 3 ? 50_000 : 10;
            int[] out = new int[n];
            int[] in = new int[n];
            Request r = world.iRecv(in, n, MPI.INT, prev, i);
            world.send(out, n, MPI.INT, next, i);
            r.waitFor();
        }
        Intracomm dup = world.dup(); // collective: made by every rank, freed by the victim
        System.out.println("rank " + rank + " exchanged; mode " + mode);
        System.out.flush();
        if (rank == victim) {
            fail(mode, world, dup, rank, size);
            System.out.println("rank " + rank + " survived its failure: the test must fail");
            MPI.Finalize();
            return;
        }
        // Everyone else waits for a message that never comes (or is truncated on the victim).
        if (mode.equals("truncate") && rank == prev(victim, size)) {
            world.send(new int[50_000], 50_000, MPI.INT, victim, 999);
        }
        world.recv(new int[1], 1, MPI.INT, victim, 12345);
        System.out.println("rank " + rank + " was not stopped: the test must fail");
        MPI.Finalize();
    }

    private static int prev(int r, int size) {
        return (r - 1 + size) % size;
    }

    private static void fail(String mode, Intracomm world, Intracomm dup, int rank, int size) throws Exception {
        int[] b = new int[8];
        switch (mode) {
            case "rank" -> world.send(b, 8, MPI.INT, size + 3, 0);
            case "tag" -> world.iSend(MPI.newIntBuffer(8), 8, MPI.INT, 0, -7);
            case "count" -> world.recv(b, -2, MPI.INT, 0, 0);
            case "buffer" -> world.send(b, 9, MPI.INT, 0, 0);
            case "comm" -> {
                dup.free();
                dup.send(b, 1, MPI.INT, 0, 0);
            }
            case "truncate" -> world.recv(new int[10], 10, MPI.INT, prev(rank, size), 999);
            case "abort" -> world.abort(7);
            case "kill" -> {
                long pid = ProcessHandle.current().pid();
                // A rendezvous send in flight to the next rank when the process dies.
                world.iSend(MPI.newIntBuffer(1 << 20), 1 << 20, MPI.INT, (rank + 1) % size, 7);
                Process p = new ProcessBuilder("kill", "-KILL", Long.toString(pid)).start();
                p.waitFor();
                Thread.sleep(10_000);
            }
            default -> throw new MPIException("unknown mode " + mode);
        }
    }
}
