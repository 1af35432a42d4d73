package org.verbatim.onesided;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class RmaWireTest {
    @Test
    void headerRoundTripsAndFenceFlagCounts() {
        MemorySegment m = MemorySegment.ofArray(new long[16]);
        RmaWire.writeHeader(m, 32, RmaWire.GACC, 3, 7, 0x12345, -9, 17, 1L << 40, 12345);
        assertEquals(RmaWire.GACC, RmaWire.type(m, 32));
        assertEquals(3, RmaWire.elem(m, 32));
        assertEquals(7, RmaWire.op(m, 32));
        assertEquals(0x12345, RmaWire.window(m, 32));
        assertEquals(-9, RmaWire.token(m, 32));
        assertEquals(17, RmaWire.aux(m, 32));
        assertEquals(1L << 40, RmaWire.disp(m, 32));
        assertEquals(12345, RmaWire.length(m, 32));
        assertFalse(RmaWire.counted(m, 32));
        RmaWire.markFenced(m, 32);
        assertTrue(RmaWire.counted(m, 32));
        RmaWire.writeHeader(m, 0, RmaWire.FLUSH, 0, 0, 1, 0, 0, 0, 0);
        RmaWire.markFenced(m, 0);
        assertFalse(RmaWire.counted(m, 0), "only data records are counted");
    }

    @Test
    void recordsArePaddedToEightBytes() {
        assertEquals(32, RmaWire.recordBytes(0));
        assertEquals(40, RmaWire.recordBytes(1));
        assertEquals(40, RmaWire.recordBytes(8));
        assertEquals(48, RmaWire.recordBytes(9));
    }
}
