package org.verbatim.mpitests;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.CartComm;
import mpi.CartParms;
import mpi.Comm;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.ShiftParms;

/**
 * Groups, attributes and topologies on any number of ranks: every topology is checked against
 * the arithmetic MPI defines, then used for traffic between the neighbours it names, so a wrong
 * context, rank order or neighbour list shows up as a wrong value (or a hang, which the harness
 * time limit catches).
 *
 * <p>Argument: the expected number of ranks.
 */
public final class TopologyProgram {
    private static final int TAG = 7;

    private final Checks c;
    private final Intracomm world = MPI.COMM_WORLD;
    private final int rank;
    private final int size;

    private TopologyProgram(Checks c, int rank, int size) {
        this.c = c;
        this.rank = rank;
        this.size = size;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Checks c = new Checks(rank);
        c.equal("size", Integer.parseInt(args[0]), size);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        TopologyProgram p = new TopologyProgram(c, rank, size);
        c.run("groups", p::groups);
        c.run("attributes", p::attributes);
        c.run("cartesian", p::cartesian);
        c.run("cartesian subset", p::cartesianSubset);
        c.run("graph", p::graph);
        c.run("distributed graph", p::distGraph);
        c.run("adjacent distributed graph", p::adjacentDistGraph);
        c.run("bad input", p::badInput);
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }

    // ------------------------------------------------------------------ groups

    private void groups() throws Exception {
        Group g = world.getGroup();
        c.equal("world group size", size, g.getSize());
        c.equal("world group rank", rank, g.getRank());
        int[] reversed = new int[size];
        for (int i = 0; i < size; i++) {
            reversed[i] = size - 1 - i;
        }
        Group rev = g.incl(reversed);
        c.equal("reversed group rank", size - 1 - rank, rev.getRank());
        c.equal("translate to reversed", Arrays.toString(reversed),
                Arrays.toString(Group.translateRanks(g, identity(size), rev)));
        c.equal("compare reversed", size == 1 ? MPI.IDENT : MPI.SIMILAR, Group.compare(g, rev));
        Intracomm dup = world.dup();
        c.equal("dup's group is identical", MPI.IDENT, Group.compare(g, dup.getGroup()));
        Group evens = g.rangeIncl(new int[][] {{0, size - 1, 2}});
        c.equal("evens size", (size + 1) / 2, evens.getSize());
        c.equal("evens rank", rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED, evens.getRank());
        Group odds = g.rangeExcl(new int[][] {{0, size - 1, 2}});
        c.equal("odds size", size / 2, odds.getSize());
        c.equal("union of evens and odds", size <= 2 ? MPI.IDENT : MPI.SIMILAR,
                Group.compare(Group.union(evens, odds), g));
        c.equal("intersection of evens and odds", 0,
                Group.intersection(evens, odds).getSize());
        c.equal("world minus evens is odds", MPI.IDENT,
                Group.compare(Group.difference(g, evens), odds));
        if (size > 1) {
            Group down = g.rangeIncl(new int[][] {{size - 1, 0, -1}});
            c.equal("negative stride is the reversed group", MPI.IDENT, Group.compare(down, rev));
        }
        c.equal("self group", MPI.IDENT, Group.compare(MPI.COMM_SELF.getGroup(),
                g.incl(new int[] {rank})));
        dup.free();
        g.free();
        c.check("freed group isNull", g.isNull(), "false");
    }

    // ------------------------------------------------------------------ attributes

    private void attributes() throws Exception {
        c.equal("TAG_UB at least 32767", 1, (Integer) world.getAttr(MPI.TAG_UB) >= 32767 ? 1 : 0);
        // what may run, spawned processes included: the online cores, at least the job's size
        int universe = (Integer) world.getAttr(MPI.UNIVERSE_SIZE);
        c.check("UNIVERSE_SIZE at least the world's size", universe >= size, "got " + universe);
        c.equal("APPNUM", 0, world.getAttr(MPI.APPNUM));
        c.equal("WTIME_IS_GLOBAL", Boolean.FALSE, world.getAttr(MPI.WTIME_IS_GLOBAL));
        int key = Comm.createKeyval();
        Intracomm a = world.dup();
        a.setAttr(key, "rank " + rank);
        Intracomm b = a.dup();
        c.equal("dup copies the attribute", "rank " + rank, b.getAttr(key));
        c.equal("dup keeps predefined attributes", universe, b.getAttr(MPI.UNIVERSE_SIZE));
        b.setAttr(key, rank * 10);
        c.equal("the original keeps its value", "rank " + rank, a.getAttr(key));
        Intracomm split = a.createCart(new int[] {size}, new boolean[] {false}, false);
        c.check("a new (non-dup) communicator has no attributes", split.getAttr(key) == null,
                "got " + split.getAttr(key));
        a.free();
        c.expectError("attribute of a freed communicator", MPI.ERR_COMM, null,
                () -> a.getAttr(key));
        c.equal("the dup keeps its own value", rank * 10, b.getAttr(key));
        b.deleteAttr(key);
        c.check("deleted", b.getAttr(key) == null, "still set");
        Comm.freeKeyval(key);
        c.expectError("freed keyval", MPI.ERR_KEYVAL, "MPI_Comm_set_attr",
                () -> b.setAttr(key, 1));
        b.free();
        split.free();
    }

    // ------------------------------------------------------------------ cartesian

    private void cartesian() throws Exception {
        int[] dims = new int[2];
        CartComm.createDims(size, dims);
        c.equal("createDims product", size, dims[0] * dims[1]);
        boolean[] periods = {true, false};
        CartComm cart = world.createCart(dims, periods, false);
        c.equal("cart topology", MPI.CART, cart.getTopology());
        c.equal("cart size", size, cart.getSize());
        c.equal("cart rank", rank, cart.getRank());
        CartParms parms = cart.getTopo();
        int[] me = {rank / dims[1], rank % dims[1]};
        c.equal("getTopo dims", dims[0] + "x" + dims[1], parms.getDim(0) + "x" + parms.getDim(1));
        c.equal("getTopo coords", Arrays.toString(me), "[" + parms.getCoord(0) + ", "
                + parms.getCoord(1) + "]");
        c.equal("getCoords", Arrays.toString(me), Arrays.toString(cart.getCoords(rank)));
        c.equal("getRank(coords)", rank, cart.getRank(me));
        ShiftParms down = cart.shift(0, 1);
        int expectDest = ((me[0] + 1) % dims[0]) * dims[1] + me[1];
        int expectSource = ((me[0] - 1 + dims[0]) % dims[0]) * dims[1] + me[1];
        c.equal("periodic shift dest", expectDest, down.getRankDest());
        c.equal("periodic shift source", expectSource, down.getRankSource());
        ShiftParms right = cart.shift(1, 1);
        c.equal("non-periodic shift dest", me[1] + 1 < dims[1] ? rank + 1 : MPI.PROC_NULL,
                right.getRankDest());
        c.equal("non-periodic shift source", me[1] > 0 ? rank - 1 : MPI.PROC_NULL,
                right.getRankSource());
        // traffic along the periodic dimension: what arrives is the source's rank
        int[] got = {-1};
        cart.sendRecv(new int[] {rank}, 1, MPI.INT, down.getRankDest(), TAG, got, 1, MPI.INT,
                down.getRankSource(), TAG);
        c.equal("shift traffic", expectSource, got[0]);
        int[] neighbours = cartNeighbours(cart, dims, me);
        exchangeWithNeighbours("cart neighbours", cart, neighbours, neighbours);
        // the neighbourhood collectives take the same order: per dimension, -1 then +1
        int[] gathered = {-7, -7, -7, -7};
        cart.neighborAllGather(new int[] {rank}, 1, MPI.INT, gathered, 1, MPI.INT);
        int[] expectGathered = neighbours.clone();
        for (int i = 0; i < 4; i++) {
            expectGathered[i] = neighbours[i] == MPI.PROC_NULL ? -7 : neighbours[i];
        }
        c.equal("neighborAllGather in cart order", Arrays.toString(expectGathered),
                Arrays.toString(gathered));

        CartComm rows = cart.sub(new boolean[] {false, true});
        c.equal("row sub size", dims[1], rows.getSize());
        c.equal("row sub rank", me[1], rows.getRank());
        c.equal("row sub dims", 1, rows.getTopo().getDimCount());
        CartComm cols = cart.sub(new boolean[] {true, false});
        c.equal("column sub size", dims[0], cols.getSize());
        c.equal("column sub rank", me[0], cols.getRank());
        c.check("column sub is periodic", cols.getTopo().getPeriod(0), "not periodic");
        // a ring in each column: the value from the previous column member is its world rank
        int prev = (me[0] - 1 + dims[0]) % dims[0];
        int[] v = {-1};
        cols.sendRecv(new int[] {rank}, 1, MPI.INT, (me[0] + 1) % dims[0], TAG, v, 1, MPI.INT,
                prev, TAG);
        c.equal("column ring traffic", prev * dims[1] + me[1], v[0]);
        int[] rowSum = {0};
        for (int i = 0; i < rows.getSize(); i++) {
            int[] x = {rank};
            int[] y = {-1};
            int to = (me[1] + i) % dims[1];
            int from = (me[1] - i + dims[1]) % dims[1];
            rows.sendRecv(x, 1, MPI.INT, to, TAG, y, 1, MPI.INT, from, TAG);
            rowSum[0] += y[0];
        }
        int expectRow = 0;
        for (int j = 0; j < dims[1]; j++) {
            expectRow += me[0] * dims[1] + j;
        }
        c.equal("row all-to-all over sub", expectRow, rowSum[0]);
        CartComm point = cart.sub(new boolean[] {false, false});
        c.equal("zero-dimensional sub size", 1, point.getSize());
        c.equal("cart dup keeps the topology", MPI.CART, cart.dup().getTopology());
        c.equal("map", rank, cart.map(dims, periods));
        rows.free();
        cols.free();
        point.free();
        cart.free();
    }

    private static int[] cartNeighbours(CartComm cart, int[] dims, int[] me) throws Exception {
        int[] n = new int[4];
        for (int d = 0; d < 2; d++) {
            ShiftParms s = cart.shift(d, 1);
            n[2 * d] = s.getRankSource();
            n[2 * d + 1] = s.getRankDest();
        }
        return n;
    }

    private void cartesianSubset() throws Exception {
        int used = Math.max(1, size - 1);
        CartComm line = world.createCart(new int[] {used}, new boolean[] {false}, false);
        if (rank < used) {
            c.check("member is not null", !line.isNull(), "isNull");
            c.equal("line size", used, line.getSize());
            c.equal("line rank", rank, line.getRank());
            int[] got = {-2};
            ShiftParms s = line.shift(0, 1);
            line.sendRecv(new int[] {rank}, 1, MPI.INT, s.getRankDest(), TAG, got, 1, MPI.INT,
                    s.getRankSource(), TAG);
            c.equal("line traffic", rank == 0 ? -2 : rank - 1, got[0]);
            line.free();
        } else {
            c.check("rank outside the grid gets a null communicator", line.isNull(), "not null");
        }
    }

    // ------------------------------------------------------------------ graphs

    private void graph() throws Exception {
        // a ring: node i is joined to i-1 and i+1
        int[] index = new int[size];
        int[] edges = new int[2 * size];
        for (int i = 0; i < size; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i - 1 + size) % size;
            edges[2 * i + 1] = (i + 1) % size;
        }
        GraphComm g = world.createGraph(index, edges, false);
        c.equal("graph topology", MPI.GRAPH, g.getTopology());
        c.equal("graph index count", size, g.getDims().getIndexCount());
        c.equal("graph edge count", 2 * size, g.getDims().getEdgeCount());
        int[] mine = g.getNeighbors(rank);
        c.equal("graph neighbours", "[" + (rank - 1 + size) % size + ", " + (rank + 1) % size
                + "]", Arrays.toString(mine));
        exchangeWithNeighbours("graph neighbours", g, mine, mine);
        c.equal("graph map", rank, g.map(index, edges));
        c.expectError("dist neighbours of a graph", MPI.ERR_TOPOLOGY,
                "MPI_Dist_graph_neighbors", g::getDistGraphNeighbors);
        g.free();
    }

    /**
     * Rank 0 names an edge q -> 0 for every q (non-local edges), and every rank names its own
     * edge r -> r+1; weights tell the edges apart.
     */
    private void distGraph() throws Exception {
        List<int[]> named = new ArrayList<>(); // {namer, source, dest, weight} in naming order
        for (int namer = 0; namer < size; namer++) {
            if (namer == 0) {
                named.add(new int[] {0, 0, 1 % size, 0});
                for (int q = 0; q < size; q++) {
                    named.add(new int[] {0, q, 0, 100 + q});
                }
            } else {
                named.add(new int[] {namer, namer, (namer + 1) % size, namer});
            }
        }
        int[] sources;
        int[] degrees;
        int[] dests;
        int[] weights;
        if (rank == 0) {
            sources = identity(size);
            degrees = new int[size];
            Arrays.fill(degrees, 1);
            degrees[0] = 2;
            dests = new int[size + 1];
            weights = new int[size + 1];
            dests[0] = 1 % size;
            weights[0] = 0;
            for (int q = 0; q < size; q++) {
                dests[q + 1] = 0;
                weights[q + 1] = 100 + q;
            }
        } else {
            sources = new int[] {rank};
            degrees = new int[] {1};
            dests = new int[] {(rank + 1) % size};
            weights = new int[] {rank};
        }
        GraphComm d = world.createDistGraph(sources, degrees, dests, weights, MPI.INFO_NULL,
                false);
        c.equal("dist graph topology", MPI.DIST_GRAPH, d.getTopology());
        DistGraphNeighbors n = d.getDistGraphNeighbors();
        c.check("weighted", n.isWeighted(), "not weighted");
        List<String> expectIn = new ArrayList<>();
        List<String> expectOut = new ArrayList<>();
        for (int[] e : named) {
            if (e[2] == rank) {
                expectIn.add(e[1] + "/" + e[3]);
            }
            if (e[1] == rank) {
                expectOut.add(e[2] + "/" + e[3]);
            }
        }
        List<String> in = new ArrayList<>();
        for (int i = 0; i < n.getInDegree(); i++) {
            in.add(n.getSource(i) + "/" + n.getSourceWeight(i));
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n.getOutDegree(); i++) {
            out.add(n.getDestination(i) + "/" + n.getDestinationWeight(i));
        }
        c.equal("in-neighbours by namer, then naming order", expectIn, in);
        c.equal("out-neighbours by namer, then naming order", expectOut, out);
        // every edge carries its weight: the k-th message from s matches the k-th in-edge from s
        Request[] recvs = new Request[n.getInDegree()];
        IntBuffer[] bufs = new IntBuffer[recvs.length];
        for (int i = 0; i < recvs.length; i++) {
            bufs[i] = MPI.newIntBuffer(1);
            recvs[i] = d.iRecv(bufs[i], 1, MPI.INT, n.getSource(i), TAG);
        }
        for (int i = 0; i < n.getOutDegree(); i++) {
            d.send(new int[] {n.getDestinationWeight(i)}, 1, MPI.INT, n.getDestination(i), TAG);
        }
        Request.waitAll(recvs);
        boolean ok = true;
        for (int i = 0; i < recvs.length; i++) {
            ok &= bufs[i].get(0) == n.getSourceWeight(i);
        }
        c.check("dist graph traffic along every edge", ok, "weights differ");
        int[] fromSources = new int[n.getInDegree()];
        d.neighborAllGather(new int[] {rank}, 1, MPI.INT, fromSources, 1, MPI.INT);
        int[] expectSources = new int[n.getInDegree()];
        for (int i = 0; i < expectSources.length; i++) {
            expectSources[i] = n.getSource(i);
        }
        c.equal("neighborAllGather in dist-graph source order", Arrays.toString(expectSources),
                Arrays.toString(fromSources));
        c.expectError("graph neighbours of a dist graph", MPI.ERR_TOPOLOGY, "MPI_Graph_get",
                d::getDims);
        c.equal("dist graph dup keeps the topology", MPI.DIST_GRAPH, d.dup().getTopology());
        d.free();

        GraphComm u = world.createDistGraph(new int[] {rank}, new int[] {1},
                new int[] {(rank + 1) % size}, MPI.INFO_NULL, false);
        DistGraphNeighbors un = u.getDistGraphNeighbors();
        c.check("unweighted", !un.isWeighted(), "weighted");
        c.equal("unweighted ring source", (rank - 1 + size) % size, un.getSource(0));
        u.free();
    }

    private void adjacentDistGraph() throws Exception {
        int prev = (rank - 1 + size) % size;
        int next = (rank + 1) % size;
        GraphComm u = world.createDistGraphAdjacent(new int[] {prev}, new int[] {next},
                MPI.INFO_NULL, false);
        exchangeWithNeighbours("adjacent ring", u, new int[] {prev}, new int[] {next});
        GraphComm w = world.createDistGraphAdjacent(new int[] {prev}, new int[] {rank},
                new int[] {next}, new int[] {next}, MPI.INFO_NULL, false);
        DistGraphNeighbors n = w.getDistGraphNeighbors();
        c.equal("adjacent weights", rank + "/" + next, n.getSourceWeight(0) + "/"
                + n.getDestinationWeight(0));
        u.free();
        w.free();
    }

    // ------------------------------------------------------------------ bad input

    private void badInput() throws Exception {
        c.expectError("grid larger than the communicator", MPI.ERR_DIMS, "MPI_Cart_create",
                () -> world.createCart(new int[] {size + 1}, new boolean[] {false}, false));
        c.expectError("zero extent", MPI.ERR_DIMS, "MPI_Cart_create",
                () -> world.createCart(new int[] {0}, new boolean[] {false}, false));
        c.expectError("periods of another length", MPI.ERR_ARG, "MPI_Cart_create",
                () -> world.createCart(new int[] {1}, new boolean[2], false));
        c.expectError("graph edge to no node", MPI.ERR_TOPOLOGY, "MPI_Graph_create",
                () -> world.createGraph(new int[] {1}, new int[] {1}, false));
        c.expectError("dist graph rank out of range", MPI.ERR_RANK, "MPI_Dist_graph_create",
                () -> world.createDistGraph(new int[] {size}, new int[] {0}, new int[0],
                        MPI.INFO_NULL, false));
        c.expectError("negative weight", MPI.ERR_ARG, "MPI_Dist_graph_create_adjacent",
                () -> world.createDistGraphAdjacent(new int[] {0}, new int[] {-1},
                        new int[0], new int[0], MPI.INFO_NULL, false));
        c.expectError("createDims that cannot be met", MPI.ERR_DIMS, "MPI_Dims_create",
                () -> CartComm.createDims(size, new int[] {size + 1, 0}));
        c.expectError("bad group range", MPI.ERR_RANK, "MPI_Group_range_incl",
                () -> world.getGroup().rangeIncl(new int[][] {{0, size, 1}}));
        // after the errors the world still works
        world.barrier();
        c.pass("world usable after the errors");
    }

    // ------------------------------------------------------------------ helpers

    /** Sends this rank's number to each destination; each source's number must arrive. */
    private void exchangeWithNeighbours(String name, Comm comm, int[] sources, int[] dests)
            throws Exception {
        Request[] recvs = new Request[sources.length];
        IntBuffer[] bufs = new IntBuffer[sources.length];
        for (int i = 0; i < sources.length; i++) {
            bufs[i] = MPI.newIntBuffer(1);
            bufs[i].put(0, -7);
            recvs[i] = comm.iRecv(bufs[i], 1, MPI.INT, sources[i], TAG);
        }
        int me = comm.getRank();
        for (int dest : dests) {
            comm.send(new int[] {me}, 1, MPI.INT, dest, TAG);
        }
        Request.waitAll(recvs);
        boolean ok = true;
        StringBuilder got = new StringBuilder();
        for (int i = 0; i < sources.length; i++) {
            int expect = sources[i] == MPI.PROC_NULL ? -7 : sources[i];
            ok &= bufs[i].get(0) == expect;
            got.append(bufs[i].get(0)).append(' ');
        }
        c.check(name + " traffic", ok, "from " + Arrays.toString(sources) + " got " + got);
    }

    private static int[] identity(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }
}
