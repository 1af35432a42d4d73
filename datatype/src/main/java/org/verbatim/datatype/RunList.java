package org.verbatim.datatype;

import java.util.Arrays;

/**
 * Blocks in pack order, compressed into runs: run {@code r} is {@code repeat(r)} blocks of
 * {@code length(r)} bytes, the first at {@code offset(r)} and each next one {@code stride(r)}
 * bytes further (a regular, vector-like shape; a single block has repeat 1). Adjacent blocks are
 * merged and equally spaced equal blocks become one run when the list is built
 * ({@link RunBuilder}). Immutable.
 */
final class RunList {
    final long[] offsets;
    final long[] lengths;
    final long[] strides;
    final long[] repeats;
    /** prefix[r] = packed bytes of runs 0..r-1; prefix[count] = the total. */
    final long[] prefix;
    /** blockPrefix[r] = blocks in runs 0..r-1; blockPrefix[count] = all of them. */
    final long[] blockPrefix;

    RunList(long[] offsets, long[] lengths, long[] strides, long[] repeats) {
        this.offsets = offsets;
        this.lengths = lengths;
        this.strides = strides;
        this.repeats = repeats;
        this.prefix = new long[offsets.length + 1];
        this.blockPrefix = new long[offsets.length + 1];
        for (int r = 0; r < offsets.length; r++) {
            prefix[r + 1] = prefix[r] + lengths[r] * repeats[r];
            blockPrefix[r + 1] = blockPrefix[r] + repeats[r];
        }
    }

    int count() {
        return offsets.length;
    }

    long offset(int r) {
        return offsets[r];
    }

    long length(int r) {
        return lengths[r];
    }

    long stride(int r) {
        return strides[r];
    }

    long repeat(int r) {
        return repeats[r];
    }

    long bytes() {
        return prefix[offsets.length];
    }

    /** Blocks in all runs. */
    long blocks() {
        return blockPrefix[offsets.length];
    }

    /**
     * Median block length over all blocks (each run counts its repeats): computed once, then
     * kept, so a scheme can ask per message without allocating. {@code count} repeated copies
     * of the list have the same median.
     */
    double medianBlock() {
        double m = median;
        if (m < 0) {
            m = median = computeMedian();
        }
        return m;
    }

    private double computeMedian() {
        int n = offsets.length;
        long all = blocks();
        if (all == 0) {
            return 0;
        }
        if (n == 1) {
            return lengths[0];
        }
        long[][] byLength = new long[n][];
        for (int r = 0; r < n; r++) {
            byLength[r] = new long[] {lengths[r], repeats[r]};
        }
        Arrays.sort(byLength, (a, b) -> Long.compare(a[0], b[0]));
        long lowerIndex = (all - 1) / 2;
        long upperIndex = all / 2;
        long seen = 0;
        long lower = -1;
        long upper = 0;
        for (long[] e : byLength) {
            long next = seen + e[1];
            if (lower < 0 && lowerIndex < next) {
                lower = e[0];
            }
            if (upperIndex < next) {
                upper = e[0];
                break;
            }
            seen = next;
        }
        return (lower + upper) / 2.0;
    }

    /** Cached {@link #medianBlock()}; negative until computed (a benign race: same value). */
    private volatile double median = -1;

    /** The run holding block {@code k} ({@code 0 <= k < blocks()}). */
    int runOfBlock(long k) {
        if (offsets.length == 1) {
            return 0; // a vector's single run: no search
        }
        int i = Arrays.binarySearch(blockPrefix, k);
        return i >= 0 ? i : -i - 2;
    }

    /** The run holding packed byte {@code position} ({@code 0 <= position < bytes()}). */
    int runAt(long position) {
        int i = Arrays.binarySearch(prefix, position);
        if (i >= 0) {
            // position starts run i; skip runs of zero bytes (none are kept, but be exact)
            while (i < offsets.length && prefix[i + 1] == position) {
                i++;
            }
            return i;
        }
        return -i - 2;
    }
}
