package org.verbatim.datatype;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Reference;

/**
 * Block loops between two native segments through the C library's {@code memcpy}, called as a
 * critical downcall ({@link Linker.Option#critical}: no thread-state change, a plain call).
 *
 * <p>Why: a block of 64 bytes to a few KiB costs its fixed entry cost in the JDK's bulk copy,
 * and that code is compiled with the type and branch profiles of every copy in the JVM (with
 * mpirun's AOT cache, the training's too): the same 256-byte block costs 6-8 ns in one JVM and
 * 12-17 in the next (docs/benchmarks.md, "Pack at 64 columns: memcpy blocks"). A downcall is a
 * fixed stub that no profile changes.
 *
 * <p>Safety: raw addresses are copied only when no other thread can free the memory during the
 * loop and the JDK's own checks would pass: both segments native and alive, the destination
 * writable, neither from a shared arena (which any thread may close: those keep the JDK's copy,
 * whose session checks make a concurrent close safe), a confined one only in its owner thread,
 * the whole ranges inside the segments and not overlapping. Global, automatic and buffer
 * segments are freed only once unreachable, and the segments stay reachable to the end of the
 * loop.
 */
final class NativeCopy {
    /** Blocks from this size use the downcall (below it the JDK copies with inlined moves). */
    static final long MIN_BLOCK = 64;
    /** Blocks up to this size use it: beyond, the JDK's copy entry is a small part of the block. */
    static final long MAX_BLOCK = 4096;

    private static final MethodHandle MEMCPY = memcpy();
    private static final Class<?> SHARED_SCOPE;

    static {
        try (Arena shared = Arena.ofShared()) {
            SHARED_SCOPE = shared.allocate(1).scope().getClass();
        }
    }

    private NativeCopy() {
    }

    private static MethodHandle memcpy() {
        try {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().findOrThrow("memcpy"),
                    FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                    Linker.Option.critical(false));
        } catch (RuntimeException | LinkageError e) {
            return null; // no C library's memcpy here: the JDK's copy serves
        }
    }

    /**
     * Whether {@code n} blocks of {@code length} bytes, {@code srcStride} apart from {@code from}
     * in {@code src} and {@code dstStride} apart from {@code to} in {@code dst}, may be copied by
     * address (see the class comment). Checked once per loop.
     */
    static boolean usable(MemorySegment src, long from, long srcStride, MemorySegment dst, long to,
                          long dstStride, long length, long n) {
        if (MEMCPY == null || length < MIN_BLOCK || length > MAX_BLOCK || n <= 0
                || !owned(src) || !owned(dst) || dst.isReadOnly()) {
            return false;
        }
        long srcLow = from + Math.min(0, (n - 1) * srcStride);
        long srcHigh = from + Math.max(0, (n - 1) * srcStride) + length;
        long dstLow = to + Math.min(0, (n - 1) * dstStride);
        long dstHigh = to + Math.max(0, (n - 1) * dstStride) + length;
        if (srcLow < 0 || dstLow < 0 || srcHigh > src.byteSize() || dstHigh > dst.byteSize()) {
            return false; // the JDK's copy reports it
        }
        long a = src.address();
        long b = dst.address();
        return a + srcHigh <= b + dstLow || b + dstHigh <= a + srcLow;
    }

    private static boolean owned(MemorySegment s) {
        MemorySegment.Scope scope = s.scope();
        return s.isNative() && scope.getClass() != SHARED_SCOPE && scope.isAlive()
                && s.isAccessibleBy(Thread.currentThread());
    }

    /** The loop of {@link #usable}'s arguments, which it has accepted. */
    static void copy(MemorySegment src, long from, long srcStride, MemorySegment dst, long to,
                     long dstStride, long length, long n) {
        long s = src.address() + from;
        long d = dst.address() + to;
        try {
            for (long i = 0; i < n; i++) {
                MEMCPY.invokeExact(d + i * dstStride, s + i * srcStride, length);
            }
        } catch (Throwable t) {
            throw new AssertionError("memcpy", t);
        } finally {
            Reference.reachabilityFence(src);
            Reference.reachabilityFence(dst);
        }
    }
}
