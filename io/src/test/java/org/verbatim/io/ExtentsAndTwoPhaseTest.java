package org.verbatim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Extents merge and answer the questions two-phase asks; interleaving decides two-phase. */
class ExtentsAndTwoPhaseTest {
    @Test
    void adjacentExtentsMergeAndKeepTheirDataOffsets() {
        Extents e = new Extents();
        e.add(0, 10);
        e.add(10, 5);
        e.add(20, 5);
        e.add(30, 0);
        assertEquals(2, e.count());
        assertEquals(15, e.length(0));
        assertEquals(15, e.dataAt(1));
        assertEquals(20, e.bytes());
        assertEquals(0, e.low());
        assertEquals(25, e.high());
    }

    @Test
    void firstEndingAfterAndBytesBeforeTheEndOfFile() {
        Extents e = new Extents();
        for (int i = 0; i < 10; i++) {
            e.add(i * 100L, 10);
        }
        assertEquals(0, e.firstEndingAfter(0));
        assertEquals(1, e.firstEndingAfter(10));
        assertEquals(3, e.firstEndingAfter(305));
        assertEquals(10, e.firstEndingAfter(5000));
        assertEquals(40, e.bytesBefore(325));
        assertEquals(35, e.bytesBefore(305));
        assertEquals(30, e.bytesBefore(300));
        assertEquals(100, e.bytesBefore(1 << 20));
    }

    @Test
    void onlyOverlappingRangesInterleave() {
        assertFalse(TwoPhase.interleaved(new long[] {0, 10, 10, 20, 20, 30}));
        assertFalse(TwoPhase.interleaved(new long[] {20, 30, Long.MAX_VALUE, Long.MIN_VALUE,
            0, 10}));
        assertTrue(TwoPhase.interleaved(new long[] {0, 11, 10, 20}));
        assertTrue(TwoPhase.interleaved(new long[] {0, 100, 40, 50}));
    }
}
