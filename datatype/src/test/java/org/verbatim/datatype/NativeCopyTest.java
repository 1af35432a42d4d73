package org.verbatim.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The memcpy block loop: taken only where no other thread can free the memory and the JDK's
 * checks would pass, and then the same bytes as the JDK's copy, for either stride sign.
 */
class NativeCopyTest {
    private static final long N = 16;
    private static final long LENGTH = 256;
    private static final long STRIDE = 1024;

    private static boolean gatherUsable(MemorySegment src, MemorySegment dst) {
        return NativeCopy.usable(src, 0, STRIDE, dst, 0, LENGTH, LENGTH, N);
    }

    @Test
    void takenForMemoryNoOtherThreadCanFree() {
        try (Arena confined = Arena.ofConfined()) {
            MemorySegment src = confined.allocate(STRIDE * N);
            assertTrue(gatherUsable(src, confined.allocate(LENGTH * N)), "confined, owner thread");
            assertTrue(gatherUsable(src, Arena.ofAuto().allocate(LENGTH * N)), "automatic");
            assertTrue(gatherUsable(src, Arena.global().allocate(LENGTH * N)), "global");
            assertTrue(gatherUsable(MemorySegment.ofBuffer(ByteBuffer.allocateDirect((int) (STRIDE * N))),
                    confined.allocate(LENGTH * N)), "direct buffer");
        }
    }

    @Test
    void refusedWhereTheJdkCopyMustDecide() throws InterruptedException {
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
            MemorySegment src = confined.allocate(STRIDE * N);
            MemorySegment dst = confined.allocate(LENGTH * N);
            assertFalse(gatherUsable(shared.allocate(STRIDE * N), dst), "shared source");
            assertFalse(gatherUsable(src, shared.allocate(LENGTH * N)), "shared destination");
            assertFalse(gatherUsable(src, dst.asReadOnly()), "read-only destination");
            assertFalse(gatherUsable(MemorySegment.ofArray(new byte[(int) (STRIDE * N)]), dst), "heap");
            assertFalse(gatherUsable(src, confined.allocate(LENGTH * N - 1)), "destination too short");
            assertFalse(gatherUsable(src.asSlice(0, STRIDE * (N - 1) + LENGTH - 1), dst), "source too short");
            assertFalse(NativeCopy.usable(src, 0, STRIDE, dst, 0, 32, 32, N), "block below the minimum");
            assertFalse(NativeCopy.usable(src, 0, 8192, confined.allocate(8192 * N), 0, 8192, 8192, 1),
                    "block above the maximum");
            assertFalse(NativeCopy.usable(src, 0, STRIDE, src, 0, LENGTH, LENGTH, N), "overlapping");
            assertFalse(NativeCopy.usable(src, STRIDE, -STRIDE, dst, 0, LENGTH, LENGTH, N), "negative stride below 0");
            Arena closed = Arena.ofConfined();
            MemorySegment gone = closed.allocate(LENGTH * N);
            closed.close();
            assertFalse(gatherUsable(src, gone), "closed");
            AtomicBoolean elsewhere = new AtomicBoolean(true);
            Thread other = new Thread(() -> elsewhere.set(gatherUsable(src, Arena.ofAuto().allocate(LENGTH * N))));
            other.start();
            other.join();
            assertFalse(elsewhere.get(), "confined, another thread");
        }
    }

    @Test
    void copiesTheSameBytesAsTheJdkForEitherStrideSign() {
        Random rnd = new Random(7);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment matrix = arena.allocate(STRIDE * N, 64);
            for (long i = 0; i < matrix.byteSize(); i++) {
                matrix.set(ValueLayout.JAVA_BYTE, i, (byte) rnd.nextInt());
            }
            for (long length : new long[] {64, 200, 256, 1000}) {
                for (long stride : new long[] {STRIDE, -STRIDE}) {
                    long from = stride > 0 ? 8 : STRIDE * (N - 1) + 8;
                    MemorySegment packed = arena.allocate(length * N);
                    assertTrue(NativeCopy.usable(matrix, from, stride, packed, 0, length, length, N));
                    NativeCopy.copy(matrix, from, stride, packed, 0, length, length, N);
                    byte[] expected = new byte[(int) (length * N)];
                    for (long i = 0; i < N; i++) {
                        MemorySegment.copy(matrix, ValueLayout.JAVA_BYTE, from + i * stride, expected,
                                (int) (i * length), (int) length);
                    }
                    assertArrayEquals(expected, packed.toArray(ValueLayout.JAVA_BYTE), "gather " + length + "/" + stride);
                    MemorySegment back = arena.allocate(STRIDE * N, 64);
                    assertTrue(NativeCopy.usable(packed, 0, length, back, from, stride, length, N));
                    NativeCopy.copy(packed, 0, length, back, from, stride, length, N);
                    for (long i = 0; i < N; i++) {
                        assertArrayEquals(matrix.asSlice(from + i * stride, length).toArray(ValueLayout.JAVA_BYTE),
                                back.asSlice(from + i * stride, length).toArray(ValueLayout.JAVA_BYTE),
                                "scatter " + length + "/" + stride + " block " + i);
                    }
                }
            }
        }
    }
}
