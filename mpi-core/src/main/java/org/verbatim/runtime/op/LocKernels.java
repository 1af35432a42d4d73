package org.verbatim.runtime.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * MAXLOC and MINLOC on the {@code {value; int index}} pair kinds (layouts in
 * {@link ElementKind}). As Open MPI's {@code LOC_FUNC}: the in pair replaces the inout pair when
 * its value is strictly greater (MAXLOC) or smaller (MINLOC); on equal values the inout index
 * becomes the smaller of the two. Values are compared in their own type (float values widen to
 * double exactly, so order and NaN behaviour are unchanged).
 */
final class LocKernels {
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private LocKernels() {
    }

    static void reduce(boolean max, ElementKind kind, MemorySegment in, long inOff,
                       MemorySegment io, long ioOff, long count) {
        switch (kind) {
            case INT_INT, SHORT_INT, LONG_INT -> integral(max, kind, in, inOff, io, ioOff, count);
            case FLOAT_INT, DOUBLE_INT -> floating(max, kind, in, inOff, io, ioOff, count);
            default -> throw new AssertionError(kind);
        }
    }

    private static void integral(boolean max, ElementKind kind, MemorySegment in, long inOff,
                                 MemorySegment io, long ioOff, long count) {
        final int size = kind.size(), k = kind.indexOffset();
        final long end = count * size;
        for (long i = 0; i < end; i += size) {
            long y = value(kind, in, inOff + i), x = value(kind, io, ioOff + i);
            if (max ? y > x : y < x) {
                copyPair(kind, in, inOff + i, io, ioOff + i);
            } else if (y == x) {
                int yk = in.get(I32, inOff + i + k), xk = io.get(I32, ioOff + i + k);
                if (yk < xk) {
                    io.set(I32, ioOff + i + k, yk);
                }
            }
        }
    }

    private static void floating(boolean max, ElementKind kind, MemorySegment in, long inOff,
                                 MemorySegment io, long ioOff, long count) {
        final int size = kind.size(), k = kind.indexOffset();
        final boolean dbl = kind == ElementKind.DOUBLE_INT;
        final long end = count * size;
        for (long i = 0; i < end; i += size) {
            double y = dbl ? in.get(F64, inOff + i) : in.get(F32, inOff + i);
            double x = dbl ? io.get(F64, ioOff + i) : io.get(F32, ioOff + i);
            if (max ? y > x : y < x) {
                copyPair(kind, in, inOff + i, io, ioOff + i);
            } else if (y == x) {
                int yk = in.get(I32, inOff + i + k), xk = io.get(I32, ioOff + i + k);
                if (yk < xk) {
                    io.set(I32, ioOff + i + k, yk);
                }
            }
        }
    }

    private static long value(ElementKind kind, MemorySegment s, long off) {
        return switch (kind) {
            case INT_INT -> s.get(I32, off);
            case SHORT_INT -> s.get(I16, off);
            default -> s.get(I64, off);
        };
    }

    /** Copies value and index (not the padding, which C leaves alone too). */
    private static void copyPair(ElementKind kind, MemorySegment in, long inOff, MemorySegment io,
                                 long ioOff) {
        switch (kind) {
            case SHORT_INT -> io.set(I16, ioOff, in.get(I16, inOff));
            case INT_INT, FLOAT_INT -> io.set(I32, ioOff, in.get(I32, inOff));
            default -> io.set(I64, ioOff, in.get(I64, inOff));
        }
        int k = kind.indexOffset();
        io.set(I32, ioOff + k, in.get(I32, inOff + k));
    }
}
