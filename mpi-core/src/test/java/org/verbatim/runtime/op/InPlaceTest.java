package org.verbatim.runtime.op;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link InPlace} (native inout) gives the bytes {@link Staging} gives (heap arrays of the kind)
 * for every integer and floating-point kind and every operation defined on it, with the in side
 * native, a heap byte[] or a heap array of the kind, at unaligned offsets, over more than one
 * chunk; the bytes around the range stay untouched.
 */
class InPlaceTest {
    private static final int COUNT = 2 * Staging.CHUNK + 77;

    @Test
    void matchesTheArrayKernels() {
        Random random = new Random(14);
        try (Arena arena = Arena.ofConfined()) {
            for (ElementKind kind : ElementKind.values()) {
                if (!InPlace.takes(kind)) {
                    continue;
                }
                for (OpCode op : OpCode.values()) {
                    if (!op.appliesTo(kind) || op == OpCode.REPLACE || op == OpCode.NO_OP) {
                        continue;
                    }
                    long bytes = (long) COUNT * kind.size();
                    byte[] x = values(kind, random, bytes);
                    byte[] y = values(kind, random, bytes);
                    MemorySegment expected = typedHeap(kind, x);
                    Reduction.reduce(op, kind, typedHeap(kind, y), 0, expected, 0, COUNT);
                    for (int from = 0; from < 3; from++) {
                        MemorySegment in = switch (from) {
                            case 0 -> arena.allocate(bytes + 3).asSlice(3);
                            case 1 -> MemorySegment.ofArray(new byte[(int) bytes + 1]).asSlice(1);
                            default -> typedHeap(kind, y);
                        };
                        if (from < 2) {
                            MemorySegment.copy(MemorySegment.ofArray(y), 0, in, 0, bytes);
                        }
                        MemorySegment io = arena.allocate(bytes + 9);
                        io.fill((byte) 0x5a);
                        MemorySegment.copy(MemorySegment.ofArray(x), 0, io, 1, bytes);
                        Reduction.reduce(op, kind, in, 0, io, 1, COUNT);
                        String what = op + " on " + kind + " (in side " + from + ")";
                        assertEquals(-1, io.asSlice(1, bytes).mismatch(expected), what);
                        assertEquals(0x5a, io.get(ValueLayout.JAVA_BYTE, 0), what);
                        assertEquals(0x5a, io.get(ValueLayout.JAVA_BYTE, bytes + 1), what);
                    }
                }
            }
        }
    }

    /** Random elements, with NaN, infinities and signed zeros among floating-point ones. */
    private static byte[] values(ElementKind kind, Random random, long bytes) {
        byte[] b = new byte[(int) bytes];
        random.nextBytes(b);
        MemorySegment s = MemorySegment.ofArray(b);
        for (int i = 0; i < COUNT; i += 7) {
            long at = (long) i * kind.size();
            switch (kind) {
                case FLOAT32 -> s.set(ValueLayout.JAVA_FLOAT_UNALIGNED, at,
                        new float[] {Float.NaN, -0.0f, 0.0f, Float.POSITIVE_INFINITY, 1.5f}[i % 5]);
                case FLOAT64 -> s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at,
                        new double[] {Double.NaN, -0.0, 0.0, Double.NEGATIVE_INFINITY, 2.5}[i % 5]);
                default -> s.set(ValueLayout.JAVA_BYTE, at, (byte) (i % 3)); // zeros and ones
            }
        }
        return b;
    }

    /** A heap segment over an array of the kind's type holding {@code b}'s bytes. */
    private static MemorySegment typedHeap(ElementKind kind, byte[] b) {
        MemorySegment s = switch (kind) {
            case UINT8 -> MemorySegment.ofArray(new byte[b.length]);
            case UINT16 -> MemorySegment.ofArray(new char[b.length / 2]);
            case INT16 -> MemorySegment.ofArray(new short[b.length / 2]);
            case INT32 -> MemorySegment.ofArray(new int[b.length / 4]);
            case INT64 -> MemorySegment.ofArray(new long[b.length / 8]);
            case FLOAT32 -> MemorySegment.ofArray(new float[b.length / 4]);
            case FLOAT64 -> MemorySegment.ofArray(new double[b.length / 8]);
            default -> throw new AssertionError(kind);
        };
        MemorySegment.copy(MemorySegment.ofArray(b), 0, s, 0, b.length);
        return s;
    }
}
