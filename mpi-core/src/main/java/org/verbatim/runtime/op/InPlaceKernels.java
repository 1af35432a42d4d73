package org.verbatim.runtime.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The loops of {@link InPlace} for 32- and 64-bit integers and floating point: {@code xs}
 * (native inout, from byte offset {@code xo}) combined with {@code ys} (in, from index
 * {@code yo}), {@code n} values, each operation's expression that of {@link IntKernels} and
 * {@link FloatKernels}. One small method per operation and type: a method holding all ten loops
 * exceeds what the JIT inlines into one compilation, and its segment accessors were left as
 * calls (no vectorization, 4x slower).
 */
final class InPlaceKernels {
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private InPlaceKernels() {
    }

    static void int32(OpCode op, MemorySegment xs, long xo, int[] ys, int yo, int n) {
        switch (op) {
            case MAX -> maxInt32(xs, xo, ys, yo, n);
            case MIN -> minInt32(xs, xo, ys, yo, n);
            case SUM -> sumInt32(xs, xo, ys, yo, n);
            case PROD -> prodInt32(xs, xo, ys, yo, n);
            case LAND -> landInt32(xs, xo, ys, yo, n);
            case LOR -> lorInt32(xs, xo, ys, yo, n);
            case LXOR -> lxorInt32(xs, xo, ys, yo, n);
            case BAND -> bandInt32(xs, xo, ys, yo, n);
            case BOR -> borInt32(xs, xo, ys, yo, n);
            case BXOR -> bxorInt32(xs, xo, ys, yo, n);
            default -> throw new AssertionError(op);
        }
    }

    static void int64(OpCode op, MemorySegment xs, long xo, long[] ys, int yo, int n) {
        switch (op) {
            case MAX -> maxInt64(xs, xo, ys, yo, n);
            case MIN -> minInt64(xs, xo, ys, yo, n);
            case SUM -> sumInt64(xs, xo, ys, yo, n);
            case PROD -> prodInt64(xs, xo, ys, yo, n);
            case LAND -> landInt64(xs, xo, ys, yo, n);
            case LOR -> lorInt64(xs, xo, ys, yo, n);
            case LXOR -> lxorInt64(xs, xo, ys, yo, n);
            case BAND -> bandInt64(xs, xo, ys, yo, n);
            case BOR -> borInt64(xs, xo, ys, yo, n);
            case BXOR -> bxorInt64(xs, xo, ys, yo, n);
            default -> throw new AssertionError(op);
        }
    }

    static void float32(OpCode op, MemorySegment xs, long xo, float[] ys, int yo, int n) {
        switch (op) {
            case MAX -> maxFloat32(xs, xo, ys, yo, n);
            case MIN -> minFloat32(xs, xo, ys, yo, n);
            case SUM -> sumFloat32(xs, xo, ys, yo, n);
            case PROD -> prodFloat32(xs, xo, ys, yo, n);
            default -> throw new AssertionError(op);
        }
    }

    static void float64(OpCode op, MemorySegment xs, long xo, double[] ys, int yo, int n) {
        switch (op) {
            case MAX -> maxFloat64(xs, xo, ys, yo, n);
            case MIN -> minFloat64(xs, xo, ys, yo, n);
            case SUM -> sumFloat64(xs, xo, ys, yo, n);
            case PROD -> prodFloat64(xs, xo, ys, yo, n);
            default -> throw new AssertionError(op);
        }
    }

    private static void maxInt32(MemorySegment xs, long xo, int[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            int x = xs.get(I32, at), y = ys[yo + i];
            xs.set(I32, at, x > y ? x : y);
        }
    }

    private static void minInt32(MemorySegment xs, long xo, int[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            int x = xs.get(I32, at), y = ys[yo + i];
            xs.set(I32, at, x < y ? x : y);
        }
    }

    private static void sumInt32(MemorySegment xs, long xo, int[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            int x = xs.get(I32, at), y = ys[yo + i];
            xs.set(I32, at, x + y);
        }
    }

    private static void prodInt32(MemorySegment xs, long xo, int[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            int x = xs.get(I32, at), y = ys[yo + i];
            xs.set(I32, at, x * y);
        }
    }

    private static void landInt32(MemorySegment xs, long xo, int[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            int x = xs.get(I32, at), y = ys[yo + i];
            xs.set(I32, at, (x != 0 && y != 0) ? 1 : 0);
        }
    }

    private static void lorInt32(MemorySegment xs, long xo, int[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            int x = xs.get(I32, at), y = ys[yo + i];
            xs.set(I32, at, (x != 0 || y != 0) ? 1 : 0);
        }
    }

    private static void lxorInt32(MemorySegment xs, long xo, int[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            int x = xs.get(I32, at), y = ys[yo + i];
            xs.set(I32, at, ((x != 0) != (y != 0)) ? 1 : 0);
        }
    }

    private static void bandInt32(MemorySegment xs, long xo, int[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            int x = xs.get(I32, at), y = ys[yo + i];
            xs.set(I32, at, x & y);
        }
    }

    private static void borInt32(MemorySegment xs, long xo, int[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            int x = xs.get(I32, at), y = ys[yo + i];
            xs.set(I32, at, x | y);
        }
    }

    private static void bxorInt32(MemorySegment xs, long xo, int[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            int x = xs.get(I32, at), y = ys[yo + i];
            xs.set(I32, at, x ^ y);
        }
    }

    private static void maxInt64(MemorySegment xs, long xo, long[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            long x = xs.get(I64, at), y = ys[yo + i];
            xs.set(I64, at, x > y ? x : y);
        }
    }

    private static void minInt64(MemorySegment xs, long xo, long[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            long x = xs.get(I64, at), y = ys[yo + i];
            xs.set(I64, at, x < y ? x : y);
        }
    }

    private static void sumInt64(MemorySegment xs, long xo, long[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            long x = xs.get(I64, at), y = ys[yo + i];
            xs.set(I64, at, x + y);
        }
    }

    private static void prodInt64(MemorySegment xs, long xo, long[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            long x = xs.get(I64, at), y = ys[yo + i];
            xs.set(I64, at, x * y);
        }
    }

    private static void landInt64(MemorySegment xs, long xo, long[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            long x = xs.get(I64, at), y = ys[yo + i];
            xs.set(I64, at, (x != 0 && y != 0) ? 1 : 0);
        }
    }

    private static void lorInt64(MemorySegment xs, long xo, long[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            long x = xs.get(I64, at), y = ys[yo + i];
            xs.set(I64, at, (x != 0 || y != 0) ? 1 : 0);
        }
    }

    private static void lxorInt64(MemorySegment xs, long xo, long[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            long x = xs.get(I64, at), y = ys[yo + i];
            xs.set(I64, at, ((x != 0) != (y != 0)) ? 1 : 0);
        }
    }

    private static void bandInt64(MemorySegment xs, long xo, long[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            long x = xs.get(I64, at), y = ys[yo + i];
            xs.set(I64, at, x & y);
        }
    }

    private static void borInt64(MemorySegment xs, long xo, long[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            long x = xs.get(I64, at), y = ys[yo + i];
            xs.set(I64, at, x | y);
        }
    }

    private static void bxorInt64(MemorySegment xs, long xo, long[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            long x = xs.get(I64, at), y = ys[yo + i];
            xs.set(I64, at, x ^ y);
        }
    }

    private static void maxFloat32(MemorySegment xs, long xo, float[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            float x = xs.get(F32, at), y = ys[yo + i];
            xs.set(F32, at, x > y ? x : y);
        }
    }

    private static void minFloat32(MemorySegment xs, long xo, float[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            float x = xs.get(F32, at), y = ys[yo + i];
            xs.set(F32, at, x < y ? x : y);
        }
    }

    private static void sumFloat32(MemorySegment xs, long xo, float[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            float x = xs.get(F32, at), y = ys[yo + i];
            xs.set(F32, at, x + y);
        }
    }

    private static void prodFloat32(MemorySegment xs, long xo, float[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 4L * i;
            float x = xs.get(F32, at), y = ys[yo + i];
            xs.set(F32, at, x * y);
        }
    }

    private static void maxFloat64(MemorySegment xs, long xo, double[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            double x = xs.get(F64, at), y = ys[yo + i];
            xs.set(F64, at, x > y ? x : y);
        }
    }

    private static void minFloat64(MemorySegment xs, long xo, double[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            double x = xs.get(F64, at), y = ys[yo + i];
            xs.set(F64, at, x < y ? x : y);
        }
    }

    private static void sumFloat64(MemorySegment xs, long xo, double[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            double x = xs.get(F64, at), y = ys[yo + i];
            xs.set(F64, at, x + y);
        }
    }

    private static void prodFloat64(MemorySegment xs, long xo, double[] ys, int yo,
            int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 8L * i;
            double x = xs.get(F64, at), y = ys[yo + i];
            xs.set(F64, at, x * y);
        }
    }
}
