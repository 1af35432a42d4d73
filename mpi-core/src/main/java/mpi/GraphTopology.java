package mpi;

import java.util.Arrays;
import org.verbatim.runtime.base.ErrorClass;

/**
 * A general graph (MPI_Graph_create): node {@code i}'s neighbours are
 * {@code edges[index[i-1] .. index[i])}, with {@code index[-1] = 0}. Every rank holds the whole
 * graph, as MPI requires every rank to pass it.
 */
final class GraphTopology {
    final int[] index;
    final int[] edges;

    private GraphTopology(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    int nnodes() {
        return index.length;
    }

    /** Checks MPI_Graph_create's arguments against a communicator of {@code commSize} ranks. */
    static GraphTopology of(int[] index, int[] edges, int commSize) throws MPIException {
        if (index == null || edges == null) {
            throw MPIException.of(ErrorClass.ERR_ARG, (index == null ? "index" : "edges")
                    + " is null");
        }
        int nnodes = index.length;
        if (nnodes > commSize) {
            throw MPIException.of(ErrorClass.ERR_ARG, "the graph has " + nnodes
                    + " nodes but the communicator only " + commSize + " ranks");
        }
        int previous = 0;
        for (int i = 0; i < nnodes; i++) {
            if (index[i] < previous) {
                throw MPIException.of(ErrorClass.ERR_ARG, "index[" + i + "] = " + index[i]
                        + " is smaller than the previous entry " + previous);
            }
            previous = index[i];
        }
        int nedges = nnodes == 0 ? 0 : index[nnodes - 1];
        if (nedges > edges.length) {
            throw MPIException.of(ErrorClass.ERR_ARG, "index announces " + nedges
                    + " edges but edges has " + edges.length);
        }
        for (int e = 0; e < nedges; e++) {
            if (edges[e] < 0 || edges[e] >= nnodes) {
                throw MPIException.of(ErrorClass.ERR_TOPOLOGY, "edges[" + e + "] = " + edges[e]
                        + " is not a node of the graph (0.." + (nnodes - 1) + ")");
            }
        }
        return new GraphTopology(index.clone(), Arrays.copyOf(edges, nedges));
    }

    /** The neighbours of a node known to be valid (this rank's, for neighbourhood collectives). */
    int[] neighborsOf(int rank) {
        int from = rank == 0 ? 0 : index[rank - 1];
        return Arrays.copyOfRange(edges, from, index[rank]);
    }

    /** MPI_Graph_neighbors. */
    int[] neighbors(int rank) throws MPIException {
        if (rank < 0 || rank >= index.length) {
            throw MPIException.of(ErrorClass.ERR_RANK, "rank " + rank + " is not a node of the "
                    + "graph (" + index.length + " nodes)");
        }
        return neighborsOf(rank);
    }
}
