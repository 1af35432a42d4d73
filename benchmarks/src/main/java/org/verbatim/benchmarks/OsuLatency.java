package org.verbatim.benchmarks;

import java.util.Arrays;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Ping-pong latency between two ranks, as OSU's osu_latency: rank 0 sends and waits for the
 * same size back; the figure is half the round trip, averaged over the timed iterations.
 * With {@code --typical} it times every iteration as well (one clock read per round trip, its
 * cost included) and adds three columns: the median half round trip, which is what perftest
 * reports as t_typical, the average of all timed iterations, perftest's t_avg, and the 99th
 * percentile.
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
            Osu.header("OSU-style MPI Latency Test (Verbatim benchmarks)", o,
                    o.typical ? String.format("%20s%17s%17s%17s", "Latency (us)", "Typical (us)", "Average (us)",
                            "99% (us)")
                            : "Latency (us)");
        }
        int mostTimed = o.batches * Math.max(o.perBatch(o.minSize), o.perBatch(o.maxSize));
        long[] trips = o.typical ? new long[Math.max(mostTimed, CHUNK)] : null;
        for (int size : Osu.sizes(o)) {
            int perBatch = o.perBatch(size);
            comm.barrier();
            if (rank == 0) {
                for (int done = 0; done < o.warmup(size); done += CHUNK) {
                    roundTrips(comm, b, size, Math.min(CHUNK, o.warmup(size) - done), trips, 0);
                }
                double best = Double.MAX_VALUE;
                int timed = 0;
                for (int batch = 0; batch < o.batches; batch++) {
                    double start = MPI.wtime();
                    roundTrips(comm, b, size, perBatch, trips, timed);
                    best = Math.min(best, MPI.wtime() - start);
                    timed += trips == null ? 0 : perBatch;
                }
                double latency = best * 1e6 / (2.0 * perBatch);
                if (trips == null) {
                    Osu.row(size, latency);
                } else {
                    long[] t = Arrays.copyOf(trips, timed);
                    Arrays.sort(t);
                    double sum = 0;
                    for (long v : t) {
                        sum += v;
                    }
                    // half round trips in microseconds, as perftest's t_typical and t_avg
                    System.out.printf("%-10d%20.2f%17.2f%17.2f%17.2f%n", size, latency, t[timed / 2] / 2e3,
                            sum / timed / 2e3, t[(int) (timed * 0.99)] / 2e3);
                    System.out.printf("# clock read: %.0f ns (one per round trip, inside Typical and Average)%n",
                            clockReadNanos());
                    System.out.flush();
                }
            } else {
                int echoes = o.warmup(size) + o.batches * perBatch;
                for (int done = 0; done < echoes; done += CHUNK) {
                    echo(comm, b, size, Math.min(CHUNK, echoes - done));
                }
            }
        }
        MPI.Finalize();
    }

    /**
     * Round trips per call in the warm-up (and the echoing rank's calls): the warm-up calls the
     * very method the timed batches call, hundreds of times, so the JIT has compiled it whole
     * (not just an on-stack replacement of a loop) with the same branch profile before the
     * first timed round trip. A warm-up loop of its own, as OSU's, leaves the timed loop to be
     * compiled during the timed part: in the TCG guest the compiler then shares the two vCPUs
     * with the ranks for seconds (a C2 compilation of main seen at the start of the timed part).
     */
    private static final int CHUNK = 100;

    /** {@code n} round trips to rank 1; with {@code trips}, each one's time goes to {@code trips[at + i]}. */
    private static void roundTrips(Comm comm, MessageBuffers b, int size, int n, long[] trips, int at)
            throws MPIException {
        long previous = trips == null ? 0 : System.nanoTime();
        for (int i = 0; i < n; i++) {
            b.send(comm, size, 1, TAG);
            b.recv(comm, size, 1, TAG);
            if (trips != null) {
                long now = System.nanoTime(); // one clock read per round trip
                trips[at + i] = now - previous;
                previous = now;
            }
        }
    }

    /** Rank 1: returns {@code n} messages to rank 0. */
    private static void echo(Comm comm, MessageBuffers b, int size, int n) throws MPIException {
        for (int i = 0; i < n; i++) {
            b.recv(comm, size, 0, TAG);
            b.send(comm, size, 0, TAG);
        }
    }

    private static volatile long clockSink; // keeps the reads

    /**
     * What one {@code System.nanoTime} costs here, median of 101 runs of 1,000 back-to-back reads:
     * 20-30 ns on bare metal, about 1 us in a TCG guest on the HPET clocksource.
     */
    private static double clockReadNanos() {
        double[] runs = new double[101];
        for (int r = 0; r < runs.length; r++) {
            long sink = 0;
            long start = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                sink += System.nanoTime();
            }
            runs[r] = (System.nanoTime() - start) / 1000.0;
            clockSink = sink;
        }
        Arrays.sort(runs);
        return runs[runs.length / 2];
    }
}
