package mpi;

import org.verbatim.datatype.Signatures;
import org.verbatim.datatype.TypeNode;
import org.verbatim.runtime.p2p.TypeCheck;

/**
 * {@code verbatim.core.check-types}: the 16-bit code of a send's type signature, which travels in
 * the message header, and the receive-side check against the prefix of the receive's signature
 * that covers the message's bytes (MPI's type-matching rule). MPI.BYTE and MPI.PACKED (and types
 * made only of them) match anything, as do empty messages.
 */
final class TypeSignatures {
    private TypeSignatures() {
    }

    /** The code of {@code count} elements of {@code type} (0: not checked). */
    static short code(Datatype type, int count) {
        if (count == 0 || wildcard(type)) {
            return 0;
        }
        long h = Signatures.hash(type.node, count, -1);
        return h == 0 ? 0 : fold(h);
    }

    /** The check for a receive of {@code count} elements of {@code type}, or null when it takes anything. */
    static TypeCheck check(Datatype type, int count) {
        if (wildcard(type)) {
            return null;
        }
        long capacity = (long) count * type.byteSize;
        return (code, bytes) -> {
            if (bytes > capacity) {
                return true; // the receive is truncated: that error is reported instead
            }
            long h = Signatures.hash(type.node, count, bytes);
            return h != 0 && fold(h) == code;
        };
    }

    private static boolean wildcard(Datatype type) {
        TypeNode.Leaf leaf = type.node.homogeneousLeaf();
        return leaf != null && (leaf.name().equals("MPI_BYTE") || leaf.name().equals("MPI_PACKED"));
    }

    private static short fold(long h) {
        short c = (short) (h ^ h >>> 16 ^ h >>> 32 ^ h >>> 48);
        return c == 0 ? 1 : c;
    }
}
