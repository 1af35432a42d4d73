package org.verbatim.benchmarks;

import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Ping-pong latency between two ranks, as OSU's osu_latency: rank 0 sends and waits for the
 * same size back; the figure is half the round trip, averaged over the timed iterations.
 */
public final class OsuLatency {
    private static final int TAG = 1;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        OsuOptions o = OsuOptions.parse("OsuLatency", OsuOptions.Kind.LATENCY, args);
        if (o == null || !Osu.twoRanks("OsuLatency")) {
            MPI.Finalize();
            System.exit(o == null ? 2 : 1);
        }
        Comm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        MessageBuffers b = new MessageBuffers(o.direct, o.maxSize);
        if (rank == 0) {
            Osu.header("OSU-style MPI Latency Test (Verbatim benchmarks)", o, "Latency (us)");
        }
        for (int size : Osu.sizes(o)) {
            int perBatch = o.perBatch(size);
            comm.barrier();
            if (rank == 0) {
                for (int i = 0; i < o.warmup(size); i++) {
                    b.send(comm, size, 1, TAG);
                    b.recv(comm, size, 1, TAG);
                }
                double best = Double.MAX_VALUE;
                for (int batch = 0; batch < o.batches; batch++) {
                    double start = MPI.wtime();
                    for (int i = 0; i < perBatch; i++) {
                        b.send(comm, size, 1, TAG);
                        b.recv(comm, size, 1, TAG);
                    }
                    best = Math.min(best, MPI.wtime() - start);
                }
                Osu.row(size, best * 1e6 / (2.0 * perBatch));
            } else {
                for (int i = 0; i < o.warmup(size) + o.batches * perBatch; i++) {
                    b.recv(comm, size, 0, TAG);
                    b.send(comm, size, 0, TAG);
                }
            }
        }
        MPI.Finalize();
    }
}
