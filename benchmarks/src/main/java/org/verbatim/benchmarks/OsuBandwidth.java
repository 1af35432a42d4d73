package org.verbatim.benchmarks;

import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Unidirectional bandwidth, as OSU's osu_bw: per iteration rank 0 starts a window of nonblocking
 * sends, rank 1 a window of nonblocking receives; after both complete, rank 1 answers with a
 * 4-byte ack. MB/s with MB = 10^6 bytes.
 */
public final class OsuBandwidth {
    private static final int TAG = 100;
    private static final int ACK_TAG = 101;

    public static void main(String[] args) throws MPIException {
        run("OsuBandwidth", "OSU-style MPI Bandwidth Test (Verbatim benchmarks)", false, args);
    }

    static void run(String program, String title, boolean bidirectional, String[] args)
            throws MPIException {
        MPI.Init(args);
        OsuOptions o = OsuOptions.parse(program, OsuOptions.Kind.BANDWIDTH, args);
        if (o == null || !Osu.twoRanks(program)) {
            MPI.Finalize();
            System.exit(o == null ? 2 : 1);
        }
        Comm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        int peer = 1 - rank;
        MessageBuffers b = new MessageBuffers(o.direct, o.maxSize);
        if (!b.nonblockingAvailable()) {
            if (rank == 0) {
                Osu.header(title, o, "Bandwidth (MB/s)");
                System.out.println("# skipped: these bindings have no nonblocking calls on arrays;"
                        + " use --buffer direct");
            }
            MPI.Finalize();
            return;
        }
        if (rank == 0) {
            Osu.header(title, o, "Bandwidth (MB/s)");
        }
        Request[] sends = new Request[o.window];
        Request[] recvs = new Request[o.window];
        for (int size : Osu.sizes(o)) {
            int perBatch = o.perBatch(size);
            int warmup = o.warmup(size);
            comm.barrier();
            double start = 0;
            double best = Double.MAX_VALUE;
            for (int i = 0; i < warmup + o.batches * perBatch; i++) {
                if (i >= warmup && (i - warmup) % perBatch == 0) {
                    double now = MPI.wtime();
                    if (i > warmup) {
                        best = Math.min(best, now - start);
                    }
                    start = now;
                }
                if (bidirectional) {
                    for (int w = 0; w < o.window; w++) {
                        recvs[w] = b.iRecv(comm, size, peer, TAG);
                    }
                    for (int w = 0; w < o.window; w++) {
                        sends[w] = b.iSend(comm, size, peer, TAG);
                    }
                    Request.waitAll(sends);
                    Request.waitAll(recvs);
                } else if (rank == 0) {
                    for (int w = 0; w < o.window; w++) {
                        sends[w] = b.iSend(comm, size, peer, TAG);
                    }
                    Request.waitAll(sends);
                    b.recv(comm, 4, peer, ACK_TAG);
                } else {
                    for (int w = 0; w < o.window; w++) {
                        recvs[w] = b.iRecv(comm, size, peer, TAG);
                    }
                    Request.waitAll(recvs);
                    b.send(comm, 4, peer, ACK_TAG);
                }
            }
            best = Math.min(best, MPI.wtime() - start);
            if (rank == 0) {
                double bytes = (double) size * perBatch * o.window * (bidirectional ? 2 : 1);
                Osu.row(size, bytes / 1e6 / best);
            }
        }
        MPI.Finalize();
    }
}
