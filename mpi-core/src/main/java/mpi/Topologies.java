package mpi;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.verbatim.runtime.Engine;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;

/**
 * Creation of topology communicators from an intra-communicator. Each call checks its arguments
 * first (so bad input fails before any communication), then agrees on a context over the whole
 * parent (every parent rank takes part, members or not), then binds the members in their new
 * order. Verbatim never reorders: keeping the parent order is always a valid MPI mapping.
 */
final class Topologies {
    /**
     * The tag of the distributed-graph edge exchange on the parent's collective context:
     * above MPI.TAG_UB like the runtime's Agreement tag, so no collective sequence tag can
     * match it.
     */
    static final int EDGE_EXCHANGE_TAG = 0x7fff_0010;

    private Topologies() {
    }

    static CartComm createCart(Intracomm parent, int[] dims, boolean[] periods, boolean reorder)
            throws MPIException {
        String call = "MPI_Cart_create";
        check(parent, call);
        CartTopology topo;
        try {
            topo = CartTopology.of(dims, periods, parent.world.length);
        } catch (MPIException e) {
            throw parent.raise(call, e.getErrorClass(), e.getMessage());
        }
        int ctx = parent.agreeContext(call);
        return bindMembers(parent, new CartComm(topo), ctx, firstRanks(topo.size));
    }

    static GraphComm createGraph(Intracomm parent, int[] index, int[] edges, boolean reorder)
            throws MPIException {
        String call = "MPI_Graph_create";
        check(parent, call);
        GraphTopology topo;
        try {
            topo = GraphTopology.of(index, edges, parent.world.length);
        } catch (MPIException e) {
            throw parent.raise(call, e.getErrorClass(), e.getMessage());
        }
        int ctx = parent.agreeContext(call);
        return bindMembers(parent, new GraphComm(topo), ctx, firstRanks(topo.nnodes()));
    }

    /** MPI_Dist_graph_create_adjacent: each rank names its own in- and out-neighbours. */
    static GraphComm createDistGraphAdjacent(Intracomm parent, int[] sources, int[] sourceWeights,
                                             int[] destinations, int[] destWeights,
                                             boolean weighted) throws MPIException {
        String call = "MPI_Dist_graph_create_adjacent";
        check(parent, call);
        int size = parent.world.length;
        try {
            checkRanks("sources", sources, size);
            checkRanks("destinations", destinations, size);
            if (weighted) {
                checkWeights("sourceWeights", sourceWeights, sources.length);
                checkWeights("destWeights", destWeights, destinations.length);
            }
        } catch (MPIException e) {
            throw parent.raise(call, e.getErrorClass(), e.getMessage());
        }
        DistGraphTopology topo = new DistGraphTopology(sources.clone(),
                weighted ? Arrays.copyOf(sourceWeights, sources.length) : ones(sources.length),
                destinations.clone(),
                weighted ? Arrays.copyOf(destWeights, destinations.length)
                        : ones(destinations.length), weighted);
        int ctx = parent.agreeContext(call);
        return bindMembers(parent, new GraphComm(topo), ctx, firstRanks(size));
    }

    /**
     * MPI_Dist_graph_create: each rank names any edges (source i has degrees[i] destinations,
     * taken in turn from destinations[]); every edge is sent to both of its ends. A rank's
     * neighbours are ordered by the rank that named the edge, then by the order it named them.
     */
    static GraphComm createDistGraph(Intracomm parent, int[] sources, int[] degrees,
                                     int[] destinations, int[] weights, boolean weighted)
            throws MPIException {
        String call = "MPI_Dist_graph_create";
        check(parent, call);
        int size = parent.world.length;
        int edgeCount = 0;
        try {
            checkRanks("sources", sources, size);
            if (degrees == null || degrees.length != sources.length) {
                throw MPIException.of(ErrorClass.ERR_ARG, "degrees must have one entry per "
                        + "source (" + sources.length + ")");
            }
            for (int i = 0; i < degrees.length; i++) {
                if (degrees[i] < 0) {
                    throw MPIException.of(ErrorClass.ERR_ARG, "degrees[" + i + "] = "
                            + degrees[i] + " is negative");
                }
                edgeCount += degrees[i];
            }
            if (destinations == null || destinations.length < edgeCount) {
                throw MPIException.of(ErrorClass.ERR_ARG, "destinations must hold the "
                        + edgeCount + " edges the degrees announce");
            }
            checkRanks("destinations", Arrays.copyOf(destinations, edgeCount), size);
            if (weighted) {
                checkWeights("weights", weights, edgeCount);
            }
        } catch (MPIException e) {
            throw parent.raise(call, e.getErrorClass(), e.getMessage());
        }
        // (kind, peer, weight) triples for each rank: kind 0 = an out-edge to peer, 1 = an
        // in-edge from peer
        IntList[] toRank = new IntList[size];
        for (int q = 0; q < size; q++) {
            toRank[q] = new IntList();
        }
        for (int i = 0, k = 0; i < sources.length; i++) {
            for (int j = 0; j < degrees[i]; j++, k++) {
                int w = weighted ? weights[k] : 1;
                toRank[sources[i]].add(0, destinations[k], w);
                toRank[destinations[k]].add(1, sources[i], w);
            }
        }
        int[][] received;
        try {
            received = exchange(parent, toRank);
        } catch (MpiError e) {
            throw parent.raise(call, e);
        }
        IntList in = new IntList();
        IntList out = new IntList();
        for (int[] triples : received) {
            for (int t = 0; t < triples.length; t += 3) {
                (triples[t] == 0 ? out : in).add(triples[t + 1], triples[t + 2]);
            }
        }
        DistGraphTopology topo = new DistGraphTopology(in.column(0, 2), in.column(1, 2),
                out.column(0, 2), out.column(1, 2), weighted);
        int ctx = parent.agreeContext(call);
        return bindMembers(parent, new GraphComm(topo), ctx, firstRanks(size));
    }

    /**
     * Sends {@code toRank[q]} to each rank q and returns what each rank sent here, indexed by
     * sender: a count message, then (if non-empty) the data, on the collective context. All
     * receives are posted before any wait, so rendezvous-sized lists cannot deadlock.
     */
    private static int[][] exchange(Comm c, IntList[] toRank) {
        Engine e = c.engine();
        int ctx = c.collectiveContext();
        int p = c.world.length;
        int me = c.rank;
        int[][] counts = new int[p][1];
        RequestState[] countRecv = new RequestState[p];
        List<RequestState> pending = new ArrayList<>();
        for (int q = 0; q < p; q++) {
            if (q != me) {
                countRecv[q] = e.p2p().receive(ctx, q, EDGE_EXCHANGE_TAG,
                        MemorySegment.ofArray(counts[q]), counts[q], null);
            }
        }
        for (int q = 0; q < p; q++) {
            if (q == me) {
                continue;
            }
            int[] data = toRank[q].toArray();
            int[] count = {data.length};
            pending.add(e.p2p().send(ctx, me, c.world[q], EDGE_EXCHANGE_TAG,
                    MemorySegment.ofArray(count), count, Mode.STANDARD));
            if (data.length > 0) {
                pending.add(e.p2p().send(ctx, me, c.world[q], EDGE_EXCHANGE_TAG,
                        MemorySegment.ofArray(data), data, Mode.STANDARD));
            }
        }
        int[][] received = new int[p][];
        received[me] = toRank[me].toArray();
        for (int q = 0; q < p; q++) {
            if (q == me) {
                continue;
            }
            e.await(countRecv[q]);
            received[q] = new int[counts[q][0]];
            if (received[q].length > 0) {
                pending.add(e.p2p().receive(ctx, q, EDGE_EXCHANGE_TAG,
                        MemorySegment.ofArray(received[q]), received[q], null));
            }
        }
        for (RequestState r : pending) {
            e.await(r);
        }
        return received;
    }

    /**
     * Binds {@code c} for the parent ranks in {@code members} (parent ranks in new-rank order)
     * with context {@code ctx}; a non-member gets {@code c} unbound, so its isNull() is true.
     */
    static <C extends Comm> C bindMembers(Comm parent, C c, int ctx, int[] members) {
        int newRank = -1;
        int[] world = new int[members.length];
        for (int i = 0; i < members.length; i++) {
            world[i] = parent.world[members[i]];
            if (members[i] == parent.rank) {
                newRank = i;
            }
        }
        c.errhandler = parent.errhandler;
        if (newRank >= 0) {
            c.bind(parent.process, ctx, world, newRank, "");
        }
        return c;
    }

    private static void check(Comm parent, String call) throws MPIException {
        MPI.check();
        parent.checkUsable(call);
    }

    private static int[] firstRanks(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    private static int[] ones(int n) {
        int[] w = new int[n];
        Arrays.fill(w, 1);
        return w;
    }

    private static void checkRanks(String what, int[] ranks, int size) throws MPIException {
        if (ranks == null) {
            throw MPIException.of(ErrorClass.ERR_ARG, what + " is null");
        }
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] < 0 || ranks[i] >= size) {
                throw MPIException.of(ErrorClass.ERR_RANK, what + "[" + i + "] = " + ranks[i]
                        + " is not a rank of the communicator (size " + size + ")");
            }
        }
    }

    private static void checkWeights(String what, int[] weights, int needed) throws MPIException {
        if (weights == null || weights.length < needed) {
            throw MPIException.of(ErrorClass.ERR_ARG, what + " must hold " + needed
                    + " weights");
        }
        for (int i = 0; i < needed; i++) {
            if (weights[i] < 0) {
                throw MPIException.of(ErrorClass.ERR_ARG, what + "[" + i + "] = " + weights[i]
                        + " is negative");
            }
        }
    }

    /** A growable int array of fixed-width records. */
    private static final class IntList {
        private int[] a = new int[12];
        private int n;

        void add(int... values) {
            if (n + values.length > a.length) {
                a = Arrays.copyOf(a, Math.max(2 * a.length, n + values.length));
            }
            System.arraycopy(values, 0, a, n, values.length);
            n += values.length;
        }

        int[] toArray() {
            return Arrays.copyOf(a, n);
        }

        /** Field {@code field} of each record of {@code width} ints. */
        int[] column(int field, int width) {
            int[] c = new int[n / width];
            for (int i = 0; i < c.length; i++) {
                c[i] = a[i * width + field];
            }
            return c;
        }
    }
}
