package org.verbatim.runtime.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Runs the array kernels over memory segments. A segment that is a heap segment over an array of
 * the kernel's element type (at an element-aligned offset) is used in place; any other segment
 * (native, or a heap array of another type such as a byte[] behind a ByteBuffer) is staged in
 * chunks through per-thread arrays with bulk copies.
 *
 * <p>Why not element accessors on the segments directly: a loop of {@code MemorySegment.get}
 * that sees native and several kinds of heap segments becomes megamorphic and runs 20-50 times
 * slower (measured: 128K doubles in 3-7 ms instead of 0.1 ms). Bulk copies and plain array loops
 * stay fast whatever mix of segments reaches them, and the array loops vectorize.
 */
final class Staging {
    /** Values per staged chunk: at most 8 KiB per array, so a chunk stays in L1. */
    static final int CHUNK = 1024;
    private static final ThreadLocal<Staging> LOCAL = ThreadLocal.withInitial(Staging::new);

    private static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfChar U16 = ValueLayout.JAVA_CHAR_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private final byte[] byteX = new byte[CHUNK];
    private final char[] charX = new char[CHUNK];
    private final short[] shortX = new short[CHUNK];
    private final int[] intX = new int[CHUNK];
    private final long[] longX = new long[CHUNK];
    private final float[] floatX = new float[CHUNK];
    private final double[] doubleX = new double[CHUNK];
    // the in side's chunks, also {@link InPlace}'s
    final byte[] byteY = new byte[CHUNK];
    final char[] charY = new char[CHUNK];
    final short[] shortY = new short[CHUNK];
    final int[] intY = new int[CHUNK];
    final long[] longY = new long[CHUNK];
    final float[] floatY = new float[CHUNK];
    final double[] doubleY = new double[CHUNK];

    private Staging() {
    }

    /** This thread's arrays. */
    static Staging local() {
        return LOCAL.get();
    }

    /** {@code values} byte values. */
    static void ofBytes(OpCode op, MemorySegment in, long inOff, MemorySegment io,
                       long ioOff, long values) {
        byte[] xa = io.heapBase().orElse(null) instanceof byte[] a
                && ((io.address() + ioOff) & 0) == 0 ? a : null;
        byte[] ya = in.heapBase().orElse(null) instanceof byte[] a
                && ((in.address() + inOff) & 0) == 0 ? a : null;
        int xi = xa == null ? 0 : (int) ((io.address() + ioOff) >> 0);
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 0);
        Staging s = xa != null && ya != null ? null : LOCAL.get();
        for (long done = 0; done < values; done += CHUNK) {
            int n = (int) Math.min(CHUNK, values - done);
            byte[] xs = xa, ys = ya;
            int xo = xi + (int) done, yo = yi + (int) done;
            if (xa == null) {
                xs = s.byteX;
                xo = 0;
                MemorySegment.copy(io, U8, ioOff + (done << 0), xs, 0, n);
            }
            if (ya == null) {
                ys = s.byteY;
                yo = 0;
                MemorySegment.copy(in, U8, inOff + (done << 0), ys, 0, n);
            }
            IntKernels.uint8(op, xs, xo, ys, yo, n);
            if (xa == null) {
                MemorySegment.copy(xs, 0, io, U8, ioOff + (done << 0), n);
            }
        }
    }

    /** {@code values} char values. */
    static void ofChars(OpCode op, MemorySegment in, long inOff, MemorySegment io,
                       long ioOff, long values) {
        char[] xa = io.heapBase().orElse(null) instanceof char[] a
                && ((io.address() + ioOff) & 1) == 0 ? a : null;
        char[] ya = in.heapBase().orElse(null) instanceof char[] a
                && ((in.address() + inOff) & 1) == 0 ? a : null;
        int xi = xa == null ? 0 : (int) ((io.address() + ioOff) >> 1);
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 1);
        Staging s = xa != null && ya != null ? null : LOCAL.get();
        for (long done = 0; done < values; done += CHUNK) {
            int n = (int) Math.min(CHUNK, values - done);
            char[] xs = xa, ys = ya;
            int xo = xi + (int) done, yo = yi + (int) done;
            if (xa == null) {
                xs = s.charX;
                xo = 0;
                MemorySegment.copy(io, U16, ioOff + (done << 1), xs, 0, n);
            }
            if (ya == null) {
                ys = s.charY;
                yo = 0;
                MemorySegment.copy(in, U16, inOff + (done << 1), ys, 0, n);
            }
            IntKernels.uint16(op, xs, xo, ys, yo, n);
            if (xa == null) {
                MemorySegment.copy(xs, 0, io, U16, ioOff + (done << 1), n);
            }
        }
    }

    /** {@code values} short values. */
    static void ofShorts(OpCode op, MemorySegment in, long inOff, MemorySegment io,
                       long ioOff, long values) {
        short[] xa = io.heapBase().orElse(null) instanceof short[] a
                && ((io.address() + ioOff) & 1) == 0 ? a : null;
        short[] ya = in.heapBase().orElse(null) instanceof short[] a
                && ((in.address() + inOff) & 1) == 0 ? a : null;
        int xi = xa == null ? 0 : (int) ((io.address() + ioOff) >> 1);
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 1);
        Staging s = xa != null && ya != null ? null : LOCAL.get();
        for (long done = 0; done < values; done += CHUNK) {
            int n = (int) Math.min(CHUNK, values - done);
            short[] xs = xa, ys = ya;
            int xo = xi + (int) done, yo = yi + (int) done;
            if (xa == null) {
                xs = s.shortX;
                xo = 0;
                MemorySegment.copy(io, I16, ioOff + (done << 1), xs, 0, n);
            }
            if (ya == null) {
                ys = s.shortY;
                yo = 0;
                MemorySegment.copy(in, I16, inOff + (done << 1), ys, 0, n);
            }
            IntKernels.int16(op, xs, xo, ys, yo, n);
            if (xa == null) {
                MemorySegment.copy(xs, 0, io, I16, ioOff + (done << 1), n);
            }
        }
    }

    /** {@code values} int values. */
    static void ofInts(OpCode op, MemorySegment in, long inOff, MemorySegment io,
                       long ioOff, long values) {
        int[] xa = io.heapBase().orElse(null) instanceof int[] a
                && ((io.address() + ioOff) & 3) == 0 ? a : null;
        int[] ya = in.heapBase().orElse(null) instanceof int[] a
                && ((in.address() + inOff) & 3) == 0 ? a : null;
        int xi = xa == null ? 0 : (int) ((io.address() + ioOff) >> 2);
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 2);
        Staging s = xa != null && ya != null ? null : LOCAL.get();
        for (long done = 0; done < values; done += CHUNK) {
            int n = (int) Math.min(CHUNK, values - done);
            int[] xs = xa, ys = ya;
            int xo = xi + (int) done, yo = yi + (int) done;
            if (xa == null) {
                xs = s.intX;
                xo = 0;
                MemorySegment.copy(io, I32, ioOff + (done << 2), xs, 0, n);
            }
            if (ya == null) {
                ys = s.intY;
                yo = 0;
                MemorySegment.copy(in, I32, inOff + (done << 2), ys, 0, n);
            }
            IntKernels.int32(op, xs, xo, ys, yo, n);
            if (xa == null) {
                MemorySegment.copy(xs, 0, io, I32, ioOff + (done << 2), n);
            }
        }
    }

    /** {@code values} long values. */
    static void ofLongs(OpCode op, MemorySegment in, long inOff, MemorySegment io,
                       long ioOff, long values) {
        long[] xa = io.heapBase().orElse(null) instanceof long[] a
                && ((io.address() + ioOff) & 7) == 0 ? a : null;
        long[] ya = in.heapBase().orElse(null) instanceof long[] a
                && ((in.address() + inOff) & 7) == 0 ? a : null;
        int xi = xa == null ? 0 : (int) ((io.address() + ioOff) >> 3);
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 3);
        Staging s = xa != null && ya != null ? null : LOCAL.get();
        for (long done = 0; done < values; done += CHUNK) {
            int n = (int) Math.min(CHUNK, values - done);
            long[] xs = xa, ys = ya;
            int xo = xi + (int) done, yo = yi + (int) done;
            if (xa == null) {
                xs = s.longX;
                xo = 0;
                MemorySegment.copy(io, I64, ioOff + (done << 3), xs, 0, n);
            }
            if (ya == null) {
                ys = s.longY;
                yo = 0;
                MemorySegment.copy(in, I64, inOff + (done << 3), ys, 0, n);
            }
            IntKernels.int64(op, xs, xo, ys, yo, n);
            if (xa == null) {
                MemorySegment.copy(xs, 0, io, I64, ioOff + (done << 3), n);
            }
        }
    }

    /** {@code values} float values (complex: 2 per number). */
    static void ofFloats(OpCode op, boolean complex, MemorySegment in, long inOff, MemorySegment io,
                       long ioOff, long values) {
        float[] xa = io.heapBase().orElse(null) instanceof float[] a
                && ((io.address() + ioOff) & 3) == 0 ? a : null;
        float[] ya = in.heapBase().orElse(null) instanceof float[] a
                && ((in.address() + inOff) & 3) == 0 ? a : null;
        int xi = xa == null ? 0 : (int) ((io.address() + ioOff) >> 2);
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 2);
        Staging s = xa != null && ya != null ? null : LOCAL.get();
        for (long done = 0; done < values; done += CHUNK) {
            int n = (int) Math.min(CHUNK, values - done);
            float[] xs = xa, ys = ya;
            int xo = xi + (int) done, yo = yi + (int) done;
            if (xa == null) {
                xs = s.floatX;
                xo = 0;
                MemorySegment.copy(io, F32, ioOff + (done << 2), xs, 0, n);
            }
            if (ya == null) {
                ys = s.floatY;
                yo = 0;
                MemorySegment.copy(in, F32, inOff + (done << 2), ys, 0, n);
            }
            if (complex) {
                ComplexKernels.complex64(op, xs, xo, ys, yo, n);
            } else {
                FloatKernels.float32(op, xs, xo, ys, yo, n);
            }
            if (xa == null) {
                MemorySegment.copy(xs, 0, io, F32, ioOff + (done << 2), n);
            }
        }
    }

    /** {@code values} double values (complex: 2 per number). */
    static void ofDoubles(OpCode op, boolean complex, MemorySegment in, long inOff, MemorySegment io,
                       long ioOff, long values) {
        double[] xa = io.heapBase().orElse(null) instanceof double[] a
                && ((io.address() + ioOff) & 7) == 0 ? a : null;
        double[] ya = in.heapBase().orElse(null) instanceof double[] a
                && ((in.address() + inOff) & 7) == 0 ? a : null;
        int xi = xa == null ? 0 : (int) ((io.address() + ioOff) >> 3);
        int yi = ya == null ? 0 : (int) ((in.address() + inOff) >> 3);
        Staging s = xa != null && ya != null ? null : LOCAL.get();
        for (long done = 0; done < values; done += CHUNK) {
            int n = (int) Math.min(CHUNK, values - done);
            double[] xs = xa, ys = ya;
            int xo = xi + (int) done, yo = yi + (int) done;
            if (xa == null) {
                xs = s.doubleX;
                xo = 0;
                MemorySegment.copy(io, F64, ioOff + (done << 3), xs, 0, n);
            }
            if (ya == null) {
                ys = s.doubleY;
                yo = 0;
                MemorySegment.copy(in, F64, inOff + (done << 3), ys, 0, n);
            }
            if (complex) {
                ComplexKernels.complex128(op, xs, xo, ys, yo, n);
            } else {
                FloatKernels.float64(op, xs, xo, ys, yo, n);
            }
            if (xa == null) {
                MemorySegment.copy(xs, 0, io, F64, ioOff + (done << 3), n);
            }
        }
    }
}
