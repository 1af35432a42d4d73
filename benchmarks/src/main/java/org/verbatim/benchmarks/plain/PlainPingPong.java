package org.verbatim.benchmarks.plain;

import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A ping-pong as a new user writes it, straight from {@code main}, no harness: {@code warmup}
 * round trips, then {@code timed} round trips timed as a whole, printing the average half round
 * trip. With {@code trace} it also times every round trip from the very first one (one clock
 * read per round trip) and prints the averages over the first 1,000 and 20,000 round trips and
 * one line per bucket of round trips, the data of a latency-against-message-number plot.
 *
 * <p>Usage: {@code PlainPingPong [size=8] [warmup=4000] [timed=20000] [direct|array] [trace]}.
 * Compiles against Open MPI's Java bindings too (only the public {@code mpi} API).
 */
public final class PlainPingPong {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 4000;
        int timed = args.length > 2 ? Integer.parseInt(args[2]) : 20000;
        boolean direct = args.length <= 3 || !args[3].equals("array");
        boolean trace = args.length > 4 && args[4].equals("trace");
        Comm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        int total = warmup + timed;
        long[] trips = trace ? new long[total] : null;
        ByteBuffer dbuf = direct ? MPI.newByteBuffer(size) : null;
        byte[] abuf = direct ? null : new byte[size];
        long start = 0;
        for (int i = 0; i < total; i++) {
            if (i == warmup) {
                start = System.nanoTime();
            }
            long t0 = trace ? System.nanoTime() : 0;
            if (rank == 0) {
                if (direct) {
                    comm.send(dbuf, size, MPI.BYTE, 1, 1);
                    comm.recv(dbuf, size, MPI.BYTE, 1, 1);
                } else {
                    comm.send(abuf, size, MPI.BYTE, 1, 1);
                    comm.recv(abuf, size, MPI.BYTE, 1, 1);
                }
            } else if (rank == 1) {
                if (direct) {
                    comm.recv(dbuf, size, MPI.BYTE, 0, 1);
                    comm.send(dbuf, size, MPI.BYTE, 0, 1);
                } else {
                    comm.recv(abuf, size, MPI.BYTE, 0, 1);
                    comm.send(abuf, size, MPI.BYTE, 0, 1);
                }
            }
            if (trace) {
                trips[i] = System.nanoTime() - t0;
            }
        }
        long elapsed = System.nanoTime() - start;
        if (rank == 0) {
            System.out.printf("size %d B, %s, %d warm-up + %d timed round trips: %.3f us per half round trip%n",
                    size, direct ? "direct" : "array", warmup, timed, elapsed / 1e3 / timed / 2);
            if (trace) {
                printTrace(trips);
            }
        }
        MPI.Finalize();
    }

    /** Averages from the first message, then buckets that double in length. */
    private static void printTrace(long[] trips) {
        System.out.printf("first 1000: %.3f us; first 20000: %.3f us (half round trips, from the first message)%n",
                average(trips, 0, Math.min(1000, trips.length)), average(trips, 0, Math.min(20000, trips.length)));
        StringBuilder first = new StringBuilder("first round trips (us):");
        for (int i = 0; i < Math.min(10, trips.length); i++) {
            first.append(String.format(" %.1f", trips[i] / 1e3));
        }
        System.out.println(first);
        System.out.println("# trace: from to average-half-round-trip-us");
        int from = 0;
        int length = 10;
        while (from < trips.length) {
            int to = Math.min(trips.length, from + length);
            System.out.printf("trace %d %d %.3f%n", from, to, average(trips, from, to));
            from = to;
            length = length * 2;
        }
    }

    private static double average(long[] trips, int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += trips[i];
        }
        return to > from ? sum / 1e3 / (to - from) / 2 : 0;
    }
}
