package org.verbatim.mpitests;

import mpi.MPI;

/**
 * A small job for the profiler report: every rank exchanges {@code messages} messages of 100 B
 * with its partner (rank ^ 1) and one of 100 KiB (a rendezvous), then finalizes, where rank 0
 * prints the counters of all ranks combined ({@code verbatim.core.profile=true}).
 */
public final class ProfileProgram {
    private ProfileProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int messages = Integer.parseInt(args[0]);
        Checks c = new Checks(rank);
        int partner = rank ^ 1;
        if (partner < size) {
            c.run("exchange with rank " + partner, () -> {
                byte[] in = new byte[100];
                for (int i = 0; i < messages; i++) {
                    byte[] out = new byte[100];
                    out[0] = (byte) i;
                    var s = MPI.COMM_WORLD.iSend(out, 100, MPI.BYTE, partner, 1);
                    MPI.COMM_WORLD.recv(in, 100, MPI.BYTE, partner, 1);
                    s.waitFor();
                    c.equal("message " + i, (byte) i, in[0]);
                }
                byte[] big = new byte[100 << 10];
                var s = MPI.COMM_WORLD.iSend(big, big.length, MPI.BYTE, partner, 2);
                MPI.COMM_WORLD.recv(new byte[big.length], big.length, MPI.BYTE, partner, 2);
                s.waitFor();
            });
        }
        int failed = c.summary();
        MPI.Finalize();
        System.exit(failed);
    }
}
