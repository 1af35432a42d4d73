package mpi;

/** MPI_Graph_get's results: the index and edges arrays of the graph. */
public final class GraphParms {
    private final int[] index;
    private final int[] edges;

    protected GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    /** The number of nodes. */
    public int getIndexCount() {
        return index.length;
    }

    /** Entry {@code i} of the index array: the number of edges of nodes 0 to {@code i} together. */
    public int getIndex(int i) {
        return index[i];
    }

    /** The length of the edges array. */
    public int getEdgeCount() {
        return edges.length;
    }

    /** Entry {@code i} of the edges array: the neighbours of all nodes, node after node. */
    public int getEdge(int i) {
        return edges[i];
    }
}
