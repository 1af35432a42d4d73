package org.verbatim.datatype;

/**
 * Type signatures for MPI's type-matching rule: the sequence of predefined types a message is
 * made of, whatever the layout. A signature is hashed in a canonical form (runs of one
 * predefined type merged, so {@code contiguous(3, INT)} and three separate {@code INT}s hash
 * alike), so a sender's signature can be compared with the prefix of a receiver's that covers
 * the same bytes. Homogeneous types cost O(1); others walk their predefined runs once.
 */
public final class Signatures {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private Signatures() {
    }

    /**
     * The hash of the signature of {@code count} elements of {@code node}, cut after its first
     * {@code bytes} packed bytes ({@code bytes < 0}: all of it); 0 when {@code bytes} ends inside
     * a predefined element (which no sender's signature can match).
     */
    public static long hash(TypeNode node, long count, long bytes) {
        Sink sink = new Sink(bytes < 0 ? Long.MAX_VALUE : bytes);
        walk(node, count, sink);
        return sink.finish();
    }

    /** Appends {@code reps} consecutive elements of {@code node}; false once the sink is full. */
    private static boolean walk(TypeNode node, long reps, Sink sink) {
        TypeNode.Leaf leaf = node.homogeneousLeaf();
        if (leaf != null) {
            long n;
            try {
                n = Math.multiplyExact(node.leaves, reps);
            } catch (ArithmeticException tooMany) {
                n = Long.MAX_VALUE;
            }
            return sink.add(leaf, n);
        }
        for (long r = 0; r < reps; r++) {
            boolean more = switch (node) {
                case TypeNode.Regular g -> walk(g.child, g.count * g.blockLength, sink);
                case TypeNode.Entries e -> entries(e, sink);
                case TypeNode.Resized z -> walk(z.child, 1, sink);
                case TypeNode.Leaf l -> sink.add(l, 1);
            };
            if (!more) {
                return false;
            }
        }
        return true;
    }

    private static boolean entries(TypeNode.Entries e, Sink sink) {
        for (int i = 0; i < e.children.length; i++) {
            if (!walk(e.children[i], e.blockLengths[i], sink)) {
                return false;
            }
        }
        return true;
    }

    /** Merges runs of one predefined type and hashes (name, run length) pairs. */
    private static final class Sink {
        private long left;
        private String current;
        private long run;
        private long hash = FNV_OFFSET;
        private boolean splitElement;

        Sink(long bytes) {
            this.left = bytes;
        }

        boolean add(TypeNode.Leaf leaf, long n) {
            if (leaf.size > 0) {
                long fit = left / leaf.size;
                if (n > fit) {
                    splitElement = left - fit * leaf.size != 0;
                    n = fit;
                    left = 0;
                } else {
                    left -= n * leaf.size;
                }
            }
            if (n > 0) {
                if (leaf.name().equals(current)) {
                    run += n;
                } else {
                    flush();
                    current = leaf.name();
                    run = n;
                }
            }
            return left > 0 || leaf.size == 0;
        }

        private void flush() {
            if (current != null) {
                hash = (hash ^ current.hashCode()) * FNV_PRIME;
                hash = (hash ^ run) * FNV_PRIME;
            }
        }

        long finish() {
            if (splitElement) {
                return 0;
            }
            flush();
            return hash;
        }
    }
}
