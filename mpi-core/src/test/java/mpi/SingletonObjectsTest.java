package mpi;

import static mpi.GroupAlgebraTest.assertError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Info, Group, attributes and topologies through the public API on a one-rank MPI job. */
class SingletonObjectsTest {
    @BeforeAll
    static void init() throws MPIException {
        SingletonMpi.init();
    }

    @Test
    void infoKeepsKeysInInsertionOrder() throws Exception {
        Info info = new Info();
        assertEquals(0, info.size());
        info.set("wdir", "/tmp");
        info.set("host", "a");
        info.set("wdir", "/var");
        assertEquals(2, info.size());
        assertEquals("wdir", info.getKey(0));
        assertEquals("host", info.getKey(1));
        assertEquals("/var", info.get("wdir"));
        assertNull(info.get("absent"));
        Info copy = info.dup();
        info.delete("wdir");
        assertEquals(1, info.size());
        assertEquals("host", info.getKey(0));
        assertEquals("/var", copy.get("wdir"));
        assertEquals(2, copy.clone().size());
        info.free();
        assertTrue(info.isNull());
        assertFalse(copy.isNull());
    }

    @Test
    void infoRefusesBadKeysValuesAndIndices() throws Exception {
        Info info = new Info();
        assertError(MPI.ERR_INFO_NOKEY, () -> info.delete("absent"));
        assertError(MPI.ERR_INFO_KEY, () -> info.set("k".repeat(MPI.MAX_INFO_KEY + 1), "v"));
        info.set("k".repeat(MPI.MAX_INFO_KEY), "v".repeat(MPI.MAX_INFO_VAL));
        assertError(MPI.ERR_INFO_KEY, () -> info.set("", "v"));
        assertError(MPI.ERR_INFO_KEY, () -> info.get(null));
        assertError(MPI.ERR_INFO_VALUE, () -> info.set("k", "v".repeat(MPI.MAX_INFO_VAL + 1)));
        assertError(MPI.ERR_INFO_VALUE, () -> info.set("k", null));
        assertError(MPI.ERR_ARG, () -> info.getKey(1));
        assertError(MPI.ERR_ARG, () -> info.getKey(-1));
        info.free();
        assertError(MPI.ERR_INFO, info::size);
        assertError(MPI.ERR_INFO, () -> info.set("a", "b"));
        assertTrue(MPI.INFO_NULL.isNull());
        assertError(MPI.ERR_INFO, () -> MPI.INFO_NULL.get("a"));
        assertError(MPI.ERR_INFO, MPI.INFO_NULL::dup);
    }

    @Test
    void infoEnvDescribesThisProcess() throws Exception {
        assertFalse(MPI.INFO_ENV.isNull());
        assertEquals("1", MPI.INFO_ENV.get("maxprocs"));
        assertEquals(System.getProperty("user.dir"), MPI.INFO_ENV.get("wdir"));
        assertEquals("MPI_THREAD_SINGLE", MPI.INFO_ENV.get("thread_level"));
        assertNotNull(MPI.INFO_ENV.get("host"));
        assertError(MPI.ERR_INFO, MPI.INFO_ENV::free);
        Info d = MPI.INFO_ENV.dup();
        assertEquals(MPI.INFO_ENV.size(), d.size());
    }

    @Test
    void groupsOfTheWorld() throws Exception {
        Group world = MPI.COMM_WORLD.getGroup();
        assertEquals(1, world.getSize());
        assertEquals(0, world.getRank());
        assertEquals(0, MPI.GROUP_EMPTY.getSize());
        assertEquals(MPI.UNDEFINED, MPI.GROUP_EMPTY.getRank());
        Group none = world.excl(new int[] {0});
        assertEquals(MPI.UNDEFINED, none.getRank());
        assertEquals(MPI.IDENT, Group.compare(none, MPI.GROUP_EMPTY));
        assertEquals(MPI.IDENT, Group.compare(world, MPI.COMM_SELF.getGroup()));
        assertArrayEquals(new int[] {MPI.UNDEFINED},
                Group.translateRanks(world, new int[] {0}, MPI.GROUP_EMPTY));
        assertEquals(1, Group.union(none, world).getSize());
        assertEquals(0, Group.intersection(none, world).getSize());
        assertEquals(1, world.rangeIncl(new int[][] {{0, 0, 1}}).getSize());
        assertEquals(0, world.rangeExcl(new int[][] {{0, 0, -1}}).getSize());
        assertError(MPI.ERR_RANK, () -> world.rangeIncl(new int[][] {{0, 1, 1}}));
        assertError(MPI.ERR_RANK, () -> world.incl(new int[] {1}));
        assertError(MPI.ERR_GROUP, MPI.GROUP_EMPTY::free);
        world.free();
        assertTrue(world.isNull());
        assertError(MPI.ERR_GROUP, world::getSize);
        assertError(MPI.ERR_GROUP, () -> Group.union(world, none));
    }

    @Test
    void predefinedAttributesLiveOnTheWorldAndItsDups() throws Exception {
        assertEquals(MPI.TAG_UB_VALUE, MPI.COMM_WORLD.getAttr(MPI.TAG_UB));
        assertEquals(MPI.PROC_NULL, MPI.COMM_WORLD.getAttr(MPI.HOST));
        assertEquals(MPI.ANY_SOURCE, MPI.COMM_WORLD.getAttr(MPI.IO));
        assertEquals(Boolean.FALSE, MPI.COMM_WORLD.getAttr(MPI.WTIME_IS_GLOBAL));
        assertEquals(0, MPI.COMM_WORLD.getAttr(MPI.APPNUM));
        assertEquals(1, MPI.COMM_WORLD.getAttr(MPI.UNIVERSE_SIZE));
        assertEquals(MPI.ERR_LASTCODE, MPI.COMM_WORLD.getAttr(MPI.LASTUSEDCODE));
        Intracomm dup = MPI.COMM_WORLD.dup();
        assertEquals(MPI.TAG_UB_VALUE, dup.getAttr(MPI.TAG_UB));
        assertEquals(MPI.TAG_UB_VALUE, dup.dup().getAttr(MPI.TAG_UB));
        assertNull(MPI.COMM_SELF.getAttr(MPI.TAG_UB));
        assertError(MPI.ERR_KEYVAL, () -> MPI.COMM_WORLD.getAttr(MPI.WIN_BASE));
        assertError(MPI.ERR_KEYVAL, () -> MPI.COMM_WORLD.setAttr(MPI.TAG_UB, 5));
        assertError(MPI.ERR_KEYVAL, () -> MPI.COMM_WORLD.deleteAttr(MPI.TAG_UB));
        assertError(MPI.ERR_KEYVAL, () -> Comm.freeKeyval(MPI.TAG_UB));
        dup.free();
    }

    @Test
    void userAttributesAreCopiedOnDupAndDeletedOnFree() throws Exception {
        int k = Comm.createKeyval();
        Intracomm c = MPI.COMM_SELF.dup();
        assertNull(c.getAttr(k));
        c.setAttr(k, new int[] {1, 2, 3});
        Intracomm d = c.dup();
        assertArrayEquals(new int[] {1, 2, 3}, (int[]) d.getAttr(k));
        d.setAttr(k, "other");
        assertArrayEquals(new int[] {1, 2, 3}, (int[]) c.getAttr(k));
        c.deleteAttr(k);
        assertNull(c.getAttr(k));
        assertError(MPI.ERR_KEYVAL, () -> c.deleteAttr(k));
        assertEquals("other", d.getAttr(k));
        Comm.freeKeyval(k);
        // MPI: a freed keyval keeps working for the attributes that use it until they go
        assertEquals("other", d.getAttr(k));
        d.deleteAttr(k);
        assertError(MPI.ERR_KEYVAL, () -> d.getAttr(k));
        assertError(MPI.ERR_KEYVAL, () -> d.setAttr(k, 1));
        d.free();
        c.free();
    }

    @Test
    void datatypeAttributesAreCopiedOnDupAndTypedApartFromCommunicators() throws Exception {
        int k = Datatype.createKeyval();
        Datatype t = MPI.INT.dup();
        t.setAttr(k, "tagged");
        Datatype u = t.dup();
        assertEquals("tagged", u.getAttr(k));
        u.deleteAttr(k);
        assertNull(u.getAttr(k));
        assertEquals("tagged", t.getAttr(k));
        assertError(MPI.ERR_KEYVAL, () -> u.deleteAttr(k));
        assertError(MPI.ERR_KEYVAL, () -> MPI.COMM_WORLD.setAttr(k, 1));
        int ck = Comm.createKeyval();
        assertError(MPI.ERR_KEYVAL, () -> t.setAttr(ck, 1));
        Comm.freeKeyval(ck);
        Datatype.freeKeyval(k);
        assertEquals("tagged", t.getAttr(k));
        t.deleteAttr(k);
        assertError(MPI.ERR_KEYVAL, () -> t.getAttr(k));
        t.free();
        u.free();
    }

    @Test
    void cartesianTopologiesOnOneRank() throws Exception {
        assertEquals(MPI.UNDEFINED, MPI.COMM_WORLD.getTopology());
        assertError(MPI.ERR_DIMS, () -> MPI.COMM_WORLD.createCart(new int[] {2},
                new boolean[] {true}, false));
        CartComm ring = MPI.COMM_WORLD.createCart(new int[] {1}, new boolean[] {true}, false);
        assertEquals(MPI.CART, ring.getTopology());
        assertEquals(1, ring.getSize());
        CartParms p = ring.getTopo();
        assertEquals(1, p.getDimCount());
        assertEquals(1, p.getDim(0));
        assertTrue(p.getPeriod(0));
        assertEquals(0, p.getCoord(0));
        assertEquals(0, ring.shift(0, 1).getRankDest());
        assertEquals(0, ring.shift(0, -5).getRankSource());
        assertArrayEquals(new int[] {0, 0}, ring.neighborSources());
        assertEquals(0, ring.getRank(new int[] {7}));
        assertArrayEquals(new int[] {0}, ring.getCoords(0));
        assertEquals(MPI.CART, ring.dup().getTopology());
        assertEquals(0, ring.map(new int[] {1}, new boolean[] {false}));
        CartComm point = ring.sub(new boolean[] {false});
        assertEquals(0, point.getTopo().getDimCount());
        CartComm line = MPI.COMM_WORLD.createCart(new int[] {1}, new boolean[] {false}, false);
        assertEquals(MPI.PROC_NULL, line.shift(0, 1).getRankDest());
        assertArrayEquals(new int[] {MPI.PROC_NULL, MPI.PROC_NULL}, line.neighborDestinations());
        assertError(MPI.ERR_DIMS, () -> line.shift(1, 1));
        assertError(MPI.ERR_ARG, () -> line.getRank(new int[] {1}));
        int[] dims = {0, 0};
        CartComm.createDims(1, dims);
        assertArrayEquals(new int[] {1, 1}, dims);
        assertError(MPI.ERR_DIMS, () -> CartComm.createDims(0, new int[] {0}));
        line.free();
        assertTrue(line.isNull());
    }

    @Test
    void graphTopologiesOnOneRank() throws Exception {
        GraphComm g = MPI.COMM_WORLD.createGraph(new int[] {1}, new int[] {0}, false);
        assertEquals(MPI.GRAPH, g.getTopology());
        assertArrayEquals(new int[] {0}, g.getNeighbors(0));
        assertEquals(1, g.getDims().getIndexCount());
        assertEquals(0, g.getDims().getEdge(0));
        assertError(MPI.ERR_TOPOLOGY, g::getDistGraphNeighbors);
        assertError(MPI.ERR_RANK, () -> g.getNeighbors(1));
        GraphComm empty = MPI.COMM_WORLD.createGraph(new int[0], new int[0], false);
        assertTrue(empty.isNull());

        GraphComm d = MPI.COMM_WORLD.createDistGraphAdjacent(new int[] {0, 0}, new int[] {4, 5},
                new int[] {0}, new int[] {6}, MPI.INFO_NULL, false);
        assertEquals(MPI.DIST_GRAPH, d.getTopology());
        DistGraphNeighbors n = d.getDistGraphNeighbors();
        assertTrue(n.isWeighted());
        assertEquals(2, n.getInDegree());
        assertEquals(5, n.getSourceWeight(1));
        assertEquals(6, n.getDestinationWeight(0));
        assertError(MPI.ERR_TOPOLOGY, d::getDims);
        assertError(MPI.ERR_RANK, () -> MPI.COMM_WORLD.createDistGraphAdjacent(new int[] {1},
                new int[0], null, false));

        GraphComm e = MPI.COMM_WORLD.createDistGraph(new int[] {0}, new int[] {2},
                new int[] {0, 0}, null, false);
        DistGraphNeighbors m = e.getDistGraphNeighbors();
        assertFalse(m.isWeighted());
        assertEquals(2, m.getInDegree());
        assertEquals(2, m.getOutDegree());
        assertArrayEquals(new int[] {0, 0}, e.neighborSources());
        assertError(MPI.ERR_ARG, () -> MPI.COMM_WORLD.createDistGraph(new int[] {0},
                new int[] {2}, new int[] {0}, null, false));
    }
}
