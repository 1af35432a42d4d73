package org.verbatim.datatype;

import java.util.List;

/**
 * The type constructors of MPI, checked: each refuses bad arguments with a
 * {@link DatatypeException} naming what is wrong, and records its arguments as the new node's
 * {@link Contents}. Element counts and lengths are in children; displacements and strides of the
 * non-H variants are in child extents, of the H variants and struct in bytes.
 */
public final class Types {
    /** MPI_ORDER_C and MPI_ORDER_FORTRAN. */
    public static final int ORDER_C = 0;
    public static final int ORDER_FORTRAN = 1;
    /** MPI_DISTRIBUTE_* and MPI_DISTRIBUTE_DFLT_DARG. */
    public static final int DISTRIBUTE_BLOCK = 0;
    public static final int DISTRIBUTE_CYCLIC = 1;
    public static final int DISTRIBUTE_NONE = 2;
    public static final int DISTRIBUTE_DFLT_DARG = -1;

    private Types() {
    }

    /** A predefined type of {@code size} data bytes in {@code extent} bytes. */
    public static TypeNode.Leaf predefined(String name, int size, int extent) {
        if (size < 0 || extent < size) {
            throw DatatypeException.argument("predefined " + name + ": size " + size
                    + ", extent " + extent);
        }
        return new TypeNode.Leaf(name, size, extent);
    }

    public static TypeNode contiguous(int count, TypeNode old) {
        requireCount("count", count);
        requireType(old);
        return new TypeNode.Regular(count, 1, old.extent(), old,
                contents(Combiner.CONTIGUOUS, new int[] {count}, new long[0], old));
    }

    /** {@code stride} in extents of {@code old}. */
    public static TypeNode vector(int count, int blockLength, int stride, TypeNode old) {
        checkVector(count, blockLength, old);
        return new TypeNode.Regular(count, blockLength, stride * old.extent(), old,
                contents(Combiner.VECTOR, new int[] {count, blockLength, stride}, new long[0], old));
    }

    /** {@code stride} in bytes. */
    public static TypeNode hvector(int count, int blockLength, long stride, TypeNode old) {
        checkVector(count, blockLength, old);
        return new TypeNode.Regular(count, blockLength, stride, old,
                contents(Combiner.HVECTOR, new int[] {count, blockLength}, new long[] {stride}, old));
    }

    /** Displacements in extents of {@code old}. */
    public static TypeNode indexed(int[] blockLengths, int[] displacements, TypeNode old) {
        requireArray(displacements);
        checkLists(blockLengths, displacements.length, old);
        long[] d = new long[displacements.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = displacements[i] * old.extent();
        }
        int[] ints = concat(blockLengths.length, blockLengths, displacements);
        return entries(longs(blockLengths), d, old, contents(Combiner.INDEXED, ints, new long[0], old));
    }

    /** Displacements in bytes. */
    public static TypeNode hindexed(int[] blockLengths, long[] displacements, TypeNode old) {
        requireArray(displacements);
        checkLists(blockLengths, displacements.length, old);
        int[] ints = concat(blockLengths.length, blockLengths, new int[0]);
        return entries(longs(blockLengths), displacements.clone(), old,
                contents(Combiner.HINDEXED, ints, displacements, old));
    }

    /** Equal blocks; displacements in extents of {@code old}. */
    public static TypeNode indexedBlock(int blockLength, int[] displacements, TypeNode old) {
        requireArray(displacements);
        requireCount("block length", blockLength);
        requireType(old);
        long[] d = new long[displacements.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = displacements[i] * old.extent();
        }
        int[] ints = concat(displacements.length, new int[] {blockLength}, displacements);
        return entries(filled(d.length, blockLength), d, old,
                contents(Combiner.INDEXED_BLOCK, ints, new long[0], old));
    }

    /** Equal blocks; displacements in bytes. */
    public static TypeNode hindexedBlock(int blockLength, long[] displacements, TypeNode old) {
        requireArray(displacements);
        requireCount("block length", blockLength);
        requireType(old);
        return entries(filled(displacements.length, blockLength), displacements.clone(), old,
                contents(Combiner.HINDEXED_BLOCK, new int[] {displacements.length, blockLength},
                        displacements, old));
    }

    /** Displacements in bytes. */
    public static TypeNode struct(int[] blockLengths, long[] displacements, TypeNode[] types) {
        if (blockLengths == null || displacements == null || types == null) {
            throw DatatypeException.argument("struct: null block lengths, displacements or types");
        }
        if (blockLengths.length != displacements.length || types.length != blockLengths.length) {
            throw DatatypeException.argument("struct: " + blockLengths.length + " block lengths, "
                    + displacements.length + " displacements, " + types.length + " types");
        }
        for (int i = 0; i < types.length; i++) {
            requireCount("block length [" + i + "]", blockLengths[i]);
            requireType(types[i]);
        }
        int[] ints = concat(blockLengths.length, blockLengths, new int[0]);
        return new TypeNode.Entries(longs(blockLengths), displacements.clone(), types.clone(),
                new Contents(Combiner.STRUCT, ints, displacements, List.of(types)));
    }

    /** Lower bound and extent in bytes. */
    public static TypeNode resized(TypeNode old, long lb, long extent) {
        requireType(old);
        if (extent < 0) {
            throw DatatypeException.argument("resized: negative extent " + extent);
        }
        return new TypeNode.Resized(old, lb, extent,
                contents(Combiner.RESIZED, new int[0], new long[] {lb, extent}, old));
    }

    /** A new node with the same layout (MPI_Type_dup). */
    public static TypeNode dup(TypeNode old) {
        requireType(old);
        return new TypeNode.Resized(old, old.lb, old.extent(),
                contents(Combiner.DUP, new int[0], new long[0], old));
    }

    /**
     * A {@code subsizes} block at {@code starts} of an array of {@code sizes} (MPI_Type_create_subarray);
     * the extent is the whole array's.
     */
    public static TypeNode subarray(int[] sizes, int[] subsizes, int[] starts, int order,
                                    TypeNode old) {
        requireType(old);
        int n = checkArrays(sizes, subsizes, starts);
        for (int i = 0; i < n; i++) {
            if (sizes[i] <= 0 || subsizes[i] < 0 || starts[i] < 0
                    || (long) starts[i] + subsizes[i] > sizes[i]) {
                throw DatatypeException.argument("subarray: dimension " + i + " has size "
                        + sizes[i] + ", subsize " + subsizes[i] + ", start " + starts[i]);
            }
        }
        checkOrder(order);
        long[][] segments = new long[n][];
        for (int i = 0; i < n; i++) {
            segments[i] = new long[] {starts[i], subsizes[i]};
        }
        TypeNode t = grid(sizes, segments, order, old);
        int[] ints = new int[3 * n + 2];
        ints[0] = n;
        System.arraycopy(sizes, 0, ints, 1, n);
        System.arraycopy(subsizes, 0, ints, 1 + n, n);
        System.arraycopy(starts, 0, ints, 1 + 2 * n, n);
        ints[3 * n + 1] = order;
        return new TypeNode.Resized(t, 0, t.extent(),
                contents(Combiner.SUBARRAY, ints, new long[0], old));
    }

    /**
     * The part of a distributed array of {@code gsizes} that process {@code rank} of {@code size}
     * holds on a {@code psizes} grid (MPI_Type_create_darray; the grid is row-major in both
     * orders, as MPI says).
     */
    public static TypeNode darray(int size, int rank, int[] gsizes, int[] distribs, int[] dargs,
                                  int[] psizes, int order, TypeNode old) {
        requireType(old);
        int n = checkArrays(gsizes, distribs, dargs);
        if (psizes == null || psizes.length != n) {
            throw DatatypeException.argument("darray: psizes must have " + n + " entries");
        }
        if (size <= 0 || rank < 0 || rank >= size) {
            throw DatatypeException.argument("darray: rank " + rank + " of " + size);
        }
        checkOrder(order);
        long grid = 1;
        for (int i = 0; i < n; i++) {
            if (gsizes[i] <= 0 || psizes[i] <= 0) {
                throw DatatypeException.argument("darray: dimension " + i + " has gsize "
                        + gsizes[i] + ", psize " + psizes[i]);
            }
            grid *= psizes[i];
        }
        if (grid != size) {
            throw DatatypeException.argument("darray: the process grid has " + grid
                    + " processes, the group " + size);
        }
        long[][] segments = new long[n][];
        int r = rank;
        int[] coords = new int[n];
        for (int i = n - 1; i >= 0; i--) { // row-major process grid
            coords[i] = r % psizes[i];
            r /= psizes[i];
        }
        for (int i = 0; i < n; i++) {
            segments[i] = Distribution.segments(i, gsizes[i], distribs[i], dargs[i], psizes[i],
                    coords[i]);
        }
        TypeNode t = grid(gsizes, segments, order, old);
        int[] ints = new int[4 * n + 4];
        ints[0] = size;
        ints[1] = rank;
        ints[2] = n;
        System.arraycopy(gsizes, 0, ints, 3, n);
        System.arraycopy(distribs, 0, ints, 3 + n, n);
        System.arraycopy(dargs, 0, ints, 3 + 2 * n, n);
        System.arraycopy(psizes, 0, ints, 3 + 3 * n, n);
        ints[4 * n + 3] = order;
        return new TypeNode.Resized(t, 0, t.extent(),
                contents(Combiner.DARRAY, ints, new long[0], old));
    }

    /**
     * The elements of an array of {@code sizes} whose index in dimension i lies in one of the
     * (start, length) pairs {@code segments[i]}; extent: the whole array. The outer dimension is
     * dims[0] in C order, dims[n-1] in Fortran order.
     */
    private static TypeNode grid(int[] sizes, long[][] segments, int order, TypeNode old) {
        int n = sizes.length;
        TypeNode t = old;
        long unit = old.extent();
        for (int k = 0; k < n; k++) {
            int dim = order == ORDER_C ? n - 1 - k : k;
            TypeNode inner = t.extent() == unit && t.lb == 0 ? t
                    : new TypeNode.Resized(t, 0, unit, Contents.named());
            long[] seg = segments[dim];
            int m = seg.length / 2;
            long[] lengths = new long[m];
            long[] displs = new long[m];
            for (int j = 0; j < m; j++) {
                displs[j] = seg[2 * j] * unit;
                lengths[j] = seg[2 * j + 1];
            }
            t = new TypeNode.Entries(lengths, displs, fill(m, inner), Contents.named());
            unit = Math.multiplyExact(unit, (long) sizes[dim]);
        }
        return new TypeNode.Resized(t, 0, unit, Contents.named());
    }

    // ------------------------------------------------------------------ checks and helpers

    private static TypeNode entries(long[] lengths, long[] displs, TypeNode old, Contents c) {
        return new TypeNode.Entries(lengths, displs, fill(lengths.length, old), c);
    }

    private static void checkVector(int count, int blockLength, TypeNode old) {
        requireCount("count", count);
        requireCount("block length", blockLength);
        requireType(old);
    }

    private static void checkLists(int[] blockLengths, int displacements, TypeNode old) {
        requireType(old);
        if (blockLengths == null) {
            throw DatatypeException.argument("block lengths are null");
        }
        if (blockLengths.length != displacements) {
            throw DatatypeException.argument(blockLengths.length + " block lengths but "
                    + displacements + " displacements");
        }
        for (int i = 0; i < blockLengths.length; i++) {
            requireCount("block length [" + i + "]", blockLengths[i]);
        }
    }

    private static int checkArrays(int[] a, int[] b, int[] c) {
        if (a == null || b == null || c == null || a.length == 0 || a.length != b.length
                || a.length != c.length) {
            throw DatatypeException.argument("the dimension arrays must be non-empty and of equal"
                    + " length");
        }
        return a.length;
    }

    private static void checkOrder(int order) {
        if (order != ORDER_C && order != ORDER_FORTRAN) {
            throw DatatypeException.argument("order must be ORDER_C or ORDER_FORTRAN, not " + order);
        }
    }

    static void requireCount(String what, long count) {
        if (count < 0) {
            throw DatatypeException.count("negative " + what + ": " + count);
        }
    }

    private static void requireArray(Object displacements) {
        if (displacements == null) {
            throw DatatypeException.argument("displacements are null");
        }
    }

    private static void requireType(TypeNode t) {
        if (t == null) {
            throw new DatatypeException(DatatypeException.Reason.TYPE, "type is null");
        }
    }

    private static Contents contents(Combiner c, int[] ints, long[] addresses, TypeNode old) {
        return new Contents(c, ints, addresses, List.of(old));
    }

    private static int[] concat(int count, int[] a, int[] b) {
        int[] out = new int[1 + a.length + b.length];
        out[0] = count;
        System.arraycopy(a, 0, out, 1, a.length);
        System.arraycopy(b, 0, out, 1 + a.length, b.length);
        return out;
    }

    private static long[] longs(int[] a) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i];
        }
        return out;
    }

    private static long[] filled(int n, long v) {
        long[] out = new long[n];
        java.util.Arrays.fill(out, v);
        return out;
    }

    private static TypeNode[] fill(int n, TypeNode t) {
        TypeNode[] out = new TypeNode[n];
        java.util.Arrays.fill(out, t);
        return out;
    }
}
