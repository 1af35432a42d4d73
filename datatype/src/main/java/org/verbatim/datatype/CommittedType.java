package org.verbatim.datatype;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A committed type: the compact form the data path uses. One element is a {@link RunList}
 * (blocks in pack order, adjacent blocks merged, equally spaced equal blocks as one run) with its
 * bounds; {@code count} elements lie an extent apart. Recognises the shapes the kernels
 * specialise: {@link #isContiguous() contiguous} (count elements are one block) and
 * {@link #isRegular() regular} (one run per element, vector-like).
 *
 * <p>Made from a type tree ({@link #of(TypeNode)}) or from a peer's {@link FlatLayout} (then
 * without a tree: no contents, no element counts). Immutable and safe to share between threads;
 * each has a process-unique {@link #id()} for a peer's layout cache.
 */
public final class CommittedType {
    private static final AtomicLong IDS = new AtomicLong();
    /** Most blocks expanded for the overlap check and for statistics by sorting. */
    static final long EXPAND_LIMIT = 1 << 20;

    private final TypeNode tree;
    final RunList runs;
    final long size;
    final long lb;
    final long extent;
    final long trueLb;
    final long trueUb;
    private final long id = IDS.incrementAndGet();
    private final boolean overlapping;

    private CommittedType(TypeNode tree, RunList runs, long size, long lb, long extent,
                          long trueLb, long trueUb) {
        this.tree = tree;
        this.runs = runs;
        this.size = size;
        this.lb = lb;
        this.extent = extent;
        this.trueLb = trueLb;
        this.trueUb = trueUb;
        this.overlapping = overlaps(runs, 1, 0);
    }

    /** Commits a type tree (MPI_Type_commit). */
    public static CommittedType of(TypeNode tree) {
        if (tree == null) {
            throw new DatatypeException(DatatypeException.Reason.TYPE, "type is null");
        }
        return new CommittedType(tree, tree.runs(), tree.size, tree.lb, tree.extent(),
                tree.trueLb, tree.trueUb);
    }

    static CommittedType ofRuns(RunList runs, long size, long lb, long extent, long trueLb,
                                long trueUb) {
        if (runs.bytes() != size) {
            throw DatatypeException.argument("flattened layout: runs hold " + runs.bytes()
                    + " bytes, size says " + size);
        }
        return new CommittedType(null, runs, size, lb, extent, trueLb, trueUb);
    }

    /** The type tree, or null for a type rebuilt from a peer's flattened form. */
    public TypeNode tree() {
        return tree;
    }

    public long id() {
        return id;
    }

    public long size() {
        return size;
    }

    public long lb() {
        return lb;
    }

    public long extent() {
        return extent;
    }

    public long trueLb() {
        return trueLb;
    }

    public long trueExtent() {
        return trueUb - trueLb;
    }

    /** Runs of one element. */
    public int runCount() {
        return runs.count();
    }

    /** Blocks of one element. */
    public long blockCount() {
        return runs.blocks();
    }

    /** True when any number of elements is one block of {@code count * size} bytes at {@link #trueLb()}. */
    public boolean isContiguous() {
        return size == 0 || (runs.count() == 1 && runs.repeat(0) == 1 && extent == size);
    }

    /** True when one element is one run (a vector of equal blocks, or one block). */
    public boolean isRegular() {
        return runs.count() == 1;
    }

    /** True when two bytes of one element lie at the same place (refused as a receive type). */
    public boolean isOverlapping() {
        return overlapping;
    }

    /**
     * True when {@code count} elements touch some byte twice: a receive into them is
     * erroneous. Exact up to {@link #EXPAND_LIMIT} blocks; beyond that only the element itself
     * and the extent are checked.
     */
    public boolean overlaps(long count) {
        if (overlapping) {
            return true;
        }
        if (count <= 1 || size == 0 || extent >= trueUb - trueLb) {
            return false;
        }
        return overlaps(runs, count, extent);
    }

    /** The view of {@code count} elements, for cursors, bounds checks and statistics. */
    public MessageShape shape(long count) {
        Types.requireCount("count", count);
        return new MessageShape(this, count);
    }

    /** A cursor over the packed bytes of {@code count} elements, at byte 0. */
    public TypeCursor cursor(long count) {
        return new TypeCursor(shape(count));
    }

    /** Packs {@code count} elements from {@code base} (origin at its byte 0) into {@code out} at {@code at}. */
    public void pack(MemorySegment base, long count, MemorySegment out, long at) {
        MessageShape s = shape(count);
        new TypeCursor(s).pack(base, out, at, s.bytes());
    }

    /** Unpacks {@code count} elements from {@code in} at {@code at} into {@code base}. */
    public void unpack(MemorySegment in, long at, MemorySegment base, long count) {
        MessageShape s = shape(count);
        new TypeCursor(s).unpack(in, at, base, s.bytes());
    }

    /**
     * This layout with its origin moved to its true lower bound when that is negative (every
     * byte it touches then lies at or after the origin), else this type. A one-sided target
     * layout is applied this way to a slice of window memory that starts at its lowest byte;
     * the caller adds {@link #trueLb()} of the original to the displacement.
     */
    public CommittedType rebased() {
        if (trueLb >= 0) {
            return this;
        }
        RunBuilder b = new RunBuilder();
        for (int r = 0; r < runs.count(); r++) {
            b.add(runs.offset(r) - trueLb, runs.length(r), runs.stride(r), runs.repeat(r));
        }
        return new CommittedType(null, b.build(), size, lb - trueLb, extent, 0, trueUb - trueLb);
    }

    /** The flattened form of this type, to send to a peer: made once, then kept. */
    public FlatLayout flatten() {
        FlatLayout f = flat;
        if (f == null) {
            f = flat = new FlatLayout(runs, size, lb, extent, trueLb, trueUb);
        }
        return f;
    }

    /** Cached {@link #flatten()} (immutable, final fields: a benign race makes an equal one). */
    private FlatLayout flat;

    private static boolean overlaps(RunList runs, long count, long extent) {
        long n = runs.blocks() * count;
        if (n <= 1 || n > EXPAND_LIMIT) {
            return false;
        }
        long[] starts = new long[(int) n];
        long[] ends = new long[(int) n];
        int k = 0;
        for (long e = 0; e < count; e++) {
            for (int r = 0; r < runs.count(); r++) {
                for (long i = 0; i < runs.repeat(r); i++) {
                    starts[k] = e * extent + runs.offset(r) + i * runs.stride(r);
                    ends[k] = starts[k] + runs.length(r);
                    k++;
                }
            }
        }
        // Disjoint intervals sorted by start are sorted by end too, so the independently sorted
        // starts and ends interleave exactly when no two intervals share a byte.
        Arrays.sort(starts, 0, k);
        Arrays.sort(ends, 0, k);
        for (int i = 1; i < k; i++) {
            if (starts[i] < ends[i - 1]) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "CommittedType[size=" + size + ", lb=" + lb + ", extent=" + extent + ", runs="
                + runs.count() + (isContiguous() ? ", contiguous" : isRegular() ? ", regular" : "")
                + "]";
    }
}
