package org.verbatim.datatype;

import java.util.Random;

/** Random type trees up to a depth, built through the public constructors (all of them). */
final class RandomTypes {
    static final TypeNode.Leaf BYTE = Types.predefined("BYTE", 1, 1);
    static final TypeNode.Leaf SHORT = Types.predefined("SHORT", 2, 2);
    static final TypeNode.Leaf INT = Types.predefined("INT", 4, 4);
    static final TypeNode.Leaf DOUBLE = Types.predefined("DOUBLE", 8, 8);
    static final TypeNode.Leaf DOUBLE_INT = Types.predefined("DOUBLE_INT", 12, 16);
    private static final TypeNode.Leaf[] LEAVES = {BYTE, SHORT, INT, DOUBLE, DOUBLE_INT};

    private final Random rnd;

    RandomTypes(long seed) {
        this.rnd = new Random(seed);
    }

    Random random() {
        return rnd;
    }

    TypeNode next(int depth) {
        if (depth == 0 || rnd.nextInt(5) == 0) {
            return LEAVES[rnd.nextInt(LEAVES.length)];
        }
        TypeNode old = next(depth - 1);
        long ext = Math.max(1, old.extent());
        return switch (rnd.nextInt(12)) {
            case 0 -> Types.contiguous(rnd.nextInt(4), old);
            case 1 -> Types.vector(rnd.nextInt(4), rnd.nextInt(3), rnd.nextInt(7) - 2, old);
            case 2 -> Types.hvector(rnd.nextInt(4), rnd.nextInt(3), rnd.nextInt((int) (4 * ext)) - ext, old);
            case 3 -> {
                int n = rnd.nextInt(4);
                int[] bl = ints(n, 3);
                int[] d = new int[n];
                for (int i = 0; i < n; i++) {
                    d[i] = rnd.nextInt(10) - 2;
                }
                yield Types.indexed(bl, d, old);
            }
            case 4 -> {
                int n = rnd.nextInt(4);
                long[] d = new long[n];
                for (int i = 0; i < n; i++) {
                    d[i] = rnd.nextInt((int) (6 * ext)) - ext;
                }
                yield Types.hindexed(ints(n, 3), d, old);
            }
            case 5 -> {
                int n = rnd.nextInt(4);
                int[] d = new int[n];
                for (int i = 0; i < n; i++) {
                    d[i] = rnd.nextInt(8);
                }
                yield Types.indexedBlock(rnd.nextInt(3), d, old);
            }
            case 6 -> {
                int n = rnd.nextInt(4);
                long[] d = new long[n];
                for (int i = 0; i < n; i++) {
                    d[i] = rnd.nextInt((int) (6 * ext));
                }
                yield Types.hindexedBlock(rnd.nextInt(3), d, old);
            }
            case 7 -> {
                int n = 1 + rnd.nextInt(3);
                TypeNode[] ts = new TypeNode[n];
                long[] d = new long[n];
                long at = rnd.nextInt(4);
                for (int i = 0; i < n; i++) {
                    ts[i] = i == 0 ? old : next(depth - 1);
                    d[i] = at;
                    at += Math.max(1, ts[i].extent()) * 2 + rnd.nextInt(5);
                }
                yield Types.struct(ints(n, 3), d, ts);
            }
            case 8 -> Types.resized(old, rnd.nextInt(9) - 4, old.extent() + rnd.nextInt(9));
            case 9 -> Types.dup(old);
            case 10 -> {
                int n = 1 + rnd.nextInt(3);
                int[] sizes = new int[n];
                int[] sub = new int[n];
                int[] starts = new int[n];
                for (int i = 0; i < n; i++) {
                    sizes[i] = 1 + rnd.nextInt(4);
                    sub[i] = rnd.nextInt(sizes[i] + 1);
                    starts[i] = rnd.nextInt(sizes[i] - sub[i] + 1);
                }
                yield Types.subarray(sizes, sub, starts, rnd.nextInt(2), old);
            }
            default -> {
                int n = 1 + rnd.nextInt(2);
                int[] g = new int[n];
                int[] dist = new int[n];
                int[] darg = new int[n];
                int[] p = new int[n];
                int size = 1;
                for (int i = 0; i < n; i++) {
                    g[i] = 1 + rnd.nextInt(6);
                    dist[i] = rnd.nextInt(3);
                    p[i] = dist[i] == Types.DISTRIBUTE_NONE ? 1 : 1 + rnd.nextInt(3);
                    darg[i] = dist[i] == Types.DISTRIBUTE_CYCLIC && rnd.nextBoolean()
                            ? 1 + rnd.nextInt(2) : Types.DISTRIBUTE_DFLT_DARG;
                    size *= p[i];
                }
                yield Types.darray(size, rnd.nextInt(size), g, dist, darg, p, rnd.nextInt(2), old);
            }
        };
    }

    private int[] ints(int n, int bound) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = rnd.nextInt(bound);
        }
        return a;
    }
}
