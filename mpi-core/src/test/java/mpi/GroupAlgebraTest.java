package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Group set algebra and rank ranges over world-rank arrays: no MPI.Init needed. */
class GroupAlgebraTest {
    private static final int[] A = {5, 2, 7, 0};
    private static final int[] B = {7, 3, 5, 9};

    @Test
    void unionKeepsTheFirstGroupThenAddsTheNewMembersOfTheSecondInOrder() {
        assertArrayEquals(new int[] {5, 2, 7, 0, 3, 9}, Group.union(A, B));
        assertArrayEquals(new int[] {7, 3, 5, 9, 2, 0}, Group.union(B, A));
        assertArrayEquals(A, Group.union(A, new int[0]));
        assertArrayEquals(A, Group.union(new int[0], A));
    }

    @Test
    void intersectionAndDifferenceKeepTheFirstGroupsOrder() {
        assertArrayEquals(new int[] {5, 7}, Group.intersection(A, B));
        assertArrayEquals(new int[] {7, 5}, Group.intersection(B, A));
        assertArrayEquals(new int[] {2, 0}, Group.difference(A, B));
        assertArrayEquals(new int[] {3, 9}, Group.difference(B, A));
        assertArrayEquals(new int[0], Group.difference(A, A));
        assertArrayEquals(new int[0], Group.intersection(A, new int[] {1, 4}));
    }

    @Test
    void compareTellsIdentSimilarAndUnequal() {
        assertEquals(MPI.IDENT, Group.compare(A, A.clone()));
        assertEquals(MPI.SIMILAR, Group.compare(A, new int[] {0, 2, 5, 7}));
        assertEquals(MPI.UNEQUAL, Group.compare(A, B));
        assertEquals(MPI.UNEQUAL, Group.compare(A, new int[] {5, 2, 7}));
        assertEquals(MPI.IDENT, Group.compare(new int[0], new int[0]));
    }

    @Test
    void translateRanksMapsAbsentMembersToUndefinedAndKeepsProcNull() throws Exception {
        int[] t = Group.translate(A, new int[] {0, 1, 2, 3, MPI.PROC_NULL}, B);
        assertArrayEquals(new int[] {2, MPI.UNDEFINED, 0, MPI.UNDEFINED, MPI.PROC_NULL}, t);
        assertArrayEquals(new int[] {0, 1, 2, 3}, Group.translate(A, new int[] {3, 2, 1, 0},
                new int[] {0, 7, 2, 5}));
        assertError(MPI.ERR_RANK, () -> Group.translate(A, new int[] {4}, B));
        assertError(MPI.ERR_RANK, () -> Group.translate(A, new int[] {-1}, B));
    }

    @Test
    void inclTakesTheRanksInTheGivenOrderAndExclKeepsTheRestInGroupOrder() throws Exception {
        assertArrayEquals(new int[] {0, 5}, Group.incl(A, new int[] {3, 0}));
        assertArrayEquals(new int[0], Group.incl(A, new int[0]));
        assertArrayEquals(new int[] {2, 7}, Group.excl(A, new int[] {3, 0}));
        assertArrayEquals(A, Group.excl(A, new int[0]));
        assertArrayEquals(new int[0], Group.excl(A, new int[] {0, 1, 2, 3}));
    }

    @Test
    void inclAndExclRefuseBadAndRepeatedRanks() {
        assertError(MPI.ERR_RANK, () -> Group.incl(A, new int[] {4}));
        assertError(MPI.ERR_RANK, () -> Group.incl(A, new int[] {-1}));
        assertError(MPI.ERR_RANK, () -> Group.incl(A, new int[] {1, 1}));
        assertError(MPI.ERR_RANK, () -> Group.excl(A, new int[] {2, 2}));
        assertError(MPI.ERR_RANK, () -> Group.excl(A, new int[] {MPI.PROC_NULL}));
        assertError(MPI.ERR_ARG, () -> Group.incl(A, null));
    }

    @Test
    void rangesWithPositiveAndNegativeStrides() throws Exception {
        assertArrayEquals(new int[] {0, 3, 6, 9}, Group.expandRanges(10, new int[][] {{0, 9, 3}}));
        assertArrayEquals(new int[] {0, 3, 6}, Group.expandRanges(10, new int[][] {{0, 8, 3}}));
        assertArrayEquals(new int[] {9, 6, 3, 0}, Group.expandRanges(10,
                new int[][] {{9, 0, -3}}));
        assertArrayEquals(new int[] {7, 5, 3}, Group.expandRanges(10, new int[][] {{7, 2, -2}}));
        assertArrayEquals(new int[] {4}, Group.expandRanges(10, new int[][] {{4, 4, 5}}));
        assertArrayEquals(new int[] {4}, Group.expandRanges(10, new int[][] {{4, 4, -1}}));
        assertArrayEquals(new int[] {1, 2, 8, 6}, Group.expandRanges(10,
                new int[][] {{1, 2, 1}, {8, 5, -2}}));
        assertArrayEquals(new int[0], Group.expandRanges(10, new int[0][]));
    }

    @Test
    void rangeInclAndRangeExclAgreeWithInclAndExcl() throws Exception {
        int[] members = {10, 11, 12, 13, 14, 15, 16};
        int[][] ranges = {{6, 0, -3}, {1, 2, 1}};
        int[] ranks = Group.expandRanges(members.length, ranges);
        assertArrayEquals(new int[] {6, 3, 0, 1, 2}, ranks);
        assertArrayEquals(new int[] {16, 13, 10, 11, 12}, Group.incl(members, ranks));
        assertArrayEquals(new int[] {14, 15}, Group.excl(members, ranks));
    }

    @Test
    void badRangesAreRefused() {
        assertError(MPI.ERR_RANK, () -> Group.expandRanges(10, new int[][] {{0, 9, 0}}));
        assertError(MPI.ERR_RANK, () -> Group.expandRanges(10, new int[][] {{0, 9, -1}}));
        assertError(MPI.ERR_RANK, () -> Group.expandRanges(10, new int[][] {{9, 0, 2}}));
        assertError(MPI.ERR_RANK, () -> Group.expandRanges(10, new int[][] {{0, 10, 1}}));
        assertError(MPI.ERR_RANK, () -> Group.expandRanges(10, new int[][] {{-1, 3, 1}}));
        assertError(MPI.ERR_RANK, () -> Group.expandRanges(0, new int[][] {{0, 0, 1}}));
        assertError(MPI.ERR_ARG, () -> Group.expandRanges(10, new int[][] {{0, 9}}));
        assertError(MPI.ERR_ARG, () -> Group.expandRanges(10, null));
        // overlapping ranges name a rank twice: incl refuses it
        assertError(MPI.ERR_RANK, () -> Group.incl(new int[10],
                Group.expandRanges(10, new int[][] {{0, 4, 2}, {4, 6, 1}})));
    }

    interface Call {
        void run() throws MPIException;
    }

    static void assertError(int errorClass, Call call) {
        MPIException e = assertThrows(MPIException.class, call::run);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
    }
}
