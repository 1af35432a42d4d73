package org.verbatim.onesided;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class RdmaStagingTest {
    @Test
    void piecesAreNativeDisjointAndAlignedUntilTheWindowIsIdle() {
        try (RdmaStaging s = new RdmaStaging()) {
            MemorySegment a = s.take(8, true);
            MemorySegment b = s.take(100, false);
            MemorySegment c = s.take(1, false);
            assertTrue(a.isNative() && b.isNative() && c.isNative());
            assertEquals(8, a.byteSize());
            assertEquals(100, b.byteSize());
            assertEquals(16, b.address() - a.address());
            assertEquals(16 + 112, c.address() - a.address());
            // idle: everything given back, the next piece starts at the beginning again
            assertEquals(a.address(), s.take(4, true).address());
        }
    }

    @Test
    void aPieceThatDoesNotFitIsRefusedUntilIdle() {
        try (RdmaStaging s = new RdmaStaging()) {
            assertFalse(s.fits(RdmaStaging.CAPACITY + 1, true));
            assertTrue(s.fits(RdmaStaging.CAPACITY, true));
            s.take(RdmaStaging.CAPACITY - 20, true); // rounded up to 16 B: 16 B left
            assertTrue(s.fits(16, false));
            assertFalse(s.fits(17, false));
            assertThrows(IllegalStateException.class, () -> s.take(17, false));
            assertTrue(s.fits(RdmaStaging.CAPACITY, true));
        }
    }
}
