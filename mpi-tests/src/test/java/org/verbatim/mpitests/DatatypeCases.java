package org.verbatim.mpitests;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * Derived int types made with every constructor, each with its type map written out by hand
 * (the int indices of one element, in pack order, and the extent in ints): the independent
 * reference the datatype programs check received buffers against, gaps included.
 */
final class DatatypeCases {
    /** Gaps of receive buffers hold this; a gap that changes is a failure. */
    static final int SENTINEL = -7;

    /** One derived type of MPI.INT: its map (int indices of one element) and extent in ints. */
    record Case(String name, Datatype type, int[] map, int extent) {
        /** Ints a buffer needs for {@code count} elements (with a tail that must stay untouched). */
        int span(int count) {
            int max = 0;
            for (int m : map) {
                max = Math.max(max, m);
            }
            return (count - 1) * extent + max + 1 + 3;
        }

        /**
         * This case as rank {@code r} of {@code size} builds it: the same except for darray,
         * whose map is the rank's own part (a message carries the sender's part).
         */
        Case asBuiltBy(int r, int size) {
            if (!name.equals("darray")) {
                return this;
            }
            return new Case(name, type, new int[] {4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3}, 4 * size);
        }

        /** Ints in {@code count} elements. */
        int ints(int count) {
            return map.length * count;
        }

        /** The buffer index of the {@code k}-th packed int of {@code count} elements. */
        int index(int k) {
            return (k / map.length) * extent + map[k % map.length];
        }
    }

    private DatatypeCases() {
    }

    /** Every constructor, over MPI.INT, committed; {@code rank}/{@code size} pick darray's part. */
    static List<Case> all(int rank, int size) throws MPIException {
        List<Case> cases = new ArrayList<>();
        cases.add(commit("contiguous(3)", Datatype.createContiguous(3, MPI.INT), new int[] {0, 1, 2}, 3));
        cases.add(commit("vector(4,2,5)", Datatype.createVector(4, 2, 5, MPI.INT),
                new int[] {0, 1, 5, 6, 10, 11, 15, 16}, 17));
        cases.add(commit("hvector(3,1,12B)", Datatype.createHVector(3, 1, 12, MPI.INT),
                new int[] {0, 3, 6}, 7));
        cases.add(commit("indexed", Datatype.createIndexed(new int[] {2, 1, 3}, new int[] {0, 4, 7},
                MPI.INT), new int[] {0, 1, 4, 7, 8, 9}, 10));
        cases.add(commit("hindexed", Datatype.createHIndexed(new int[] {1, 2}, new int[] {20, 4},
                MPI.INT), new int[] {5, 1, 2}, 5));
        cases.add(commit("indexedBlock", Datatype.createIndexedBlock(2, new int[] {1, 5, 9}, MPI.INT),
                new int[] {1, 2, 5, 6, 9, 10}, 10));
        cases.add(commit("hindexedBlock", Datatype.createHIndexedBlock(1, new int[] {0, 12, 28},
                MPI.INT), new int[] {0, 3, 7}, 8));
        cases.add(commit("resized vector", Datatype.createResized(
                Datatype.createVector(2, 1, 3, MPI.INT), 0, 28), new int[] {0, 3}, 7));
        cases.add(commit("subarray", Datatype.createSubarray(new int[] {4, 6}, new int[] {2, 3},
                new int[] {1, 2}, MPI.ORDER_C, MPI.INT), new int[] {8, 9, 10, 14, 15, 16}, 24));
        // 4 * size ints in blocks: this rank's 4, at 4 * rank; the same length on every rank
        int[] mine = {4 * rank, 4 * rank + 1, 4 * rank + 2, 4 * rank + 3};
        cases.add(commit("darray", Datatype.createDarray(size, rank, new int[] {4 * size},
                new int[] {MPI.DISTRIBUTE_BLOCK}, new int[] {MPI.DISTRIBUTE_DFLT_DARG},
                new int[] {size}, MPI.ORDER_C, MPI.INT), mine, 4 * size));
        cases.add(commit("dup of vector", Datatype.createVector(4, 2, 5, MPI.INT).dup(),
                new int[] {0, 1, 5, 6, 10, 11, 15, 16}, 17));
        cases.add(commit("vector of vector", Datatype.createHVector(2, 1, 64,
                Datatype.createVector(3, 1, 2, MPI.INT)), new int[] {0, 2, 4, 16, 18, 20}, 21));
        return cases;
    }

    private static Case commit(String name, Datatype t, int[] map, int extent)
            throws MPIException {
        t.commit();
        return new Case(name, t, map, extent);
    }

    /** The value rank {@code r} holds at int index {@code i} of its send buffers. */
    static int value(int r, int i) {
        return r * 100_000 + i + 1;
    }

    static int[] sendBuffer(int rank, int length) {
        int[] b = new int[length];
        for (int i = 0; i < length; i++) {
            b[i] = value(rank, i);
        }
        return b;
    }

    static int[] sentinels(int length) {
        int[] b = new int[length];
        Arrays.fill(b, SENTINEL);
        return b;
    }

    /**
     * A receive buffer of {@code length} after {@code count} elements of {@code recv} arrived
     * from {@code count} elements of {@code send} in {@code sender}'s buffer, placed at element
     * {@code atElement} of the receive buffer: data where the map says, sentinels elsewhere.
     */
    static int[] expected(Case send, Case recv, int sender, int count, int length, int atElement) {
        int[] e = sentinels(length);
        for (int k = 0; k < send.ints(count); k++) {
            e[atElement * recv.extent + recv.index(k)] = value(sender, send.index(k));
        }
        return e;
    }

    static String diff(int[] expected, int[] actual) {
        for (int i = 0; i < Math.min(expected.length, actual.length); i++) {
            if (expected[i] != actual[i]) {
                return "first difference at int " + i + ": expected " + expected[i] + ", got "
                        + actual[i] + " (" + Arrays.toString(Arrays.copyOf(actual,
                        Math.min(actual.length, 40))) + ")";
            }
        }
        return expected.length == actual.length ? "equal" : "lengths differ";
    }
}
