package org.verbatim.datatype;

import java.util.Arrays;

/**
 * Collects blocks in pack order and compresses them as they come: a block that starts where the
 * previous single block ends extends it; equal blocks at an equal spacing extend a run. The
 * result is a {@link RunList}.
 */
final class RunBuilder {
    private long[] offsets = new long[8];
    private long[] lengths = new long[8];
    private long[] strides = new long[8];
    private long[] repeats = new long[8];
    private int n;
    // the open run
    private boolean open;
    private long off;
    private long len;
    private long stride;
    private long repeat;

    /** Adds {@code count} blocks of {@code length} bytes, {@code step} apart, from {@code at}. */
    void add(long at, long length, long step, long count) {
        if (length == 0 || count == 0) {
            return;
        }
        if (count > 1 && step == length) { // adjacent blocks: one block
            length = length * count;
            count = 1;
        }
        if (count == 1) {
            step = length;
        }
        if (open) {
            if (repeat == 1 && count == 1 && at == off + len) {
                len += length;
                stride = len;
                return;
            }
            if (length == len) {
                long next = off + repeat * stride;
                if (repeat == 1 && (count == 1 || step == at - off)) {
                    stride = at - off;
                    if (stride != len) {
                        repeat += count;
                        return;
                    }
                } else if (repeat > 1 && at == next && (count == 1 || step == stride)) {
                    repeat += count;
                    return;
                }
            }
            flush();
        }
        open = true;
        off = at;
        len = length;
        stride = step;
        repeat = count;
    }

    private void flush() {
        if (n == offsets.length) {
            if (n >= Blocks.MAX_RUNS) {
                throw new DatatypeException(DatatypeException.Reason.TYPE, "type too irregular: more"
                        + " than " + Blocks.MAX_RUNS + " runs of blocks once committed");
            }
            int m = n * 2;
            offsets = Arrays.copyOf(offsets, m);
            lengths = Arrays.copyOf(lengths, m);
            strides = Arrays.copyOf(strides, m);
            repeats = Arrays.copyOf(repeats, m);
        }
        offsets[n] = off;
        lengths[n] = len;
        strides[n] = repeat == 1 ? len : stride;
        repeats[n] = repeat;
        n++;
        open = false;
    }

    RunList build() {
        if (open) {
            flush();
        }
        return new RunList(Arrays.copyOf(offsets, n), Arrays.copyOf(lengths, n),
                Arrays.copyOf(strides, n), Arrays.copyOf(repeats, n));
    }
}
