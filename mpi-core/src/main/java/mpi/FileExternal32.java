package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;
import org.verbatim.datatype.Combiner;
import org.verbatim.datatype.Contents;
import org.verbatim.datatype.MessageShape;
import org.verbatim.datatype.TypeNode;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.io.IoBuffer;

/**
 * The "external32" data representation (MPI-4.1 14.5.2): big-endian, with the sizes of the
 * standard's table. Every predefined type of the Java API that Verbatim can convert has the same
 * external32 size as its native one (as Open MPI's bindings map them: BYTE, BOOLEAN and PACKED
 * 1 byte; CHAR is MPI_UINT16_T, 2; SHORT 2; INT 4; LONG is MPI_INT64_T, 8; FLOAT 4; DOUBLE 8; the
 * complex types two floats or doubles; 2INT and FLOAT_INT two 4-byte words), so a view's file
 * layout is the native one and only the byte order of each predefined element changes.
 * SHORT_INT, LONG_INT and DOUBLE_INT are 6, 12 and 12 bytes in external32 but 8, 16 and 16 here
 * (their padding), so they are refused rather than written wrong.
 *
 * <p>Data are converted by the memory type's type map, element by element (a struct of mixed
 * fields swaps each field by its own size), in a staging copy: a write packs and swaps a copy,
 * never the user's buffer; a read lands in the copy and is swapped and unpacked after. This path
 * allocates its staging memory per call; "native" and "internal" never come here.
 */
final class FileExternal32 {
    private static final boolean LITTLE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private FileExternal32() {
    }

    /**
     * The word size a predefined type's bytes are swapped in: 1 (nothing to swap), 2, 4 or 8;
     * 0 when its external32 size differs from its native one.
     */
    static int wordOf(TypeNode.Leaf leaf) {
        return switch (leaf.name()) {
            case "MPI_BYTE", "MPI_BOOLEAN", "MPI_PACKED" -> 1;
            case "MPI_CHAR", "MPI_SHORT" -> 2;
            case "MPI_INT", "MPI_FLOAT", "MPI_2INT", "MPI_FLOAT_INT", "MPI_C_FLOAT_COMPLEX" -> 4;
            case "MPI_LONG", "MPI_DOUBLE", "MPI_C_DOUBLE_COMPLEX" -> 8;
            default -> 0;
        };
    }

    /**
     * Throws unless every predefined type {@code type} is made of converts.
     *
     * @param what how the caller names the type ("etype", "memory type", ...)
     * @throws MPIException ERR_UNSUPPORTED_DATAREP naming the first type that does not
     */
    static void check(Datatype type, String what) throws MPIException {
        String bad = unsupported(type.node);
        if (bad != null) {
            throw MPIException.of(ErrorClass.ERR_UNSUPPORTED_DATAREP, "external32: the " + what
                    + (bad.equals(type.toString()) ? "" : " (" + type + ")") + " holds " + bad
                    + ", whose external32 size differs from its native size in Verbatim "
                    + "(SHORT_INT, LONG_INT and DOUBLE_INT have no padding in external32)");
        }
    }

    /** The name of the first predefined type under {@code node} that cannot convert, or null. */
    private static String unsupported(TypeNode node) {
        TypeNode.Leaf leaf = node.homogeneousLeaf();
        if (leaf != null) {
            return wordOf(leaf) == 0 ? leaf.name() : null;
        }
        for (TypeNode child : node.contents().types()) {
            String bad = unsupported(child);
            if (bad != null) {
                return bad;
            }
        }
        return null;
    }

    /**
     * Swaps the byte order of the predefined elements of {@code reps} consecutive elements of
     * {@code node} in packed form at {@code at} of {@code data}, stopping at {@code limit}
     * (only whole words before it); the same call converts native to big-endian and back.
     *
     * @return where the packed bytes of those elements end
     */
    static long swap(TypeNode node, long reps, MemorySegment data, long at, long limit) {
        long end = at + node.size() * reps;
        if (at >= limit || end == at) {
            return end;
        }
        TypeNode.Leaf leaf = node.homogeneousLeaf();
        if (leaf != null) {
            swapWords(data, at, Math.min(end, limit) - at, wordOf(leaf));
            return end;
        }
        Contents c = node.contents();
        List<TypeNode> types = c.types();
        int[] ints = c.combiner() == Combiner.STRUCT ? c.integers() : null;
        for (long r = 0; r < reps && at < limit; r++) {
            if (ints != null) {
                for (int i = 0; i < types.size(); i++) {
                    at = swap(types.get(i), ints[i + 1], data, at, limit);
                }
            } else {
                // one old type: the packed bytes are whole elements of it, in order
                TypeNode child = types.get(0);
                at = swap(child, node.size() / child.size(), data, at, limit);
            }
        }
        return end;
    }

    private static void swapWords(MemorySegment s, long at, long bytes, int word) {
        if (!LITTLE || word <= 1) {
            return;
        }
        long end = at + bytes / word * word;
        switch (word) {
            case 2 -> {
                for (long p = at; p < end; p += 2) {
                    short v = s.get(ValueLayout.JAVA_SHORT_UNALIGNED, p);
                    s.set(ValueLayout.JAVA_SHORT_UNALIGNED, p, Short.reverseBytes(v));
                }
            }
            case 4 -> {
                for (long p = at; p < end; p += 4) {
                    int v = s.get(ValueLayout.JAVA_INT_UNALIGNED, p);
                    s.set(ValueLayout.JAVA_INT_UNALIGNED, p, Integer.reverseBytes(v));
                }
            }
            default -> {
                for (long p = at; p < end; p += 8) {
                    long v = s.get(ValueLayout.JAVA_LONG_UNALIGNED, p);
                    s.set(ValueLayout.JAVA_LONG_UNALIGNED, p, Long.reverseBytes(v));
                }
            }
        }
    }

    /**
     * A transfer's staging copy: what the io module reads or writes instead of the user's
     * buffer, and the step that brings a read back.
     */
    static final class Staged {
        private final IoBuffer user;
        private final TypeNode node;
        private final MemorySegment copy;
        private final IoBuffer io;
        private final boolean write;

        /**
         * Stages {@code user}'s data (of {@code type}): packed into a copy, swapped for a write.
         * A read's copy starts as the user's data too, so what a short read leaves unread comes
         * back unchanged.
         */
        Staged(IoBuffer user, Datatype type, boolean write) {
            this.user = user;
            this.node = type.node;
            this.write = write;
            MessageShape shape = user.shape();
            long bytes = shape.bytes();
            if (bytes == 0) {
                this.copy = MemorySegment.NULL;
                this.io = user;
                return;
            }
            this.copy = Arena.ofAuto().allocate(bytes, 8);
            shape.type().pack(user.base(), shape.count(), copy, 0);
            if (write) {
                swap(node, shape.count(), copy, 0, bytes);
            }
            this.io = new IoBuffer(copy, MPI.BYTE.form.shape(bytes));
        }

        /** What the io module moves. */
        IoBuffer io() {
            return io;
        }

        /**
         * After the transfer moved {@code moved} bytes: a read's data go to native order and
         * into the user's buffer; nothing for a write.
         */
        void finish(long moved) {
            MessageShape shape = user.shape();
            if (write || shape.bytes() == 0) {
                return;
            }
            swap(node, shape.count(), copy, 0, Math.min(moved, shape.bytes()));
            shape.type().unpack(copy, 0, user.base(), shape.count());
        }
    }
}
