package mpi;

/**
 * MPI_Dist_graph_neighbors' results: in-neighbours (sources) and out-neighbours (destinations)
 * with their weights. For an unweighted graph the weight getters are not meaningful.
 */
public final class DistGraphNeighbors {
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    protected DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations,
                                 int[] destWeights, boolean weighted) {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
        this.weighted = weighted;
    }

    /** The number of incoming neighbours. */
    public int getInDegree() {
        return sources.length;
    }

    /** The number of outgoing neighbours. */
    public int getOutDegree() {
        return destinations.length;
    }

    /** True if the graph was created with edge weights. */
    public boolean isWeighted() {
        return weighted;
    }

    /** The rank of incoming neighbour {@code i}. */
    public int getSource(int i) {
        return sources[i];
    }

    /** The weight of the edge from incoming neighbour {@code i}. */
    public int getSourceWeight(int i) {
        return sourceWeights[i];
    }

    /** The rank of outgoing neighbour {@code i}. */
    public int getDestination(int i) {
        return destinations[i];
    }

    /** The weight of the edge to outgoing neighbour {@code i}. */
    public int getDestinationWeight(int i) {
        return destWeights[i];
    }
}
