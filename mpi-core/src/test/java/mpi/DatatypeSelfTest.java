package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Derived datatypes on a singleton: messages to oneself (the self transport) through layouts,
 * eager and rendezvous sizes, the dense types that keep the contiguous path, reduce_local, and
 * the units Open MPI reports.
 */
class DatatypeSelfTest {
    @BeforeAll
    static void init() throws MPIException {
        SingletonMpi.init();
    }

    private static int[] iota(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i + 1;
        }
        return a;
    }

    @Test
    void vectorToSelfAtEagerAndRendezvousSizes() throws MPIException {
        for (int rows : new int[] {4, 20_000}) {
            Datatype col = Datatype.createVector(rows, 1, 8, MPI.INT);
            col.commit();
            assertTrue(col.isLayout());
            int[] src = iota(rows * 8);
            int[] dst = new int[rows * 8];
            Arrays.fill(dst, -1);
            Request r = MPI.COMM_WORLD.iRecv(dst, 1, col, 0, 5);
            MPI.COMM_WORLD.send(src, 1, col, 0, 5);
            Status st = r.waitStatus();
            assertEquals(1, st.getCount(col));
            assertEquals(rows, st.getElements(col));
            for (int i = 0; i < dst.length; i++) {
                assertEquals(i % 8 == 0 ? src[i] : -1, dst[i], "int " + i + " of " + rows + " rows");
            }
        }
    }

    @Test
    void denseDerivedTypesStayOnTheContiguousPath() throws MPIException {
        Datatype four = Datatype.createContiguous(4, MPI.INT);
        four.commit();
        assertTrue(four.usable());
        assertFalse(four.isLayout());
        Datatype gappy = Datatype.createResized(four, 0, 32);
        gappy.commit();
        assertTrue(gappy.isLayout());
        int[] out = new int[8];
        MPI.COMM_WORLD.sendRecv(iota(8), 2, four, 0, 6, out, 2, four, 0, 6);
        assertArrayEquals(iota(8), out);
    }

    @Test
    void booleanArraysUnderALayout() throws MPIException {
        Datatype every3 = Datatype.createVector(4, 1, 3, MPI.BOOLEAN);
        every3.commit();
        boolean[] src = new boolean[10];
        for (int i = 0; i < src.length; i++) {
            src[i] = i % 2 == 0;
        }
        boolean[] dst = new boolean[10];
        Arrays.fill(dst, true);
        dst[0] = false; // a data position starting false, to see it overwritten
        Request r = MPI.COMM_WORLD.iRecv(dst, 1, every3, 0, 8);
        MPI.COMM_WORLD.send(src, 1, every3, 0, 8);
        r.waitFor();
        for (int i = 0; i < dst.length; i++) {
            assertEquals(i % 3 == 0 ? src[i] : true, dst[i], "element " + i);
        }
    }

    @Test
    void aShorterMessageLeavesTheRestOfABooleanArray() throws MPIException {
        boolean[] dst = {true, true, true, true, true};
        Status st = MPI.COMM_WORLD.sendRecv(new boolean[] {false, true}, 2, MPI.BOOLEAN, 0, 9,
                dst, 5, MPI.BOOLEAN, 0, 9);
        assertEquals(2, st.getCount(MPI.BOOLEAN));
        assertArrayEquals(new boolean[] {false, true, true, true, true}, dst, "sendRecv");
        boolean[] later = {true, false, true, true};
        Request r = MPI.COMM_WORLD.iRecv(later, 4, MPI.BOOLEAN, 0, 10);
        MPI.COMM_WORLD.send(new boolean[] {false}, 1, MPI.BOOLEAN, 0, 10);
        r.waitFor();
        assertArrayEquals(new boolean[] {false, false, true, true}, later, "iRecv");
    }

    @Test
    void packAndUnpackWithNativeMemory() throws MPIException {
        Datatype v = Datatype.createVector(3, 2, 4, MPI.INT);
        v.commit();
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment packed = arena.allocate(64);
            long end = MPI.COMM_WORLD.pack(iota(10), 1, v, packed, 8);
            assertEquals(8 + 24, end);
            assertArrayEquals(new int[] {1, 2, 5, 6, 9, 10},
                    packed.asSlice(8, 24).toArray(java.lang.foreign.ValueLayout.JAVA_INT));
            int[] out = new int[10];
            Arrays.fill(out, -1);
            assertEquals(end, MPI.COMM_WORLD.unpack(packed, 8, out, 1, v));
            assertArrayEquals(new int[] {1, 2, -1, -1, 5, 6, -1, -1, 9, 10}, out);
            MPIException e = assertThrows(MPIException.class,
                    () -> MPI.COMM_WORLD.pack(iota(10), 1, v, packed, 48));
            assertEquals(MPI.ERR_BUFFER, e.getErrorClass());
            e = assertThrows(MPIException.class,
                    () -> MPI.COMM_WORLD.unpack(packed, 48, out, 1, v));
            assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
        }
    }

    @Test
    void unitsAreBaseElements() throws MPIException {
        Datatype v = Datatype.createVector(3, 2, 4, MPI.DOUBLE);
        assertEquals(6, v.getSize());
        assertEquals(10, v.getExtent());
        Datatype h = Datatype.createHVector(3, 2, 40, MPI.DOUBLE);
        assertEquals(12, h.getExtent());
        Datatype s = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE});
        assertEquals(12, s.getSize());
        assertEquals(16, s.getExtent());
        assertEquals(MPI.COMBINER_STRUCT, s.getEnvelope()[3]);
    }

    @Test
    void reduceLocalOverAVector() throws MPIException {
        Datatype v = Datatype.createVector(2, 1, 3, MPI.INT);
        v.commit();
        int[] in = iota(4);
        int[] inout = {10, 20, 30, 40};
        Comm.reduceLocal(in, inout, 1, v, MPI.SUM);
        assertArrayEquals(new int[] {11, 20, 30, 44}, inout);
        Datatype mixed = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE});
        mixed.commit();
        MPIException e = assertThrows(MPIException.class,
                () -> Comm.reduceLocal(new byte[16], new byte[16], 1, mixed, MPI.SUM));
        assertEquals(MPI.ERR_OP, e.getErrorClass());
    }

    @Test
    void uncommittedAndFreedTypesAreRefused() throws MPIException {
        Datatype v = Datatype.createVector(2, 1, 3, MPI.INT);
        MPIException e = assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.send(new int[8], 1, v, 0, 7));
        assertEquals(MPI.ERR_TYPE, e.getErrorClass());
        v.commit();
        v.free();
        e = assertThrows(MPIException.class, () -> MPI.COMM_WORLD.iRecv(new int[8], 1, v, 0, 7));
        assertEquals(MPI.ERR_TYPE, e.getErrorClass());
        e = assertThrows(MPIException.class, v::commit);
        assertEquals(MPI.ERR_TYPE, e.getErrorClass());
    }
}
