package org.verbatim.launcher.training;

import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * A measurement prototype of issue 17's "MPI.Init may run a short exchange to compile the hot
 * path": right after {@code MPI.Init}, {@code n} 8-byte exchanges ({@code self}: each rank with
 * itself through iRecv + send; {@code pair}: ranks 2k and 2k+1 with each other, which is the shm
 * path), timed, and then {@code org.verbatim.benchmarks.plain.PlainPingPong}'s direct-buffer loop
 * unchanged. Not shipped: the launcher's AOT cache is what the project chose (docs/launcher.md).
 *
 * <p>Usage: {@code WarmupExchangeProbe self|pair|none N [warmup=4000] [timed=20000]}.
 */
public final class WarmupExchangeProbe {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String mode = args[0];
        int n = Integer.parseInt(args[1]);
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 4000;
        int timed = args.length > 3 ? Integer.parseInt(args[3]) : 20000;
        Comm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        long t0 = System.nanoTime();
        ByteBuffer a = MPI.newByteBuffer(8);
        ByteBuffer b = MPI.newByteBuffer(8);
        int partner = mode.equals("self") ? rank : (rank ^ 1) < comm.getSize() ? rank ^ 1 : rank;
        if (!mode.equals("none")) {
            for (int i = 0; i < n; i++) {
                Request r = comm.iRecv(b, 8, MPI.BYTE, partner, 99);
                comm.send(a, 8, MPI.BYTE, partner, 99);
                r.waitFor();
            }
        }
        long prelude = System.nanoTime() - t0;
        ByteBuffer buf = MPI.newByteBuffer(8);
        long start = 0;
        for (int i = 0; i < warmup + timed; i++) {
            if (i == warmup) {
                start = System.nanoTime();
            }
            if (rank == 0) {
                comm.send(buf, 8, MPI.BYTE, 1, 1);
                comm.recv(buf, 8, MPI.BYTE, 1, 1);
            } else if (rank == 1) {
                comm.recv(buf, 8, MPI.BYTE, 0, 1);
                comm.send(buf, 8, MPI.BYTE, 0, 1);
            }
        }
        long elapsed = System.nanoTime() - start;
        if (rank == 0) {
            System.out.printf("prelude %s x%d: %.1f ms; size 8 B, direct, %d warm-up + %d timed round trips: "
                    + "%.3f us per half round trip%n", mode, n, prelude / 1e6, warmup, timed, elapsed / 1e3 / timed / 2);
        }
        MPI.Finalize();
    }
}
