package org.verbatim.transport.tcp;

import java.io.PrintStream;

/**
 * A per-interval timeline of one rank's socket traffic ({@code verbatim.tcp.trace-ms}), to see
 * what a slow phase does differently from a fast one: progress passes, read and write system
 * calls and the bytes they moved, calls that moved nothing, sends refused with RETRY, selector
 * calls and the time spent sleeping in the selector. The counters are plain fields the hot paths
 * bump (no call, no allocation); with tracing off nothing reads them and nothing is printed.
 * Each line on standard error gives the differences since the previous line.
 */
final class TcpTrace {
    private static final int CHECK_PASSES = 1024;

    private final int rank;
    private final long intervalNanos;
    private final PrintStream out;
    private int passesToCheck = CHECK_PASSES;
    private long last;
    private final long start;

    long passes;
    long writes;
    long writeBytes;
    long writesEmpty;
    long writesPartial;
    long retries;
    long reads;
    long readBytes;
    long readsEmpty;
    long selects;
    long sleeps;
    long sleepNanos;
    long framesIn;

    private final long[] previous = new long[13];

    TcpTrace(int rank, long intervalMillis, PrintStream out) {
        this.rank = rank;
        this.intervalNanos = intervalMillis * 1_000_000L;
        this.out = out;
        this.start = System.nanoTime();
        this.last = start;
    }

    /** Called once per progress pass while tracing: prints a line when an interval has passed. */
    void pass() {
        passes++;
        if (--passesToCheck > 0) {
            return;
        }
        passesToCheck = CHECK_PASSES;
        long now = System.nanoTime();
        if (now - last >= intervalNanos) {
            print(now);
        }
    }

    private void print(long now) {
        long[] c = {passes, writes, writeBytes, writesEmpty, writesPartial, retries, reads,
                readBytes, readsEmpty, selects, sleeps, sleepNanos, framesIn};
        long[] d = new long[c.length];
        for (int i = 0; i < c.length; i++) {
            d[i] = c[i] - previous[i];
            previous[i] = c[i];
        }
        double us = (now - last) / 1e3;
        long writesFull = d[1] - d[3];
        long readsFull = d[6] - d[8];
        out.printf("tcp-trace rank %d mono=%.6f t=%.1fms dt=%.1fms passes=%d | wr %d (empty %d, partial %d)"
                        + " %.0fKB %.0fB/call MB/s=%.0f retry=%d | rd %d (empty %d) %.0fKB %.0fB/call"
                        + " frames=%d | select %d sleep %d %.1fms%n",
                rank, now / 1e9, (now - start) / 1e6, us / 1e3, d[0], d[1], d[3], d[4], d[2] / 1e3,
                writesFull > 0 ? (double) d[2] / writesFull : 0.0, d[2] / us, d[5], d[6], d[8],
                d[7] / 1e3, readsFull > 0 ? (double) d[7] / readsFull : 0.0, d[12], d[9], d[10],
                d[11] / 1e6);
        last = now;
    }

    /** Prints what is left since the last line (at close). */
    void flush() {
        print(System.nanoTime());
    }
}
