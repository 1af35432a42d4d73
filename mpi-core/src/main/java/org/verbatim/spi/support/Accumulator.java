package org.verbatim.spi.support;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Applies an accumulate at the target: combines {@code count} elements read from the message into
 * the target memory. Unaligned layouts, since MPI allows any displacement. Elements are combined
 * one at a time in address order; the target runs one chunk at a time, so accumulates are atomic
 * with respect to each other per element.
 */
final class Accumulator {
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private Accumulator() {
    }

    static void apply(ElementKind kind, ReduceOp op, MemorySegment from, long fromOffset,
                      MemorySegment to, long toOffset, long count) {
        if (op == ReduceOp.REPLACE) {
            MemorySegment.copy(from, fromOffset, to, toOffset, count * kind.size());
            return;
        }
        switch (kind) {
            case INT32 -> {
                for (long i = 0; i < count; i++) {
                    long t = toOffset + 4 * i;
                    to.set(I32, t, int32(op, to.get(I32, t), from.get(I32, fromOffset + 4 * i)));
                }
            }
            case INT64 -> {
                for (long i = 0; i < count; i++) {
                    long t = toOffset + 8 * i;
                    to.set(I64, t, int64(op, to.get(I64, t), from.get(I64, fromOffset + 8 * i)));
                }
            }
            case FLOAT32 -> {
                for (long i = 0; i < count; i++) {
                    long t = toOffset + 4 * i;
                    to.set(F32, t, (float) real(op, to.get(F32, t), from.get(F32, fromOffset + 4 * i)));
                }
            }
            case FLOAT64 -> {
                for (long i = 0; i < count; i++) {
                    long t = toOffset + 8 * i;
                    to.set(F64, t, real(op, to.get(F64, t), from.get(F64, fromOffset + 8 * i)));
                }
            }
        }
    }

    private static int int32(ReduceOp op, int t, int x) {
        return switch (op) {
            case SUM -> t + x;
            case PROD -> t * x;
            case MIN -> Math.min(t, x);
            case MAX -> Math.max(t, x);
            case BAND -> t & x;
            case BOR -> t | x;
            case BXOR -> t ^ x;
            case REPLACE -> x;
        };
    }

    private static long int64(ReduceOp op, long t, long x) {
        return switch (op) {
            case SUM -> t + x;
            case PROD -> t * x;
            case MIN -> Math.min(t, x);
            case MAX -> Math.max(t, x);
            case BAND -> t & x;
            case BOR -> t | x;
            case BXOR -> t ^ x;
            case REPLACE -> x;
        };
    }

    /** Float32 goes through double: one float +, * rounded back from double is the float result. */
    private static double real(ReduceOp op, double t, double x) {
        return switch (op) {
            case SUM -> t + x;
            case PROD -> t * x;
            case MIN -> Math.min(t, x);
            case MAX -> Math.max(t, x);
            case REPLACE -> x;
            default -> throw new IllegalArgumentException(op + " on floating-point elements");
        };
    }
}
