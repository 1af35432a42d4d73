package org.verbatim.runtime.base;

import java.util.concurrent.atomic.LongAdder;

/**
 * The memory-scalability paper's counters: messages and volume by size class, unexpected
 * messages, communication memory. When disabled every hook is a single predictable branch.
 */
public final class Profiler {
    /** Size classes: 0 B, then powers of two up to 4 MiB and above. */
    public static final int CLASSES = 24;

    private final boolean enabled;
    private final LongAdder[] counts = new LongAdder[CLASSES];
    private final LongAdder[] volume = new LongAdder[CLASSES];
    private final LongAdder unexpected = new LongAdder();

    public Profiler(boolean enabled) {
        this.enabled = enabled;
        for (int i = 0; i < CLASSES; i++) {
            counts[i] = new LongAdder();
            volume[i] = new LongAdder();
        }
    }

    public boolean enabled() {
        return enabled;
    }

    public void messageSent(long bytes) {
        if (enabled) {
            int c = bytes == 0 ? 0 : Math.min(CLASSES - 1, 64 - Long.numberOfLeadingZeros(bytes));
            counts[c].increment();
            volume[c].add(bytes);
        }
    }

    public void unexpected() {
        if (enabled) {
            unexpected.increment();
        }
    }

    public long totalMessages() {
        long t = 0;
        for (LongAdder a : counts) {
            t += a.sum();
        }
        return t;
    }

    public long unexpectedMessages() {
        return unexpected.sum();
    }

    /** Message count and volume per size class, as text lines. */
    public String histogram() {
        long[] n = new long[CLASSES];
        long[] v = new long[CLASSES];
        for (int i = 0; i < CLASSES; i++) {
            n[i] = counts[i].sum();
            v[i] = volume[i].sum();
        }
        return histogram(n, v);
    }

    /** Messages of size class {@code i} (0 B, then up to 2^i B). */
    public long count(int sizeClass) {
        return counts[sizeClass].sum();
    }

    public long volume(int sizeClass) {
        return volume[sizeClass].sum();
    }

    /** The histogram lines for counts and volumes per size class. */
    public static String histogram(long[] counts, long[] volumes) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < CLASSES; i++) {
            if (counts[i] > 0) {
                String label = i == 0 ? "0 B" : "<= " + (1L << (i)) + " B";
                sb.append(String.format("  %-14s %10d msgs %14d bytes%n", label, counts[i], volumes[i]));
            }
        }
        return sb.toString();
    }
}
