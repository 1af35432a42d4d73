package org.verbatim.runtime.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * 8- and 16-bit integer kernels. Elements are widened to int (zero-extended for the unsigned
 * {@code uint8_t} and {@code uint16_t} kinds, sign-extended for {@code int16_t}), combined by
 * {@link #combine} and narrowed on store, which gives C's results for these types including
 * wrap-around. The operation switch inside the loop is loop-invariant and predicted.
 */
final class NarrowKernels {
    private static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfChar U16 = ValueLayout.JAVA_CHAR_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    private NarrowKernels() {
    }

    static void uint8(OpCode op, MemorySegment in, long inOff, MemorySegment io, long ioOff,
                      long count) {
        for (long i = 0; i < count; i++) {
            int x = io.get(U8, ioOff + i) & 0xff, y = in.get(U8, inOff + i) & 0xff;
            io.set(U8, ioOff + i, (byte) combine(op, x, y));
        }
    }

    static void uint16(OpCode op, MemorySegment in, long inOff, MemorySegment io, long ioOff,
                       long count) {
        final long end = count * 2;
        for (long i = 0; i < end; i += 2) {
            int x = io.get(U16, ioOff + i), y = in.get(U16, inOff + i);
            io.set(U16, ioOff + i, (char) combine(op, x, y));
        }
    }

    static void int16(OpCode op, MemorySegment in, long inOff, MemorySegment io, long ioOff,
                      long count) {
        final long end = count * 2;
        for (long i = 0; i < end; i += 2) {
            int x = io.get(I16, ioOff + i), y = in.get(I16, inOff + i);
            io.set(I16, ioOff + i, (short) combine(op, x, y));
        }
    }

    /** {@code x op y} for widened values; x is the inout element. */
    private static int combine(OpCode op, int x, int y) {
        return switch (op) {
            case MAX -> x > y ? x : y;
            case MIN -> x < y ? x : y;
            case SUM -> x + y;
            case PROD -> x * y;
            case LAND -> (x != 0 && y != 0) ? 1 : 0;
            case LOR -> (x != 0 || y != 0) ? 1 : 0;
            case LXOR -> ((x != 0) != (y != 0)) ? 1 : 0;
            case BAND -> x & y;
            case BOR -> x | y;
            case BXOR -> x ^ y;
            default -> throw new AssertionError(op);
        };
    }
}
