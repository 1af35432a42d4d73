package mpi;

/**
 * A distributed graph as one rank sees it: its in-neighbours (sources) and out-neighbours
 * (destinations) with their weights, in the order neighbourhood collectives use.
 */
final class DistGraphTopology {
    final int[] sources;
    final int[] sourceWeights;
    final int[] destinations;
    final int[] destWeights;
    final boolean weighted;

    DistGraphTopology(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights,
                      boolean weighted) {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
        this.weighted = weighted;
    }
}
