package mpi;

import static mpi.GroupAlgebraTest.assertError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** MPI_Graph_create's graph (the example of the MPI standard): no MPI.Init needed. */
class GraphTopologyTest {
    private static final int[] INDEX = {2, 3, 4, 6};
    private static final int[] EDGES = {1, 3, 0, 3, 0, 2};

    @Test
    void neighboursComeFromTheIndexedSlices() throws Exception {
        GraphTopology g = GraphTopology.of(INDEX, EDGES, 5);
        assertEquals(4, g.nnodes());
        assertArrayEquals(new int[] {1, 3}, g.neighbors(0));
        assertArrayEquals(new int[] {0}, g.neighbors(1));
        assertArrayEquals(new int[] {3}, g.neighbors(2));
        assertArrayEquals(new int[] {0, 2}, g.neighbors(3));
        assertError(MPI.ERR_RANK, () -> g.neighbors(4));
    }

    @Test
    void extraEdgesBeyondTheIndexAreIgnored() throws Exception {
        GraphTopology g = GraphTopology.of(new int[] {1, 1}, new int[] {1, 99, 99}, 2);
        assertArrayEquals(new int[] {1}, g.edges);
        assertArrayEquals(new int[0], g.neighbors(1));
    }

    @Test
    void badGraphsAreRefused() {
        assertError(MPI.ERR_ARG, () -> GraphTopology.of(INDEX, EDGES, 3));
        assertError(MPI.ERR_ARG, () -> GraphTopology.of(new int[] {2, 1}, EDGES, 4));
        assertError(MPI.ERR_ARG, () -> GraphTopology.of(new int[] {2, 9}, EDGES, 4));
        assertError(MPI.ERR_TOPOLOGY, () -> GraphTopology.of(new int[] {1, 2},
                new int[] {1, 2}, 4));
        assertError(MPI.ERR_TOPOLOGY, () -> GraphTopology.of(new int[] {1}, new int[] {-1}, 4));
        assertError(MPI.ERR_ARG, () -> GraphTopology.of(null, EDGES, 4));
    }
}
