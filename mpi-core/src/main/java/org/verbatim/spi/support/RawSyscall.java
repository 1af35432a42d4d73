package org.verbatim.spi.support;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * Linux system calls through libc's {@code long syscall(long number, ...)}, all with one downcall
 * shape: the number, six {@code long} arguments (pointers as addresses), errno captured. The JDK
 * spins a downcall stub and its method-handle classes once per shape, which costs a cold JVM
 * about 10-20 ms of CPU each (issue 16: the start-up of 64 ranks on two cores); the PMI client,
 * the idle waiter and the shm transport all call through this one shape, so a rank links one
 * stub for all of them instead of one per C function.
 *
 * <p>{@link #NR} holds the numbers of this machine's architecture, or is null where they are not
 * known here (another OS or architecture); callers then link libc's functions one by one.
 */
@SuppressWarnings("restricted")
public final class RawSyscall {
    /** The captured-state segment's layout; errno is read from it only when a call failed. */
    public static final StructLayout STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    /** openat(2)'s "relative to the working directory". */
    public static final long AT_FDCWD = -100;

    /** The system call numbers of this machine, or null: see the class comment. */
    public static final Numbers NR = Numbers.of(System.getProperty("os.name", ""),
            System.getProperty("os.arch", ""));

    /** The numbers of the calls Verbatim makes; pidfd_open and pidfd_getfd are the same everywhere. */
    public record Numbers(long read, long write, long close, long openat, long ftruncate, long ioctl,
                          long ppoll, long socket, long connect, long setsockopt, long getppid,
                          long prctl, long kill, long futex, long eventfd2, long processVmReadv,
                          long processVmWritev, long pidfdOpen, long pidfdGetfd) {
        /** The numbers for {@code os} and {@code arch} (system properties' spelling), or null. */
        public static Numbers of(String os, String arch) {
            if (!os.toLowerCase(Locale.ROOT).contains("linux")) {
                return null;
            }
            return switch (arch.toLowerCase(Locale.ROOT)) {
                case "amd64", "x86_64" -> new Numbers(0, 1, 3, 257, 77, 16, 271, 41, 42, 54, 110,
                        157, 62, 202, 290, 310, 311, 434, 438);
                // the generic table of asm-generic/unistd.h, shared by aarch64 and riscv64
                case "aarch64", "riscv64" -> new Numbers(63, 64, 57, 56, 46, 29, 73, 198, 203, 208,
                        173, 167, 129, 98, 19, 270, 271, 434, 438);
                default -> null;
            };
        }
    }

    /** Linked at first use; null when native access or the symbol is refused. */
    private static final class Handle {
        static final MethodHandle H = link();

        private static MethodHandle link() {
            try {
                Linker linker = Linker.nativeLinker();
                return linker.downcallHandle(linker.defaultLookup().findOrThrow("syscall"),
                        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                                JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                        Linker.Option.captureCallState("errno"),
                        Linker.Option.firstVariadicArg(1));
            } catch (RuntimeException | LinkageError e) {
                return null;
            }
        }
    }

    private RawSyscall() {
    }

    /** True when the numbers are known here and {@code syscall} links (links it on first use). */
    public static boolean available() {
        return NR != null && Handle.H != null;
    }

    /**
     * The system call {@code number} with arguments {@code a..f} (unused ones 0): its result, or
     * -1 with errno in {@code state} (a segment of {@link #STATE}). Only after
     * {@link #available()} said true.
     */
    public static long call(MemorySegment state, long number, long a, long b, long c, long d,
                            long e, long f) {
        try {
            return (long) Handle.H.invokeExact(state, number, a, b, c, d, e, f);
        } catch (RuntimeException | Error x) {
            throw x;
        } catch (Throwable t) {
            throw new IllegalStateException("syscall " + number + " downcall failed", t);
        }
    }

    /** The errno a failed call left in {@code state}. */
    public static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }
}
