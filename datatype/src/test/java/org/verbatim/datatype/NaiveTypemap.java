package org.verbatim.datatype;

import java.util.ArrayList;
import java.util.List;

/**
 * The reference the engine is tested against: a type's typemap expanded leaf by leaf, straight
 * from the tree's definition (no runs, no merging), and pack/unpack one leaf at a time.
 */
final class NaiveTypemap {
    /** Leaf i lies at offsets[i] and has sizes[i] bytes, in pack order. */
    final long[] offsets;
    final long[] sizes;

    private NaiveTypemap(List<long[]> leaves) {
        offsets = new long[leaves.size()];
        sizes = new long[leaves.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = leaves.get(i)[0];
            sizes[i] = leaves.get(i)[1];
        }
    }

    /** {@code count} elements of {@code t}, an extent apart. */
    static NaiveTypemap of(TypeNode t, long count) {
        List<long[]> out = new ArrayList<>();
        for (long e = 0; e < count; e++) {
            expand(t, e * t.extent(), out);
        }
        return new NaiveTypemap(out);
    }

    private static void expand(TypeNode t, long at, List<long[]> out) {
        switch (t) {
            case TypeNode.Leaf l -> {
                if (l.size > 0) {
                    out.add(new long[] {at, l.size});
                }
            }
            case TypeNode.Regular r -> {
                for (long i = 0; i < r.count; i++) {
                    for (long j = 0; j < r.blockLength; j++) {
                        expand(r.child, at + i * r.stride + j * r.child.extent(), out);
                    }
                }
            }
            case TypeNode.Entries e -> {
                for (int k = 0; k < e.children.length; k++) {
                    for (long j = 0; j < e.blockLengths[k]; j++) {
                        expand(e.children[k], at + e.displacements[k] + j * e.children[k].extent(), out);
                    }
                }
            }
            case TypeNode.Resized r -> expand(r.child, at, out);
        }
    }

    long bytes() {
        long s = 0;
        for (long z : sizes) {
            s += z;
        }
        return s;
    }

    byte[] pack(byte[] base) {
        byte[] out = new byte[(int) bytes()];
        int p = 0;
        for (int i = 0; i < offsets.length; i++) {
            for (int b = 0; b < sizes[i]; b++) {
                out[p++] = base[(int) offsets[i] + b];
            }
        }
        return out;
    }

    void unpack(byte[] packed, byte[] base) {
        int p = 0;
        for (int i = 0; i < offsets.length; i++) {
            for (int b = 0; b < sizes[i]; b++) {
                base[(int) offsets[i] + b] = packed[p++];
            }
        }
    }

    /** Unpacks only packed bytes {@code [from, to)} (taken from {@code packed} at the same positions). */
    void unpackRange(byte[] packed, int from, int to, byte[] base) {
        int p = 0;
        for (int i = 0; i < offsets.length; i++) {
            for (int b = 0; b < sizes[i]; b++, p++) {
                if (p >= from && p < to) {
                    base[(int) offsets[i] + b] = packed[p];
                }
            }
        }
    }

    long lowest() {
        long lo = Long.MAX_VALUE;
        for (long o : offsets) {
            lo = Math.min(lo, o);
        }
        return offsets.length == 0 ? 0 : lo;
    }

    long highest() {
        long hi = Long.MIN_VALUE;
        for (int i = 0; i < offsets.length; i++) {
            hi = Math.max(hi, offsets[i] + sizes[i]);
        }
        return offsets.length == 0 ? 0 : hi;
    }

    /** Leaves wholly inside the first {@code bytes} packed bytes. */
    long leavesIn(long bytes) {
        long n = 0;
        long end = 0;
        for (long z : sizes) {
            end += z;
            if (end > bytes) {
                break;
            }
            n++;
        }
        return n;
    }
}
