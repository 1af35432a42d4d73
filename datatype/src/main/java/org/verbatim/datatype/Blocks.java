package org.verbatim.datatype;

/**
 * Arithmetic shared by the tree shapes: bounds, sizes and pack order of a block of consecutive
 * children, repeated at a stride.
 */
final class Blocks {
    /** Most runs a committed type may hold (a type tree that expands further is refused). */
    static final int MAX_RUNS = 1 << 24;

    private Blocks() {
    }

    /** Lowest of {@code lo} over children {@code i * stride + j * extent}, i < count, j < length. */
    static long lower(long count, long length, long stride, long extent, long lo, long hi) {
        if (count == 0 || length == 0) {
            return 0;
        }
        return Math.min(0, (count - 1) * stride) + Math.min(0, (length - 1) * extent) + lo;
    }

    static long upper(long count, long length, long stride, long extent, long lo, long hi) {
        if (count == 0 || length == 0) {
            return 0;
        }
        return Math.max(0, (count - 1) * stride) + Math.max(0, (length - 1) * extent) + hi;
    }

    static long size(long[] lengths, TypeNode[] children) {
        long s = 0;
        for (int i = 0; i < children.length; i++) {
            s = Math.addExact(s, Math.multiplyExact(lengths[i], children[i].size));
        }
        return s;
    }

    static long leaves(long[] lengths, TypeNode[] children) {
        long s = 0;
        for (int i = 0; i < children.length; i++) {
            s += lengths[i] * children[i].leaves;
        }
        return s;
    }

    /** Lower bound over the entries (true: of the data only, skipping entries without data). */
    static long lower(long[] lengths, long[] displs, TypeNode[] children, boolean trueBound) {
        long lo = Long.MAX_VALUE;
        for (int i = 0; i < children.length; i++) {
            TypeNode c = children[i];
            if (lengths[i] == 0 || (trueBound && c.size == 0)) {
                continue;
            }
            lo = Math.min(lo, displs[i] + lower(1, lengths[i], 0, c.extent(),
                    trueBound ? c.trueLb : c.lb, trueBound ? c.trueUb : c.ub));
        }
        return lo == Long.MAX_VALUE ? 0 : lo;
    }

    static long upper(long[] lengths, long[] displs, TypeNode[] children, boolean trueBound) {
        long hi = Long.MIN_VALUE;
        for (int i = 0; i < children.length; i++) {
            TypeNode c = children[i];
            if (lengths[i] == 0 || (trueBound && c.size == 0)) {
                continue;
            }
            hi = Math.max(hi, displs[i] + upper(1, lengths[i], 0, c.extent(),
                    trueBound ? c.trueLb : c.lb, trueBound ? c.trueUb : c.ub));
        }
        return hi == Long.MIN_VALUE ? 0 : hi;
    }

    static TypeNode.Leaf homogeneous(long[] lengths, TypeNode[] children) {
        TypeNode.Leaf leaf = null;
        for (int i = 0; i < children.length; i++) {
            if (lengths[i] == 0 || children[i].leaves == 0) {
                continue;
            }
            TypeNode.Leaf l = children[i].homogeneousLeaf();
            if (l == null || (leaf != null && leaf != l)) {
                return null;
            }
            leaf = l;
        }
        return leaf;
    }

    /**
     * Emits {@code count} blocks {@code stride} apart, each {@code length} consecutive
     * {@code child}ren, using the child's merged runs: one run for all of them when the child is
     * dense, one run per block when the child is a run that repeats across its extent.
     */
    static void emitBlock(RunBuilder sink, long origin, long count, long stride, long length,
                          TypeNode child) {
        if (count == 0 || length == 0 || child.size == 0) {
            return;
        }
        RunList cr = child.runs();
        long extent = child.extent();
        if (child.denseElement()) {
            sink.add(origin + cr.offset(0), length * child.size, stride, count);
            return;
        }
        if (cr.count() == 1 && extent == cr.repeat(0) * cr.stride(0)) {
            long off = cr.offset(0);
            long n = cr.repeat(0) * length;
            for (long i = 0; i < count; i++) {
                sink.add(origin + i * stride + off, cr.length(0), cr.stride(0), n);
            }
            return;
        }
        for (long i = 0; i < count; i++) {
            for (long j = 0; j < length; j++) {
                long at = origin + i * stride + j * extent;
                for (int r = 0; r < cr.count(); r++) {
                    sink.add(at + cr.offset(r), cr.length(r), cr.stride(r), cr.repeat(r));
                }
            }
        }
    }

    static long leavesIn(long n, TypeNode child, long bytes) {
        if (child.size == 0 || bytes <= 0) {
            return 0;
        }
        long full = Math.min(n, bytes / child.size);
        long leaves = full * child.leaves;
        if (full < n) {
            leaves += child.leavesIn(bytes - full * child.size);
        }
        return leaves;
    }

    static long bytesOfLeaves(long n, TypeNode child, long leaves) {
        if (child.leaves == 0 || leaves <= 0) {
            return 0;
        }
        long full = Math.min(n, leaves / child.leaves);
        long bytes = full * child.size;
        long rest = leaves - full * child.leaves;
        if (rest > 0 && full < n) {
            bytes += child.bytesOfLeaves(rest);
        }
        return bytes;
    }
}
