package org.verbatim.mpitests;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * Rank 1 streams 1 MiB messages (rendezvous: with RGET rank 0 RDMA-reads them, with RPUT rank 1
 * RDMA-writes them into the buffers rank 0 named) and small ones to
 * rank 0, and SIGKILLs itself while several are in flight; rank 0 keeps receiving. Ends only
 * through the failure handling: the launcher names rank 1 and stops the job.
 */
public final class IbKillProgram {
    private IbKillProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int n = 1 << 18; // ints: 1 MiB
        if (rank == 1) {
            for (int i = 0; i < 3; i++) {
                world.send(new int[n], n, MPI.INT, 0, i);
            }
            Request[] inFlight = new Request[8];
            for (int i = 0; i < inFlight.length; i++) {
                inFlight[i] = i % 2 == 0 ? world.iSend(MPI.newIntBuffer(n), n, MPI.INT, 0, 3 + i)
                        : world.iSend(MPI.newIntBuffer(16), 16, MPI.INT, 0, 3 + i);
            }
            System.out.println("rank 1 dies with " + inFlight.length + " sends in flight");
            System.out.flush();
            new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start().waitFor();
            Thread.sleep(60_000);
            System.out.println("rank 1 survived its SIGKILL: the test must fail");
        } else if (rank == 0) {
            int[] in = new int[n];
            for (int i = 0; ; i++) {
                world.recv(in, n, MPI.INT, 1, MPI.ANY_TAG);
                if (i == 100) {
                    System.out.println("rank 0 received more than rank 1 sent: the test must fail");
                }
            }
        }
        MPI.Finalize();
    }
}
