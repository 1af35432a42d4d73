package org.verbatim.runtime.op;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The entry point of the predefined reduction kernels: {@code inout[i] = in[i] op inout[i]}.
 *
 * <p>Each result equals the C expression Open MPI's base op component evaluates
 * ({@code ompi/mca/op/base/op_base_functions.c}) with {@code a} the inout and {@code b} the in
 * element, so results are bit-identical to Open MPI's on the same input and deterministic:
 * <ul>
 * <li>MAX: {@code a > b ? a : b}, MIN: {@code a < b ? a : b}. For floating point this is not
 * {@link Math#max}: a NaN in {@code in} wins, a NaN only in {@code inout} is replaced, and
 * {@code -0.0} versus {@code 0.0} yields the {@code in} value.</li>
 * <li>SUM, PROD: wrap-around for integers; IEEE for floating point; complex PROD is the C99
 * Annex G product (as gcc's {@code __mulsc3}/{@code __muldc3}, recovering infinities from NaN
 * results).</li>
 * <li>LAND, LOR, LXOR give 0 or 1; BAND, BOR, BXOR are bitwise.</li>
 * <li>MAXLOC, MINLOC: the {@code in} pair replaces the {@code inout} pair if its value is
 * strictly greater (smaller); on equal values the smaller index is kept. NaN values never
 * replace and never compare equal.</li>
 * </ul>
 * Integer and floating-point elements whose inout side is native memory (windows, direct buffers)
 * are combined where they are ({@link InPlace}), from {@link InPlace#MIN_COUNT} elements on;
 * otherwise the kernels are loops over Java
 * arrays, run in place on heap segments of the matching array type and through per-thread
 * staging arrays for everything else ({@link Staging}). They allocate nothing after a thread's
 * first call, and read and write in native byte order.
 */
public final class Reduction {
    private Reduction() {
    }

    /**
     * Reduces {@code count} elements of {@code kind}: {@code inout[i] = in[i] op inout[i]}.
     *
     * @param inOffset byte offset of the first element in {@code in}
     * @param inoutOffset byte offset of the first element in {@code inout}
     * @throws IllegalArgumentException if {@code op} is not defined on {@code kind}
     * @throws IndexOutOfBoundsException if a segment is too small
     */
    public static void reduce(OpCode op, ElementKind kind, MemorySegment in, long inOffset,
                              MemorySegment inout, long inoutOffset, long count) {
        if (!op.appliesTo(kind)) {
            throw new IllegalArgumentException(op.mpiName() + " is not defined on " + kind);
        }
        long bytes = count * kind.size();
        Objects.checkFromIndexSize(inOffset, bytes, in.byteSize());
        Objects.checkFromIndexSize(inoutOffset, bytes, inout.byteSize());
        if (op == OpCode.NO_OP || count == 0) {
            return;
        }
        if (op == OpCode.REPLACE) {
            MemorySegment.copy(in, inOffset, inout, inoutOffset, bytes);
            return;
        }
        if (count >= InPlace.MIN_COUNT && inout.isNative() && InPlace.takes(kind)) {
            InPlace.reduce(op, kind, in, inOffset, inout, inoutOffset, count);
            return;
        }
        switch (kind) {
            case UINT8 -> Staging.ofBytes(op, in, inOffset, inout, inoutOffset, count);
            case UINT16 -> Staging.ofChars(op, in, inOffset, inout, inoutOffset, count);
            case INT16 -> Staging.ofShorts(op, in, inOffset, inout, inoutOffset, count);
            case INT32 -> Staging.ofInts(op, in, inOffset, inout, inoutOffset, count);
            case INT64 -> Staging.ofLongs(op, in, inOffset, inout, inoutOffset, count);
            case FLOAT32 -> Staging.ofFloats(op, false, in, inOffset, inout, inoutOffset, count);
            case FLOAT64 -> Staging.ofDoubles(op, false, in, inOffset, inout, inoutOffset, count);
            case COMPLEX64 -> Staging.ofFloats(op, true, in, inOffset, inout, inoutOffset,
                    2 * count);
            case COMPLEX128 -> Staging.ofDoubles(op, true, in, inOffset, inout, inoutOffset,
                    2 * count);
            case INT_INT, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT ->
                    LocKernels.reduce(op == OpCode.MAXLOC, kind, in, inOffset, inout, inoutOffset,
                            count);
            case OPAQUE -> throw new AssertionError(kind);
        }
    }
}
