package mpi;

/** An intra-communicator: COMM_WORLD, COMM_SELF, and those made from them. */
public class Intracomm extends Comm {
    Intracomm() {
    }

    @Override
    public Intracomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public Intracomm dup() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_dup");
        Intracomm c = new Intracomm();
        initDup(c, "MPI_Comm_dup");
        return c;
    }

    // ------------------------------------------------------------------ topologies

    /** MPI_Cart_create; ranks outside the grid get a communicator whose isNull() is true. */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder)
            throws MPIException {
        return Topologies.createCart(this, dims, periods, reorder);
    }

    /** MPI_Graph_create; ranks outside the graph get a communicator whose isNull() is true. */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder)
            throws MPIException {
        return Topologies.createGraph(this, index, edges, reorder);
    }

    /** MPI_Dist_graph_create with edge weights. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations,
                                           int[] weights, Info info, boolean reorder)
            throws MPIException {
        return Topologies.createDistGraph(this, sources, degrees, destinations, weights, true);
    }

    /** MPI_Dist_graph_create, unweighted. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations,
                                           Info info, boolean reorder) throws MPIException {
        return Topologies.createDistGraph(this, sources, degrees, destinations, null, false);
    }

    /** MPI_Dist_graph_create_adjacent, unweighted. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info,
                                                   boolean reorder) throws MPIException {
        return Topologies.createDistGraphAdjacent(this, sources, null, destinations, null,
                false);
    }

    /** MPI_Dist_graph_create_adjacent with edge weights. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights,
                                                   int[] destinations, int[] destWeights,
                                                   Info info, boolean reorder)
            throws MPIException {
        return Topologies.createDistGraphAdjacent(this, sources, sourceWeights, destinations,
                destWeights, true);
    }
}
