package org.verbatim.benchmarks.plain;

import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * {@link PlainWindow}'s loop (8 B, windows of 64, iSend / iRecv / waitAll, then a 4-byte ack)
 * with a clock around each phase, so that a run says which rank sets the window rate: the
 * posting loop (per message), the {@code waitAll} and the ack, averaged per window over the
 * timed windows, printed by each rank.
 *
 * <p>Usage: {@code PhasedWindow [windows=60000] [warmupWindows=4000] [interval=0]} (2 ranks).
 * With an interval of N windows, each rank also prints its per-message posting time and the
 * rate of every N timed windows (kept in an array and printed at the end), so that a long run
 * shows whether its level changes within the run.
 */
public final class PhasedWindow {
    private static final int WINDOW = 64;
    private static final int SIZE = 8;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int windows = args.length > 0 ? Integer.parseInt(args[0]) : 60000;
        int warmupWindows = args.length > 1 ? Integer.parseInt(args[1]) : 4000;
        int interval = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        long[] intervalPost = new long[interval > 0 ? windows / interval + 1 : 0];
        long[] intervalEnd = new long[intervalPost.length];
        Comm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        if (comm.getSize() != 2) {
            if (rank == 0) {
                System.err.println("PhasedWindow: run it on 2 ranks, not " + comm.getSize());
            }
            MPI.Finalize();
            return;
        }
        ByteBuffer[] bufs = new ByteBuffer[WINDOW];
        for (int i = 0; i < WINDOW; i++) {
            bufs[i] = MPI.newByteBuffer(SIZE);
        }
        ByteBuffer ack = MPI.newByteBuffer(4);
        Request[] requests = new Request[WINDOW];
        long post = 0;
        long wait = 0;
        long answer = 0;
        long start = 0;
        for (int w = 0; w < warmupWindows + windows; w++) {
            if (w == warmupWindows) {
                post = 0;
                wait = 0;
                answer = 0;
                start = System.nanoTime();
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < WINDOW; i++) {
                requests[i] = rank == 0 ? comm.iSend(bufs[i], SIZE, MPI.BYTE, 1, 1)
                        : comm.iRecv(bufs[i], SIZE, MPI.BYTE, 0, 1);
            }
            long t1 = System.nanoTime();
            Request.waitAll(requests);
            long t2 = System.nanoTime();
            if (rank == 0) {
                comm.recv(ack, 4, MPI.BYTE, 1, 2);
            } else {
                comm.send(ack, 4, MPI.BYTE, 0, 2);
            }
            long t3 = System.nanoTime();
            post += t1 - t0;
            wait += t2 - t1;
            answer += t3 - t2;
            if (interval > 0 && w >= warmupWindows) {
                int k = (w - warmupWindows) / interval;
                intervalPost[k] += t1 - t0;
                intervalEnd[k] = t3;
            }
        }
        double total = System.nanoTime() - start;
        System.out.printf("rank %d (%s): %.2fM messages/s; per window %.0f ns: posts %.0f"
                        + " (%.1f per message), waitAll %.0f, ack %.0f%n", rank,
                rank == 0 ? "sender" : "receiver", windows * (double) WINDOW / total * 1e3,
                total / windows, post / (double) windows, post / (double) windows / WINDOW,
                wait / (double) windows, answer / (double) windows);
        long from = start;
        // the JVM's uptime at nanoTime 0, so that intervals line up with -XX:+PrintCompilation's stamps
        double uptimeAtZero = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime()
                - System.nanoTime() / 1e6;
        for (int k = 0; k < intervalPost.length && intervalEnd[k] != 0; k++) {
            int n = Math.min(interval, windows - k * interval);
            System.out.printf("rank %d interval %d: %.1f ns per post, %.2fM messages/s, ends at %.0f ms%n",
                    rank, k, intervalPost[k] / (double) n / WINDOW,
                    n * (double) WINDOW / (intervalEnd[k] - from) * 1e3,
                    uptimeAtZero + intervalEnd[k] / 1e6);
            from = intervalEnd[k];
        }
        MPI.Finalize();
    }
}
