package org.verbatim.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The copy loops under pack and unpack: {@code n} blocks of {@code length} bytes between a
 * strided side and a packed side. Blocks of 4 and 8 bytes (a column of ints, longs or doubles)
 * move as single unaligned accesses through static VarHandles; longer ones as bulk
 * {@link MemorySegment#copy} calls. Callers have checked the bounds.
 */
final class CopyKernels {
    private static final VarHandle I32 = ValueLayout.JAVA_INT_UNALIGNED.varHandle();
    private static final VarHandle I64 = ValueLayout.JAVA_LONG_UNALIGNED.varHandle();

    private CopyKernels() {
    }

    /** {@code n} blocks from {@code src} at {@code from}, {@code stride} apart, to {@code dst} at {@code to}, packed. */
    static void gather(MemorySegment src, long from, long stride, long length, long n,
                       MemorySegment dst, long to) {
        if (length == 4) {
            for (long i = 0; i < n; i++) {
                I32.set(dst, to + 4 * i, (int) I32.get(src, from + i * stride));
            }
        } else if (length == 8) {
            for (long i = 0; i < n; i++) {
                I64.set(dst, to + 8 * i, (long) I64.get(src, from + i * stride));
            }
        } else {
            for (long i = 0; i < n; i++) {
                MemorySegment.copy(src, from + i * stride, dst, to + i * length, length);
            }
        }
    }

    /** {@code n} packed blocks from {@code src} at {@code from} to {@code dst} at {@code to}, {@code stride} apart. */
    static void scatter(MemorySegment src, long from, long length, long n, MemorySegment dst,
                        long to, long stride) {
        if (length == 4) {
            for (long i = 0; i < n; i++) {
                I32.set(dst, to + i * stride, (int) I32.get(src, from + 4 * i));
            }
        } else if (length == 8) {
            for (long i = 0; i < n; i++) {
                I64.set(dst, to + i * stride, (long) I64.get(src, from + 8 * i));
            }
        } else {
            for (long i = 0; i < n; i++) {
                MemorySegment.copy(src, from + i * length, dst, to + i * stride, length);
            }
        }
    }

    /**
     * {@code n} blocks of {@code length} bytes from {@code src} ({@code srcStride} apart) to
     * {@code dst} ({@code dstStride} apart): one field of many records at once, the transposed
     * loop that packs a struct field by field instead of record by record.
     */
    static void strided(MemorySegment src, long from, long srcStride, MemorySegment dst, long to,
                        long dstStride, long length, long n) {
        if (length == 4) {
            for (long i = 0; i < n; i++) {
                I32.set(dst, to + i * dstStride, (int) I32.get(src, from + i * srcStride));
            }
        } else if (length == 8) {
            for (long i = 0; i < n; i++) {
                I64.set(dst, to + i * dstStride, (long) I64.get(src, from + i * srcStride));
            }
        } else {
            for (long i = 0; i < n; i++) {
                MemorySegment.copy(src, from + i * srcStride, dst, to + i * dstStride, length);
            }
        }
    }
}
