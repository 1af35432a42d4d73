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
            int iterations = o.iterations(size);
            int warmup = o.warmup(size);
            comm.barrier();
            double start = 0;
            if (rank == 0) {
                for (int i = 0; i < warmup + iterations; i++) {
                    if (i == warmup) {
                        start = MPI.wtime();
                    }
                    b.send(comm, size, 1, TAG);
                    b.recv(comm, size, 1, TAG);
                }
                double elapsed = MPI.wtime() - start;
                Osu.row(size, elapsed * 1e6 / (2.0 * iterations));
            } else {
                for (int i = 0; i < warmup + iterations; i++) {
                    b.recv(comm, size, 0, TAG);
                    b.send(comm, size, 0, TAG);
                }
            }
        }
        MPI.Finalize();
    }
}
