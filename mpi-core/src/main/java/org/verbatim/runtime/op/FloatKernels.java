package org.verbatim.runtime.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Floating-point kernels. MAX and MIN are C's {@code x > y ? x : y} and {@code x < y ? x : y}
 * with {@code x} the inout element (see {@link Reduction} for what that means for NaN and signed
 * zeros); SUM and PROD are single IEEE operations, so every result is exactly reproducible.
 */
final class FloatKernels {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private FloatKernels() {
    }

    static void float32(OpCode op, MemorySegment in, long inOff, MemorySegment io, long ioOff,
                        long count) {
        final long end = count * 4;
        switch (op) {
            case MAX -> {
                for (long i = 0; i < end; i += 4) {
                    float x = io.get(F32, ioOff + i), y = in.get(F32, inOff + i);
                    io.set(F32, ioOff + i, x > y ? x : y);
                }
            }
            case MIN -> {
                for (long i = 0; i < end; i += 4) {
                    float x = io.get(F32, ioOff + i), y = in.get(F32, inOff + i);
                    io.set(F32, ioOff + i, x < y ? x : y);
                }
            }
            case SUM -> {
                for (long i = 0; i < end; i += 4) {
                    io.set(F32, ioOff + i, io.get(F32, ioOff + i) + in.get(F32, inOff + i));
                }
            }
            case PROD -> {
                for (long i = 0; i < end; i += 4) {
                    io.set(F32, ioOff + i, io.get(F32, ioOff + i) * in.get(F32, inOff + i));
                }
            }
            default -> throw new AssertionError(op);
        }
    }

    static void float64(OpCode op, MemorySegment in, long inOff, MemorySegment io, long ioOff,
                        long count) {
        final long end = count * 8;
        switch (op) {
            case MAX -> {
                for (long i = 0; i < end; i += 8) {
                    double x = io.get(F64, ioOff + i), y = in.get(F64, inOff + i);
                    io.set(F64, ioOff + i, x > y ? x : y);
                }
            }
            case MIN -> {
                for (long i = 0; i < end; i += 8) {
                    double x = io.get(F64, ioOff + i), y = in.get(F64, inOff + i);
                    io.set(F64, ioOff + i, x < y ? x : y);
                }
            }
            case SUM -> {
                for (long i = 0; i < end; i += 8) {
                    io.set(F64, ioOff + i, io.get(F64, ioOff + i) + in.get(F64, inOff + i));
                }
            }
            case PROD -> {
                for (long i = 0; i < end; i += 8) {
                    io.set(F64, ioOff + i, io.get(F64, ioOff + i) * in.get(F64, inOff + i));
                }
            }
            default -> throw new AssertionError(op);
        }
    }
}
