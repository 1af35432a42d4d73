package org.verbatim.datatype;

/**
 * A node of a type tree: an immutable description of where the bytes of one element of a type
 * lie relative to its origin, and in what order they are packed (MPI's typemap). Four shapes
 * cover every MPI constructor: a predefined {@link Leaf}; a {@link Regular} repetition (contiguous,
 * vector, h-vector); a list of {@link Entries} (indexed, h-indexed, indexed-block, h-indexed-block,
 * struct, and what subarray and darray reduce to); and {@link Resized} bounds. How the node was
 * made is kept apart in its {@link Contents} (for MPI_Type_get_envelope/contents).
 *
 * <p>All displacements and bounds are in bytes. Build nodes with {@link Types}; commit them with
 * {@link CommittedType#of(TypeNode)}.
 */
public abstract sealed class TypeNode permits TypeNode.Leaf, TypeNode.Regular, TypeNode.Entries,
        TypeNode.Resized {
    /** Bytes of data in one element (the packed size). */
    final long size;
    /** Lower and upper bound (extent = ub - lb), resizable. */
    final long lb;
    final long ub;
    /** Bounds of the bytes actually touched. */
    final long trueLb;
    final long trueUb;
    /** Predefined elements in one element (for MPI_Get_elements). */
    final long leaves;
    /** The one predefined type every leaf is, or null when the leaves differ. */
    final Leaf homogeneous;
    final Contents contents;
    private volatile RunList runs;

    TypeNode(long size, long lb, long ub, long trueLb, long trueUb, long leaves, Leaf homogeneous,
             Contents contents) {
        this.size = size;
        this.lb = lb;
        this.ub = ub;
        this.trueLb = trueLb;
        this.trueUb = trueUb;
        this.leaves = leaves;
        this.homogeneous = homogeneous;
        this.contents = contents;
    }

    public long size() {
        return size;
    }

    public long lb() {
        return lb;
    }

    public long extent() {
        return ub - lb;
    }

    public long trueLb() {
        return trueLb;
    }

    public long trueExtent() {
        return trueUb - trueLb;
    }

    /** Predefined elements in one element. */
    public long leafCount() {
        return leaves;
    }

    /** The predefined type every leaf is, or null when they differ (a struct of mixed fields). */
    public Leaf homogeneousLeaf() {
        return homogeneous;
    }

    public Contents contents() {
        return contents;
    }

    /**
     * Predefined elements wholly inside the first {@code bytes} packed bytes of consecutive
     * elements of this type (MPI_Get_elements), or -1 when {@code bytes} ends inside one.
     */
    public long elementsIn(long bytes) {
        if (size == 0) {
            return 0;
        }
        long full = bytes / size;
        long rest = bytes - full * size;
        long partial = leavesIn(rest);
        if (bytesOfLeaves(partial) != rest) {
            return -1;
        }
        return full * leaves + partial;
    }

    /** Packed bytes of the first {@code n} predefined elements (MPI_Status_set_elements). */
    public long bytesOfElements(long n) {
        if (leaves == 0) {
            return 0;
        }
        long full = n / leaves;
        return full * size + bytesOfLeaves(n - full * leaves);
    }

    /** Appends this node's blocks, placed at {@code origin}, to {@code sink} in pack order. */
    abstract void emit(long origin, RunBuilder sink);

    /** Predefined elements wholly inside the first {@code bytes} packed bytes of one element. */
    abstract long leavesIn(long bytes);

    /** Packed bytes of the first {@code n} predefined elements of one element ({@code n <= leaves}). */
    abstract long bytesOfLeaves(long n);

    /** The node's blocks relative to its origin, merged (memoized: nodes are immutable). */
    final RunList runs() {
        RunList r = runs;
        if (r == null) {
            RunBuilder b = new RunBuilder();
            emit(0, b);
            r = b.build();
            runs = r;
        }
        return r;
    }

    /** True when one element is a single block of {@code size} bytes and the extent equals it. */
    final boolean denseElement() {
        RunList r = runs();
        return extent() == size && (size == 0 || (r.count() == 1 && r.repeat(0) == 1));
    }

    // ------------------------------------------------------------------ the four shapes

    /** A predefined type: {@code size} bytes of data in an element of {@code extent} bytes. */
    public static final class Leaf extends TypeNode {
        private final String name;

        Leaf(String name, long size, long extent) {
            super(size, 0, extent, 0, size, 1, null, Contents.named());
            this.name = name;
        }

        public String name() {
            return name;
        }

        @Override
        public Leaf homogeneousLeaf() {
            return this;
        }

        @Override
        void emit(long origin, RunBuilder sink) {
            sink.add(origin, size, size, 1);
        }

        @Override
        long leavesIn(long bytes) {
            return bytes >= size ? 1 : 0;
        }

        @Override
        long bytesOfLeaves(long n) {
            return n > 0 ? size : 0;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * {@code count} blocks {@code stride} bytes apart, each of {@code blockLength} consecutive
     * children (consecutive: one child extent apart).
     */
    public static final class Regular extends TypeNode {
        final long count;
        final long blockLength;
        final long stride;
        final TypeNode child;

        Regular(long count, long blockLength, long stride, TypeNode child, Contents contents) {
            super(Math.multiplyExact(Math.multiplyExact(count, blockLength), child.size),
                    Blocks.lower(count, blockLength, stride, child.extent(), child.lb, child.ub),
                    Blocks.upper(count, blockLength, stride, child.extent(), child.lb, child.ub),
                    child.size == 0 ? 0 : Blocks.lower(count, blockLength, stride, child.extent(),
                            child.trueLb, child.trueUb),
                    child.size == 0 ? 0 : Blocks.upper(count, blockLength, stride, child.extent(),
                            child.trueLb, child.trueUb),
                    count * blockLength * child.leaves, child.homogeneousLeaf(), contents);
            this.count = count;
            this.blockLength = blockLength;
            this.stride = stride;
            this.child = child;
        }

        @Override
        void emit(long origin, RunBuilder sink) {
            Blocks.emitBlock(sink, origin, count, stride, blockLength, child);
        }

        @Override
        long leavesIn(long bytes) {
            return Blocks.leavesIn(count * blockLength, child, bytes);
        }

        @Override
        long bytesOfLeaves(long n) {
            return Blocks.bytesOfLeaves(count * blockLength, child, n);
        }
    }

    /** Entry {@code i}: {@code blockLengths[i]} consecutive {@code children[i]} at {@code displacements[i]}. */
    public static final class Entries extends TypeNode {
        final long[] blockLengths;
        final long[] displacements;
        final TypeNode[] children;

        Entries(long[] blockLengths, long[] displacements, TypeNode[] children, Contents contents) {
            super(Blocks.size(blockLengths, children), Blocks.lower(blockLengths, displacements,
                            children, false), Blocks.upper(blockLengths, displacements, children, false),
                    Blocks.lower(blockLengths, displacements, children, true),
                    Blocks.upper(blockLengths, displacements, children, true),
                    Blocks.leaves(blockLengths, children), Blocks.homogeneous(blockLengths, children),
                    contents);
            this.blockLengths = blockLengths;
            this.displacements = displacements;
            this.children = children;
        }

        @Override
        void emit(long origin, RunBuilder sink) {
            for (int i = 0; i < children.length; i++) {
                Blocks.emitBlock(sink, origin + displacements[i], 1, 0, blockLengths[i], children[i]);
            }
        }

        @Override
        long leavesIn(long bytes) {
            long n = 0;
            for (int i = 0; i < children.length && bytes > 0; i++) {
                long entryBytes = blockLengths[i] * children[i].size;
                if (bytes >= entryBytes) {
                    n += blockLengths[i] * children[i].leaves;
                    bytes -= entryBytes;
                } else {
                    return n + Blocks.leavesIn(blockLengths[i], children[i], bytes);
                }
            }
            return n;
        }

        @Override
        long bytesOfLeaves(long n) {
            long bytes = 0;
            for (int i = 0; i < children.length && n > 0; i++) {
                long entryLeaves = blockLengths[i] * children[i].leaves;
                if (n >= entryLeaves) {
                    bytes += blockLengths[i] * children[i].size;
                    n -= entryLeaves;
                } else {
                    return bytes + Blocks.bytesOfLeaves(blockLengths[i], children[i], n);
                }
            }
            return bytes;
        }
    }

    /** The child with its lower bound and extent set (MPI_Type_create_resized). */
    public static final class Resized extends TypeNode {
        final TypeNode child;

        Resized(TypeNode child, long lb, long extent, Contents contents) {
            super(child.size, lb, lb + extent, child.trueLb, child.trueUb, child.leaves,
                    child.homogeneousLeaf(), contents);
            this.child = child;
        }

        @Override
        void emit(long origin, RunBuilder sink) {
            child.emit(origin, sink);
        }

        @Override
        long leavesIn(long bytes) {
            return child.leavesIn(bytes);
        }

        @Override
        long bytesOfLeaves(long n) {
            return child.bytesOfLeaves(n);
        }
    }
}
