package mpi;

import org.verbatim.runtime.base.ErrorClass;

/**
 * A communicator with a graph topology: a general graph from {@link Intracomm#createGraph}
 * (every rank knows the whole graph) or a distributed graph from
 * {@link Intracomm#createDistGraph} and {@link Intracomm#createDistGraphAdjacent} (each rank
 * knows its own in- and out-neighbours). Verbatim never reorders ranks.
 */
public final class GraphComm extends Intracomm {
    /** The general graph, or null for a distributed graph. */
    final GraphTopology graph;
    /** This rank's neighbours in a distributed graph, or null for a general graph. */
    final DistGraphTopology dist;

    GraphComm(GraphTopology graph) {
        this.graph = graph;
        this.dist = null;
    }

    GraphComm(DistGraphTopology dist) {
        this.graph = null;
        this.dist = dist;
    }

    /** A duplicate of this graph communicator ({@link #dup}). */
    @Override
    public GraphComm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** Duplicates this communicator with its graph topology (MPI_Comm_dup). */
    @Override
    public GraphComm dup() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_dup");
        GraphComm c = graph != null ? new GraphComm(graph) : new GraphComm(dist);
        initDup(c, "MPI_Comm_dup");
        return c;
    }

    /** MPI_Comm_idup: the new communicator is ready at return; its getRequest() is complete. */
    @Override
    public GraphComm iDup() throws MPIException {
        GraphComm c = dup();
        c.request = Request.completed(this, "MPI_Comm_idup");
        return c;
    }

    /** As {@link #dup}, with {@code info} attached (MPI_Comm_dup_with_info). */
    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        GraphComm c = dup();
        c.setInfo(info);
        return c;
    }

    /** MPI_Graph_get: the index and edges arrays. */
    public GraphParms getDims() throws MPIException {
        requireGraph("MPI_Graph_get");
        return new GraphParms(graph.index.clone(), graph.edges.clone());
    }

    /** MPI_Graph_neighbors of {@code rank}. */
    public int[] getNeighbors(int rank) throws MPIException {
        requireGraph("MPI_Graph_neighbors");
        try {
            return graph.neighbors(rank);
        } catch (MPIException e) {
            throw raise("MPI_Graph_neighbors", e.getErrorClass(), e.getMessage());
        }
    }

    /** MPI_Dist_graph_neighbors: this rank's in- and out-neighbours with weights. */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        MPI.check();
        checkUsable("MPI_Dist_graph_neighbors");
        if (dist == null) {
            throw raise("MPI_Dist_graph_neighbors", ErrorClass.ERR_TOPOLOGY,
                    "not a distributed-graph communicator (use getNeighbors)");
        }
        return new DistGraphNeighbors(dist.sources.clone(), dist.sourceWeights.clone(),
                dist.destinations.clone(), dist.destWeights.clone(), dist.weighted);
    }

    /** MPI_Graph_map: this rank's rank in such a graph (no reordering), or MPI.UNDEFINED. */
    public int map(int[] index, int[] edges) throws MPIException {
        MPI.check();
        checkUsable("MPI_Graph_map");
        try {
            GraphTopology g = GraphTopology.of(index, edges, world.length);
            return rank < g.nnodes() ? rank : MPI.UNDEFINED;
        } catch (MPIException e) {
            throw raise("MPI_Graph_map", e.getErrorClass(), e.getMessage());
        }
    }

    private void requireGraph(String call) throws MPIException {
        MPI.check();
        checkUsable(call);
        if (graph == null) {
            throw raise(call, ErrorClass.ERR_TOPOLOGY,
                    "not a graph communicator (a distributed graph: use getDistGraphNeighbors)");
        }
    }

    @Override
    int topologyKind() {
        return graph != null ? MPI.GRAPH : MPI.DIST_GRAPH;
    }

    @Override
    int[] neighborSources() {
        return graph != null ? graph.neighborsOf(rank) : dist.sources.clone();
    }

    @Override
    int[] neighborDestinations() {
        return graph != null ? graph.neighborsOf(rank) : dist.destinations.clone();
    }
}
