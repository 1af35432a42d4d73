package org.verbatim.runtime;

import org.verbatim.runtime.base.StagingPool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class StagingPoolTest {
    private static final long MIB = 1L << 20;

    @Test
    void buffersBeyondTheKeptOnesAreDroppedNotHeld() {
        try (StagingPool pool = new StagingPool()) {
            MemorySegment[] window = new MemorySegment[96];
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < window.length; i++) {
                    window[i] = pool.acquire(MIB);
                    window[i].set(java.lang.foreign.ValueLayout.JAVA_BYTE, MIB - 1, (byte) i);
                }
                for (MemorySegment s : window) {
                    pool.release(s);
                }
                // 64 are kept for reuse; the other 32 are freed
                assertEquals(64 * MIB, pool.allocatedBytes(), "after round " + round);
            }
        }
    }

    @Test
    void keptBuffersAreReusedAndStayUsable() {
        try (StagingPool pool = new StagingPool()) {
            MemorySegment a = pool.acquire(1000);
            long address = a.address();
            pool.release(a);
            MemorySegment b = pool.acquire(900);
            assertEquals(address, b.address());
            assertEquals(900, b.byteSize());
            b.fill((byte) 7);
            assertTrue(pool.allocatedBytes() >= 1024);
        }
    }

    /** The datatype paper's window: 100 staged 32 KiB messages in flight, then the next 100. */
    @Test
    void aWindowOfOneHundredIsReusedWhole() {
        try (StagingPool pool = new StagingPool()) {
            MemorySegment[] window = new MemorySegment[100];
            for (int i = 0; i < window.length; i++) {
                window[i] = pool.acquire(32768);
            }
            long allocated = pool.allocatedBytes();
            assertEquals(100L * 32768, allocated);
            for (MemorySegment s : window) {
                pool.release(s);
            }
            for (int i = 0; i < window.length; i++) {
                window[i] = pool.acquire(32768);
            }
            assertEquals(allocated, pool.allocatedBytes(), "a buffer of the second window was allocated anew");
        }
    }
}
