package org.verbatim.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** Shapes, bounds, constructors with known answers, and bad input. */
class CommittedTypeTest {
    private static final TypeNode.Leaf INT = RandomTypes.INT;
    private static final TypeNode.Leaf DOUBLE = RandomTypes.DOUBLE;

    @Test
    void contiguousOfContiguousIsOneBlock() {
        CommittedType c = CommittedType.of(Types.contiguous(3, Types.contiguous(4, INT)));
        assertTrue(c.isContiguous());
        assertEquals(48, c.size());
        assertEquals(1, c.runCount());
        assertTrue(c.shape(5).isContiguous());
    }

    @Test
    void vectorIsOneRunAndFoldsAcrossElements() {
        // the paper's test: x columns of a 128 x 4096 int matrix
        TypeNode v = Types.vector(128, 3, 4096, INT);
        CommittedType c = CommittedType.of(v);
        assertTrue(c.isRegular());
        assertFalse(c.isContiguous());
        assertEquals(128 * 3 * 4, c.size());
        assertEquals(0, c.lb());
        assertEquals((127L * 4096 + 3) * 4, c.extent());
        BlockStatistics s = c.shape(1).statistics();
        assertEquals(128, s.blocks());
        assertEquals(12.0, s.mean());
        assertEquals(12.0, s.median());
        // a vector resized to one row repeats perfectly: count elements are one run
        CommittedType rows = CommittedType.of(Types.resized(Types.vector(4, 1, 2, INT), 0, 32));
        assertEquals(1, rows.shape(10).runs.count());
        assertEquals(40, rows.shape(10).runs.repeat(0));
    }

    @Test
    void adjacentIndexedBlocksMerge() {
        CommittedType c = CommittedType.of(Types.indexed(new int[] {2, 3, 1}, new int[] {0, 2, 9}, INT));
        assertEquals(2, c.blockCount());
        assertEquals(24, c.size());
        assertEquals(40, c.extent());
    }

    @Test
    void resizedAndTrueBounds() {
        TypeNode t = Types.resized(Types.hindexed(new int[] {1, 1}, new long[] {-8, 16}, DOUBLE), -16, 64);
        assertEquals(-16, t.lb());
        assertEquals(64, t.extent());
        assertEquals(-8, t.trueLb());
        assertEquals(32, t.trueExtent());
        assertEquals(16, t.size());
        MessageShape s = CommittedType.of(t).shape(3);
        assertEquals(-8, s.lowest());
        assertEquals(24 + 128, s.highest());
        assertThrows(DatatypeException.class, () -> s.checkFits(1000, "buffer"));
    }

    @Test
    void rebasedMovesTheOriginToTheTrueLowerBound() {
        TypeNode t = Types.resized(Types.hindexed(new int[] {1, 1}, new long[] {-8, 16}, DOUBLE), -16, 64);
        CommittedType c = CommittedType.of(t);
        CommittedType r = c.rebased();
        assertEquals(0, r.trueLb());
        assertEquals(c.trueExtent(), r.trueExtent());
        assertEquals(c.extent(), r.extent());
        assertEquals(c.size(), r.size());
        assertEquals(0, r.shape(3).lowest());
        // the rebased type packs the bytes the original names, 8 later (its origin was at -8)
        MemorySegment mem = MemorySegment.ofArray(new byte[256]);
        for (int i = 0; i < 256; i++) {
            mem.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) i);
        }
        MemorySegment packed = MemorySegment.ofArray(new byte[48]);
        r.pack(mem, 3, packed, 0);
        long[][] blocks = c.shape(3).blocks(100);
        long at = 0;
        for (int k = 0; k < blocks[0].length; k++) {
            MemorySegment want = mem.asSlice(8 + blocks[0][k], blocks[1][k]);
            assertEquals(-1, packed.asSlice(at, blocks[1][k]).mismatch(want));
            at += blocks[1][k];
        }
        assertEquals(48, at);
        CommittedType plain = CommittedType.of(Types.vector(2, 1, 3, INT));
        assertSame(plain, plain.rebased());
    }

    @Test
    void subarrayPicksTheBlock() {
        // 4 x 5 ints, the 2 x 3 block at (1, 1), C order
        CommittedType c = CommittedType.of(Types.subarray(new int[] {4, 5}, new int[] {2, 3},
                new int[] {1, 1}, Types.ORDER_C, INT));
        assertEquals(80, c.extent());
        assertEquals(0, c.lb());
        assertEquals(24, c.size());
        assertArrayEquals(new int[] {6, 7, 8, 11, 12, 13}, packInts(c, 20));
        // Fortran order: dimension 0 varies fastest
        CommittedType f = CommittedType.of(Types.subarray(new int[] {4, 5}, new int[] {2, 3},
                new int[] {1, 1}, Types.ORDER_FORTRAN, INT));
        assertArrayEquals(new int[] {5, 6, 9, 10, 13, 14}, packInts(f, 20));
    }

    @Test
    void darrayBlockAndCyclic() {
        // 10 elements, block over 3 processes: 4, 4, 2
        CommittedType b2 = CommittedType.of(Types.darray(3, 2, new int[] {10},
                new int[] {Types.DISTRIBUTE_BLOCK}, new int[] {Types.DISTRIBUTE_DFLT_DARG},
                new int[] {3}, Types.ORDER_C, INT));
        assertArrayEquals(new int[] {8, 9}, packInts(b2, 10));
        assertEquals(40, b2.extent());
        // cyclic(2) over 2 processes, rank 1: 2,3, 6,7
        CommittedType c1 = CommittedType.of(Types.darray(2, 1, new int[] {9},
                new int[] {Types.DISTRIBUTE_CYCLIC}, new int[] {2}, new int[] {2}, Types.ORDER_C, INT));
        assertArrayEquals(new int[] {2, 3, 6, 7}, packInts(c1, 9));
        // 2-D 4 x 4 block-block on a 2 x 2 grid, rank 1 = grid (0, 1): rows 0-1, columns 2-3
        CommittedType g = CommittedType.of(Types.darray(4, 1, new int[] {4, 4},
                new int[] {Types.DISTRIBUTE_BLOCK, Types.DISTRIBUTE_BLOCK},
                new int[] {Types.DISTRIBUTE_DFLT_DARG, Types.DISTRIBUTE_DFLT_DARG},
                new int[] {2, 2}, Types.ORDER_C, INT));
        assertArrayEquals(new int[] {2, 3, 6, 7}, packInts(g, 16));
    }

    @Test
    void contentsRecordTheConstructor() {
        TypeNode v = Types.vector(3, 2, 5, INT);
        assertEquals(Combiner.VECTOR, v.contents().combiner());
        assertArrayEquals(new int[] {3, 2, 5}, v.contents().integers());
        assertSame(INT, v.contents().types().get(0));
        TypeNode s = Types.struct(new int[] {1, 2}, new long[] {0, 8}, new TypeNode[] {INT, DOUBLE});
        assertEquals(Combiner.STRUCT, s.contents().combiner());
        assertArrayEquals(new int[] {2, 1, 2}, s.contents().integers());
        assertArrayEquals(new long[] {0, 8}, s.contents().addresses());
        assertEquals(Combiner.NAMED, INT.contents().combiner());
        assertNull(s.homogeneousLeaf());
        assertSame(INT, v.homogeneousLeaf());
        assertEquals(Combiner.DUP, Types.dup(v).contents().combiner());
    }

    @Test
    void overlapIsDetected() {
        CommittedType over = CommittedType.of(Types.struct(new int[] {2, 1}, new long[] {0, 4},
                new TypeNode[] {INT, INT}));
        assertTrue(over.isOverlapping());
        CommittedType fine = CommittedType.of(Types.vector(2, 1, 2, INT));
        assertFalse(fine.isOverlapping());
        assertFalse(fine.overlaps(4));
        // resized below its true extent: consecutive elements collide
        CommittedType squeezed = CommittedType.of(Types.resized(Types.contiguous(2, INT), 0, 4));
        assertTrue(squeezed.overlaps(2));
        // interleaved columns (extent of one int) do not
        CommittedType column = CommittedType.of(Types.resized(Types.vector(3, 1, 4, INT), 0, 4));
        assertFalse(column.overlaps(4));
    }

    @Test
    void badInputIsRefused() {
        assertEquals(DatatypeException.Reason.COUNT,
                assertThrows(DatatypeException.class, () -> Types.contiguous(-1, INT)).reason());
        assertEquals(DatatypeException.Reason.COUNT,
                assertThrows(DatatypeException.class, () -> Types.vector(2, -1, 3, INT)).reason());
        assertEquals(DatatypeException.Reason.ARGUMENT, assertThrows(DatatypeException.class,
                () -> Types.indexed(new int[] {1, 2}, new int[] {0}, INT)).reason());
        assertEquals(DatatypeException.Reason.ARGUMENT, assertThrows(DatatypeException.class,
                () -> Types.struct(new int[] {1}, new long[] {0, 4}, new TypeNode[] {INT})).reason());
        assertEquals(DatatypeException.Reason.ARGUMENT, assertThrows(DatatypeException.class,
                () -> Types.subarray(new int[] {4}, new int[] {3}, new int[] {2}, Types.ORDER_C, INT)).reason());
        assertEquals(DatatypeException.Reason.ARGUMENT, assertThrows(DatatypeException.class,
                () -> Types.darray(4, 0, new int[] {8}, new int[] {Types.DISTRIBUTE_BLOCK},
                        new int[] {Types.DISTRIBUTE_DFLT_DARG}, new int[] {3}, Types.ORDER_C, INT)).reason());
        assertEquals(DatatypeException.Reason.ARGUMENT, assertThrows(DatatypeException.class,
                () -> Types.resized(INT, 0, -4)).reason());
        assertEquals(DatatypeException.Reason.TYPE, assertThrows(DatatypeException.class,
                () -> Types.contiguous(2, null)).reason());
        CommittedType c = CommittedType.of(INT);
        assertThrows(DatatypeException.class, () -> c.shape(-1));
        // a packed source shorter than asked: nothing written
        byte[] base = new byte[16];
        assertThrows(DatatypeException.class,
                () -> c.unpack(MemorySegment.ofArray(new byte[8]), 0, MemorySegment.ofArray(base), 4));
        assertArrayEquals(new byte[16], base);
    }

    @Test
    void flattenedFormRejectsForgeries() {
        byte[] b = CommittedType.of(Types.vector(4, 1, 3, INT)).flatten().toBytes();
        byte[] bad = b.clone();
        bad[0] ^= 1;
        assertThrows(DatatypeException.class, () -> FlatLayout.read(bad));
        byte[] truncated = java.util.Arrays.copyOf(b, b.length - 1);
        assertThrows(DatatypeException.class, () -> FlatLayout.read(truncated));
    }

    @Test
    void layoutCacheKeysByRankTypeAndVersion() {
        LayoutCache cache = new LayoutCache(2);
        CommittedType a = CommittedType.of(INT);
        cache.put(1, 7, 0, a);
        assertSame(a, cache.find(1, 7, 0));
        assertNull(cache.find(1, 7, 1));
        assertNull(cache.find(2, 7, 0));
        cache.put(1, 8, 0, a);
        cache.put(1, 9, 0, a);
        assertEquals(2, cache.size());
        cache.forget(1);
        assertEquals(0, cache.size());
    }

    @Test
    void twoCachesSeeingTheSameUsesHoldTheSameLayouts() {
        // the receiver mirrors the sender's cache: same capacity, same hits and puts per rank
        LayoutCache sender = new LayoutCache(3);
        LayoutCache mirror = new LayoutCache(3);
        CommittedType a = CommittedType.of(INT);
        java.util.Random rnd = new java.util.Random(5);
        for (int i = 0; i < 2000; i++) {
            int rank = rnd.nextInt(2);
            long id = rnd.nextInt(6);
            boolean held = mirror.contains(rank, id, 0);
            assertEquals(held, sender.contains(rank, id, 0), "step " + i);
            if (held) {
                assertSame(a, sender.find(rank, id, 0));
                mirror.find(rank, id, 0);
            } else {
                sender.put(rank, id, 0, a);
                mirror.put(rank, id, 0, a);
            }
            // another rank's traffic must not evict this rank's layouts
            assertTrue(sender.size() <= 6);
        }
        assertThrows(DatatypeException.class, () -> new LayoutCache(0));
    }

    private static int[] packInts(CommittedType c, int elements) {
        int[] data = new int[elements];
        for (int i = 0; i < elements; i++) {
            data[i] = i;
        }
        int[] out = new int[(int) (c.size() / 4)];
        c.pack(MemorySegment.ofArray(data), 1, MemorySegment.ofArray(out), 0);
        return out;
    }
}
