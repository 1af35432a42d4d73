package org.verbatim.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The copy loops under pack and unpack: {@code n} blocks of {@code length} bytes between a
 * strided side and a packed side. Blocks of 4 and 8 bytes (a column of ints, longs or doubles)
 * move as single unaligned accesses through static VarHandles; native blocks of 64 bytes to
 * 4 KiB through {@link NativeCopy} (the C library's memcpy) where it is safe; others as bulk
 * {@link MemorySegment#copy} calls. Callers have checked the bounds.
 */
final class CopyKernels {
    private static final VarHandle I32 = ValueLayout.JAVA_INT_UNALIGNED.varHandle();
    private static final VarHandle I64 = ValueLayout.JAVA_LONG_UNALIGNED.varHandle();

    /**
     * The classes of native segments (allocated, or of a direct buffer) and of {@code byte[]}
     * segments. The JDK's bulk copy is inlined into the block loops with the type profiles of
     * the whole JVM (every copy of every kind of segment anywhere, and with mpirun's AOT cache
     * the training's): once they are mixed, each block's copy dispatches on the segments' classes
     * and costs several nanoseconds more. Narrowed to the exact class first (a class check
     * outside the loop), the compiler knows them: a vector of 256-byte blocks packed 1.1-1.3x
     * faster in the benchmark's JVM, though not yet as fast as in a JVM that never copied anything
     * else (docs/benchmarks.md, "Pack and unpack at 64 columns: the JIT's profiles").
     */
    private static final Class<? extends MemorySegment> NATIVE = MemorySegment.ofBuffer(
            java.nio.ByteBuffer.allocateDirect(1)).getClass();
    private static final Class<? extends MemorySegment> BYTES = MemorySegment.ofArray(new byte[0]).getClass();

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
        } else if (src.getClass() == NATIVE && dst.getClass() == NATIVE) {
            if (NativeCopy.usable(src, from, stride, dst, to, length, length, n)) {
                NativeCopy.copy(src, from, stride, dst, to, length, length, n);
                return;
            }
            MemorySegment s = NATIVE.cast(src);
            MemorySegment d = NATIVE.cast(dst);
            for (long i = 0; i < n; i++) {
                MemorySegment.copy(s, from + i * stride, d, to + i * length, length);
            }
        } else if (src.getClass() == NATIVE && dst.getClass() == BYTES) {
            MemorySegment s = NATIVE.cast(src);
            MemorySegment d = BYTES.cast(dst);
            for (long i = 0; i < n; i++) {
                MemorySegment.copy(s, from + i * stride, d, to + i * length, length);
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
        } else if (src.getClass() == NATIVE && dst.getClass() == NATIVE) {
            if (NativeCopy.usable(src, from, length, dst, to, stride, length, n)) {
                NativeCopy.copy(src, from, length, dst, to, stride, length, n);
                return;
            }
            MemorySegment s = NATIVE.cast(src);
            MemorySegment d = NATIVE.cast(dst);
            for (long i = 0; i < n; i++) {
                MemorySegment.copy(s, from + i * length, d, to + i * stride, length);
            }
        } else if (src.getClass() == BYTES && dst.getClass() == NATIVE) {
            MemorySegment s = BYTES.cast(src);
            MemorySegment d = NATIVE.cast(dst);
            for (long i = 0; i < n; i++) {
                MemorySegment.copy(s, from + i * length, d, to + i * stride, length);
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
