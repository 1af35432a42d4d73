package org.verbatim.runtime.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Reductions into native memory in place ({@code inout[i] = in[i] op inout[i]}): the inout
 * elements (a window's memory, a direct buffer) are loaded, combined and stored where they are,
 * with no copy of them; only the {@code in} side is read into a per-thread array in chunks of
 * {@link Staging#CHUNK} values (8 KiB at most, in L1), unless it is a heap array of the element
 * type already. Staging both sides through arrays, as {@link Staging} does for the general case,
 * made a 4 MiB accumulate cost seven copies' worth of time; loading the inout side where it is
 * and the other from an array costs about one and a half (the loops vectorize).
 *
 * <p>The inout side is addressed through a fresh native segment over the same bytes, so that the
 * JIT knows its exact class: the accessor code the loops inline is shared with every other
 * segment access of the process, and once heap segments have also passed through it, a loop over
 * the caller's segment would not be compiled to plain loads and stores (measured: 100x slower).
 * Integer and floating-point kinds only; complex and pair kinds go through {@link Staging}.
 * Results are those of {@link IntKernels} and {@link FloatKernels}, element for element.
 */
final class InPlace {
    /**
     * Fewest elements combined here; fewer go through {@link Staging}. The loops must not run
     * short first: compiled by the JIT while they see two or three elements per call, they stay
     * several times slower on millions later (measured: a 4 MiB int SUM 1300 us after a warm-up
     * of 8-byte calls, 150 us without it).
     */
    static final long MIN_COUNT = 64;
    private static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfChar U16 = ValueLayout.JAVA_CHAR_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private InPlace() {
    }

    /** True if {@link #reduce} takes elements of {@code kind}. */
    static boolean takes(ElementKind kind) {
        return switch (kind) {
            case UINT8, UINT16, INT16, INT32, INT64, FLOAT32, FLOAT64 -> true;
            default -> false;
        };
    }

    /**
     * {@code count} elements of {@code kind} (one {@link #takes} accepts) into native
     * {@code inout}; offsets and bounds checked by the caller, op defined on kind.
     */
    static void reduce(OpCode op, ElementKind kind, MemorySegment in, long inOff,
                       MemorySegment inout, long inoutOffset, long count) {
        if (!inout.scope().isAlive()) {
            throw new IllegalStateException("the memory of the reduction has been freed");
        }
        MemorySegment xs = MemorySegment.ofAddress(inout.address() + inoutOffset)
                .reinterpret(count * kind.size());
        switch (kind) {
            case UINT8 -> ofUint8(op, in, inOff, xs, count);
            case UINT16 -> ofUint16(op, in, inOff, xs, count);
            case INT16 -> ofInt16(op, in, inOff, xs, count);
            case INT32 -> ofInt32(op, in, inOff, xs, count);
            case INT64 -> ofInt64(op, in, inOff, xs, count);
            case FLOAT32 -> ofFloat32(op, in, inOff, xs, count);
            case FLOAT64 -> ofFloat64(op, in, inOff, xs, count);
            default -> throw new AssertionError(kind);
        }
    }

    private static void ofUint8(OpCode op, MemorySegment in, long inOff, MemorySegment xs,
                                long values) {
        byte[] ya = in.heapBase().orElse(null) instanceof byte[] a
                && ((in.address() + inOff) & 0) == 0 ? a : null;
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 0);
        byte[] staged = ya == null ? Staging.local().byteY : null;
        for (long done = 0; done < values; done += Staging.CHUNK) {
            int n = (int) Math.min(Staging.CHUNK, values - done);
            byte[] ys = ya;
            int yo = yi + (int) done;
            if (ya == null) {
                ys = staged;
                yo = 0;
                MemorySegment.copy(in, U8, inOff + (done << 0), ys, 0, n);
            }
            uint8(op, xs, done << 0, ys, yo, n);
        }
    }

    private static void ofUint16(OpCode op, MemorySegment in, long inOff, MemorySegment xs,
                                long values) {
        char[] ya = in.heapBase().orElse(null) instanceof char[] a
                && ((in.address() + inOff) & 1) == 0 ? a : null;
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 1);
        char[] staged = ya == null ? Staging.local().charY : null;
        for (long done = 0; done < values; done += Staging.CHUNK) {
            int n = (int) Math.min(Staging.CHUNK, values - done);
            char[] ys = ya;
            int yo = yi + (int) done;
            if (ya == null) {
                ys = staged;
                yo = 0;
                MemorySegment.copy(in, U16, inOff + (done << 1), ys, 0, n);
            }
            uint16(op, xs, done << 1, ys, yo, n);
        }
    }

    private static void ofInt16(OpCode op, MemorySegment in, long inOff, MemorySegment xs,
                                long values) {
        short[] ya = in.heapBase().orElse(null) instanceof short[] a
                && ((in.address() + inOff) & 1) == 0 ? a : null;
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 1);
        short[] staged = ya == null ? Staging.local().shortY : null;
        for (long done = 0; done < values; done += Staging.CHUNK) {
            int n = (int) Math.min(Staging.CHUNK, values - done);
            short[] ys = ya;
            int yo = yi + (int) done;
            if (ya == null) {
                ys = staged;
                yo = 0;
                MemorySegment.copy(in, I16, inOff + (done << 1), ys, 0, n);
            }
            int16(op, xs, done << 1, ys, yo, n);
        }
    }

    private static void ofInt32(OpCode op, MemorySegment in, long inOff, MemorySegment xs,
                                long values) {
        int[] ya = in.heapBase().orElse(null) instanceof int[] a
                && ((in.address() + inOff) & 3) == 0 ? a : null;
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 2);
        int[] staged = ya == null ? Staging.local().intY : null;
        for (long done = 0; done < values; done += Staging.CHUNK) {
            int n = (int) Math.min(Staging.CHUNK, values - done);
            int[] ys = ya;
            int yo = yi + (int) done;
            if (ya == null) {
                ys = staged;
                yo = 0;
                MemorySegment.copy(in, I32, inOff + (done << 2), ys, 0, n);
            }
            InPlaceKernels.int32(op, xs, done << 2, ys, yo, n);
        }
    }

    private static void ofInt64(OpCode op, MemorySegment in, long inOff, MemorySegment xs,
                                long values) {
        long[] ya = in.heapBase().orElse(null) instanceof long[] a
                && ((in.address() + inOff) & 7) == 0 ? a : null;
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 3);
        long[] staged = ya == null ? Staging.local().longY : null;
        for (long done = 0; done < values; done += Staging.CHUNK) {
            int n = (int) Math.min(Staging.CHUNK, values - done);
            long[] ys = ya;
            int yo = yi + (int) done;
            if (ya == null) {
                ys = staged;
                yo = 0;
                MemorySegment.copy(in, I64, inOff + (done << 3), ys, 0, n);
            }
            InPlaceKernels.int64(op, xs, done << 3, ys, yo, n);
        }
    }

    private static void ofFloat32(OpCode op, MemorySegment in, long inOff, MemorySegment xs,
                                long values) {
        float[] ya = in.heapBase().orElse(null) instanceof float[] a
                && ((in.address() + inOff) & 3) == 0 ? a : null;
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 2);
        float[] staged = ya == null ? Staging.local().floatY : null;
        for (long done = 0; done < values; done += Staging.CHUNK) {
            int n = (int) Math.min(Staging.CHUNK, values - done);
            float[] ys = ya;
            int yo = yi + (int) done;
            if (ya == null) {
                ys = staged;
                yo = 0;
                MemorySegment.copy(in, F32, inOff + (done << 2), ys, 0, n);
            }
            InPlaceKernels.float32(op, xs, done << 2, ys, yo, n);
        }
    }

    private static void ofFloat64(OpCode op, MemorySegment in, long inOff, MemorySegment xs,
                                long values) {
        double[] ya = in.heapBase().orElse(null) instanceof double[] a
                && ((in.address() + inOff) & 7) == 0 ? a : null;
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 3);
        double[] staged = ya == null ? Staging.local().doubleY : null;
        for (long done = 0; done < values; done += Staging.CHUNK) {
            int n = (int) Math.min(Staging.CHUNK, values - done);
            double[] ys = ya;
            int yo = yi + (int) done;
            if (ya == null) {
                ys = staged;
                yo = 0;
                MemorySegment.copy(in, F64, inOff + (done << 3), ys, 0, n);
            }
            InPlaceKernels.float64(op, xs, done << 3, ys, yo, n);
        }
    }

    private static void uint8(OpCode op, MemorySegment xs, long xo, byte[] ys, int yo, int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 1L * i;
            xs.set(U8, at, (byte) IntKernels.combine(op, xs.get(U8, at) & 0xff, ys[yo + i] & 0xff));
        }
    }

    private static void uint16(OpCode op, MemorySegment xs, long xo, char[] ys, int yo, int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 2L * i;
            xs.set(U16, at, (char) IntKernels.combine(op, xs.get(U16, at), ys[yo + i]));
        }
    }

    private static void int16(OpCode op, MemorySegment xs, long xo, short[] ys, int yo, int n) {
        for (int i = 0; i < n; i++) {
            long at = xo + 2L * i;
            xs.set(I16, at, (short) IntKernels.combine(op, xs.get(I16, at), ys[yo + i]));
        }
    }
}
