package mpi;

import static mpi.GroupAlgebraTest.assertError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Cartesian grid arithmetic and MPI_Dims_create: no MPI.Init needed. */
class CartTopologyTest {
    private static int[] dims(int nnodes, int... dims) throws MPIException {
        CartTopology.createDims(nnodes, dims);
        return dims;
    }

    @Test
    void createDimsBalancesTheFreeExtentsInNonIncreasingOrder() throws Exception {
        assertArrayEquals(new int[] {3, 2}, dims(6, 0, 0));
        assertArrayEquals(new int[] {2, 2}, dims(4, 0, 0));
        assertArrayEquals(new int[] {7, 1}, dims(7, 0, 0));
        assertArrayEquals(new int[] {9, 8}, dims(72, 0, 0));
        assertArrayEquals(new int[] {4, 2, 2}, dims(16, 0, 0, 0));
        assertArrayEquals(new int[] {4, 3, 2}, dims(24, 0, 0, 0));
        assertArrayEquals(new int[] {3, 2, 2}, dims(12, 0, 0, 0));
        assertArrayEquals(new int[] {1, 1}, dims(1, 0, 0));
        assertArrayEquals(new int[] {5}, dims(5, 0));
        assertArrayEquals(new int[] {2, 3, 2}, dims(12, 0, 3, 0));
        assertArrayEquals(new int[] {2, 3}, dims(6, 2, 3));
        assertArrayEquals(new int[] {3, 1, 1}, dims(3, 0, 0, 0));
        assertArrayEquals(new int[0], dims(1));
    }

    @Test
    void createDimsAlwaysMultipliesOutAndNeverIncreases() throws Exception {
        for (int n = 1; n <= 130; n++) {
            for (int k = 1; k <= 4; k++) {
                int[] d = dims(n, new int[k]);
                int product = 1;
                for (int i = 0; i < k; i++) {
                    product *= d[i];
                    assertTrue(i == 0 || d[i] <= d[i - 1], n + " over " + k);
                }
                assertEquals(n, product, n + " over " + k);
            }
        }
    }

    @Test
    void createDimsRefusesWhatCannotBeMet() {
        assertError(MPI.ERR_DIMS, () -> dims(6, 4, 0));
        assertError(MPI.ERR_DIMS, () -> dims(6, 2, 2));
        assertError(MPI.ERR_DIMS, () -> dims(6, -2, 0));
        assertError(MPI.ERR_DIMS, () -> dims(0, 0, 0));
        assertError(MPI.ERR_DIMS, () -> dims(-3, 0));
        assertError(MPI.ERR_DIMS, () -> dims(2));
        assertError(MPI.ERR_ARG, () -> CartTopology.createDims(4, null));
    }

    @Test
    void ranksAreRowMajorAndCoordinatesRoundTrip() throws Exception {
        CartTopology t = CartTopology.of(new int[] {3, 4, 2}, new boolean[3], 30);
        assertEquals(24, t.size);
        assertArrayEquals(new int[] {0, 0, 1}, t.coordsOf(1));
        assertArrayEquals(new int[] {0, 1, 0}, t.coordsOf(2));
        assertArrayEquals(new int[] {1, 0, 0}, t.coordsOf(8));
        assertArrayEquals(new int[] {2, 3, 1}, t.coordsOf(23));
        for (int r = 0; r < t.size; r++) {
            assertEquals(r, t.rankOf(t.coordsOf(r)));
        }
        assertError(MPI.ERR_RANK, () -> t.coordsOf(24));
        assertError(MPI.ERR_RANK, () -> t.coordsOf(-1));
    }

    @Test
    void periodicDimensionsWrapAndOthersMustBeInRange() throws Exception {
        CartTopology t = CartTopology.of(new int[] {2, 3}, new boolean[] {false, true}, 6);
        assertEquals(2, t.rankOf(new int[] {0, -1}));
        assertEquals(3, t.rankOf(new int[] {1, 6}));
        assertError(MPI.ERR_ARG, () -> t.rankOf(new int[] {2, 0}));
        assertError(MPI.ERR_ARG, () -> t.rankOf(new int[] {-1, 0}));
        assertError(MPI.ERR_ARG, () -> t.rankOf(new int[] {0}));
    }

    @Test
    void shiftGivesProcNullPastNonPeriodicEdges() throws Exception {
        CartTopology t = CartTopology.of(new int[] {2, 3}, new boolean[] {false, true}, 6);
        assertArrayEquals(new int[] {MPI.PROC_NULL, 3}, t.shift(0, 0, 1));
        assertArrayEquals(new int[] {0, MPI.PROC_NULL}, t.shift(3, 0, 1));
        assertArrayEquals(new int[] {3, MPI.PROC_NULL}, t.shift(0, 0, -1));
        assertArrayEquals(new int[] {2, 1}, t.shift(0, 1, 1));
        assertArrayEquals(new int[] {1, 2}, t.shift(0, 1, -1));
        assertArrayEquals(new int[] {2, 1}, t.shift(0, 1, 4));
        assertArrayEquals(new int[] {4, 4}, t.shift(4, 1, 0));
        assertArrayEquals(new int[] {MPI.PROC_NULL, MPI.PROC_NULL}, t.shift(0, 0, 2));
        assertError(MPI.ERR_DIMS, () -> t.shift(0, 2, 1));
        assertError(MPI.ERR_DIMS, () -> t.shift(0, -1, 1));
    }

    @Test
    void neighboursArePerDimensionMinusThenPlus() throws Exception {
        CartTopology t = CartTopology.of(new int[] {2, 3}, new boolean[] {false, true}, 6);
        assertArrayEquals(new int[] {MPI.PROC_NULL, 4, 0, 2}, t.neighbors(1));
        assertArrayEquals(new int[] {2, MPI.PROC_NULL, 4, 3}, t.neighbors(5));
        CartTopology ring = CartTopology.of(new int[] {1}, new boolean[] {true}, 1);
        assertArrayEquals(new int[] {0, 0}, ring.neighbors(0));
    }

    @Test
    void subKeepsTheRemainingDimensionsAndGroupsByTheDroppedOnes() throws Exception {
        CartTopology t = CartTopology.of(new int[] {2, 3, 2}, new boolean[] {true, false, true},
                12);
        boolean[] remain = {true, false, true};
        CartTopology s = t.sub(remain);
        assertArrayEquals(new int[] {2, 2}, s.dims);
        assertArrayEquals(new boolean[] {true, true}, s.periods);
        // rank 3 is (0, 1, 1): its sub-grid is every rank with middle coordinate 1
        assertArrayEquals(new int[] {2, 3, 8, 9}, t.subMembers(3, remain));
        assertArrayEquals(new int[] {0, 2, 4}, t.subMembers(0, new boolean[] {false, true, false}));
        assertArrayEquals(new int[] {7}, t.subMembers(7, new boolean[3]));
        assertEquals(0, t.sub(new boolean[3]).ndims());
        assertEquals(1, t.sub(new boolean[3]).size);
        assertError(MPI.ERR_ARG, () -> t.sub(new boolean[2]));
    }

    @Test
    void badGridsAreRefused() {
        assertError(MPI.ERR_DIMS, () -> CartTopology.of(new int[] {2, 3}, new boolean[2], 5));
        assertError(MPI.ERR_DIMS, () -> CartTopology.of(new int[] {0, 3}, new boolean[2], 5));
        assertError(MPI.ERR_DIMS, () -> CartTopology.of(new int[] {-1}, new boolean[1], 5));
        assertError(MPI.ERR_ARG, () -> CartTopology.of(new int[] {2}, new boolean[2], 5));
        assertError(MPI.ERR_ARG, () -> CartTopology.of(null, new boolean[0], 5));
    }
}
