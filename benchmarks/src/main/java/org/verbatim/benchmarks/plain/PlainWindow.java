package org.verbatim.benchmarks.plain;

import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * A message-rate loop as a new user writes it: rank 0 posts a window of {@code window}
 * {@code iSend}s, rank 1 a window of {@code iRecv}s, both {@code Request.waitAll}, then rank 1
 * answers with a 4-byte ack; {@code windows} windows timed after {@code warmupWindows}. Prints
 * messages per second and MB/s (10^6 B).
 *
 * <p>Usage: {@code PlainWindow [size=8] [window=64] [windows=200] [warmupWindows=10] [trace]}
 * ({@code trace}: also the time of each window, printed by buckets from the first). Direct
 * buffers, as Open MPI's Java bindings require for nonblocking calls.
 */
public final class PlainWindow {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int window = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        int windows = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        int warmupWindows = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        boolean trace = args.length > 4 && args[4].equals("trace");
        long[] times = new long[warmupWindows + windows];
        Comm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        ByteBuffer[] bufs = new ByteBuffer[window];
        for (int i = 0; i < window; i++) {
            bufs[i] = MPI.newByteBuffer(size);
        }
        ByteBuffer ack = MPI.newByteBuffer(4);
        Request[] requests = new Request[window];
        long start = 0;
        for (int w = 0; w < warmupWindows + windows; w++) {
            long t0 = System.nanoTime();
            if (w == warmupWindows) {
                start = t0;
            }
            if (rank == 0) {
                for (int i = 0; i < window; i++) {
                    requests[i] = comm.iSend(bufs[i], size, MPI.BYTE, 1, 1);
                }
                Request.waitAll(requests);
                comm.recv(ack, 4, MPI.BYTE, 1, 2);
            } else if (rank == 1) {
                for (int i = 0; i < window; i++) {
                    requests[i] = comm.iRecv(bufs[i], size, MPI.BYTE, 0, 1);
                }
                Request.waitAll(requests);
                comm.send(ack, 4, MPI.BYTE, 0, 2);
            }
            times[w] = System.nanoTime() - t0;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (rank == 0) {
            double messages = (double) windows * window;
            System.out.printf("size %d B, window %d, %d windows: %.0f messages/s, %.2f MB/s%n",
                    size, window, windows, messages / seconds, messages * size / seconds / 1e6);
            if (trace) {
                StringBuilder first = new StringBuilder("first windows (us):");
                for (int i = 0; i < Math.min(10, times.length); i++) {
                    first.append(String.format(" %.1f", times[i] / 1e3));
                }
                System.out.println(first);
                int from = 0;
                for (int length = 10; from < times.length; length *= 2) {
                    int to = Math.min(times.length, from + length);
                    long sum = 0;
                    long max = 0;
                    for (int i = from; i < to; i++) {
                        sum += times[i];
                        max = Math.max(max, times[i]);
                    }
                    System.out.printf("trace %d %d %.1f us per window, max %.1f%n", from, to,
                            sum / 1e3 / (to - from), max / 1e3);
                    from = to;
                }
            }
        }
        MPI.Finalize();
    }
}
