package org.verbatim.mpitests;

import mpi.MPI;
import mpi.Win;

/**
 * A rank fails inside an epoch: {@code kill} (the victim is killed by SIGKILL while it holds an
 * exclusive lock on rank 0 and the others wait for that lock or for a fence) or {@code sync}
 * (the victim unlocks a rank it never locked, under the default ERRORS_ARE_FATAL).
 */
public final class RmaFailureProgram {
    private RmaFailureProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        String mode = args[0];
        int victim = Integer.parseInt(args[1]);
        int rank = MPI.COMM_WORLD.getRank();
        Win win = new Win(MPI.newIntBuffer(4), 4, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
        if (rank == victim) {
            if (mode.equals("kill")) {
                win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                MPI.COMM_WORLD.barrier();
                Process p = new ProcessBuilder("kill", "-KILL",
                        Long.toString(ProcessHandle.current().pid())).start();
                p.waitFor();
                Thread.sleep(10_000);
            } else {
                win.unlock(0);
            }
            System.out.println("rank " + rank + " survived its failure: the test must fail");
        } else {
            if (mode.equals("kill")) {
                MPI.COMM_WORLD.barrier();
                win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                win.unlock(0);
            }
            win.fence(0);
        }
        MPI.Finalize();
    }
}
