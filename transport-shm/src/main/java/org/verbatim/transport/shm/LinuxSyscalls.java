package org.verbatim.transport.shm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import org.verbatim.spi.support.RawSyscall;

/**
 * The few Linux calls the transport needs, bound through FFM downcalls with errno captured
 * ({@link Linker.Option#captureCallState}). Every call takes a caller-owned errno segment of
 * {@link #ERRNO_LAYOUT}, read only when the call failed. Where {@link RawSyscall} knows this
 * machine's numbers they go through its one shared downcall shape, and nothing is linked here.
 */
@SuppressWarnings("restricted")
final class LinuxSyscalls {
    static final int EPERM = 1;
    static final int ESRCH = 3;
    static final int EINTR = 4;
    static final int EFAULT = 14;
    static final int EINVAL = 22;
    static final int ENOSYS = 38;

    /** prctl option that names who may ptrace this process (Yama LSM). */
    static final int PR_SET_PTRACER = 0x59616d61;
    /** Any process of the same user may ptrace (and so use CMA on) this process. */
    static final long PR_SET_PTRACER_ANY = -1L;

    static final StructLayout ERRNO_LAYOUT = Linker.Option.captureStateLayout();
    private static final long ERRNO_OFFSET =
            ERRNO_LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement("errno"));

    /** struct iovec { void *iov_base; size_t iov_len; } */
    static final long IOVEC_SIZE = 16;

    private static final MethodHandle PROCESS_VM_READV;
    private static final MethodHandle PROCESS_VM_WRITEV;
    private static final MethodHandle KILL;
    private static final MethodHandle PRCTL;
    private static final String UNAVAILABLE;
    /** The numbers when the calls go through {@link RawSyscall}, else null. */
    private static final RawSyscall.Numbers SYS = RawSyscall.available() ? RawSyscall.NR : null;

    static {
        MethodHandle readv = null;
        MethodHandle writev = null;
        MethodHandle kill = null;
        MethodHandle prctl = null;
        String cause = null;
        if (SYS == null) {
            try {
                Linker linker = Linker.nativeLinker();
                Linker.Option errno = Linker.Option.captureCallState("errno");
                var lookup = linker.defaultLookup();
                FunctionDescriptor vm = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG,
                        ADDRESS, JAVA_LONG, JAVA_LONG);
                readv = linker.downcallHandle(lookup.findOrThrow("process_vm_readv"), vm, errno);
                writev = linker.downcallHandle(lookup.findOrThrow("process_vm_writev"), vm, errno);
                kill = linker.downcallHandle(lookup.findOrThrow("kill"),
                        FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), errno);
                prctl = linker.downcallHandle(lookup.findOrThrow("prctl"),
                        FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), errno,
                        Linker.Option.firstVariadicArg(1));
            } catch (RuntimeException | LinkageError e) {
                cause = "Linux calls not available through FFM: " + e;
            }
        }
        PROCESS_VM_READV = readv;
        PROCESS_VM_WRITEV = writev;
        KILL = kill;
        PRCTL = prctl;
        UNAVAILABLE = cause;
    }

    private LinuxSyscalls() {
    }

    /** Empty when the calls are bound, else why not (not Linux, native access denied, ...). */
    static Optional<String> unavailabilityCause() {
        if (UNAVAILABLE != null) {
            return Optional.of(UNAVAILABLE);
        }
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return Optional.of("not Linux");
        }
        return Optional.empty();
    }

    static MemorySegment allocateErrno(Arena arena) {
        return arena.allocate(ERRNO_LAYOUT);
    }

    static int errno(MemorySegment errnoState) {
        return errnoState.get(JAVA_INT, ERRNO_OFFSET);
    }

    /** process_vm_readv; returns bytes transferred or -1 (errno in {@code errnoState}). */
    static long processVmReadv(MemorySegment errnoState, int pid, MemorySegment localIov,
                               long localCount, MemorySegment remoteIov, long remoteCount) {
        if (SYS != null) {
            return RawSyscall.call(errnoState, SYS.processVmReadv(), pid, localIov.address(),
                    localCount, remoteIov.address(), remoteCount, 0);
        }
        try {
            return (long) PROCESS_VM_READV.invokeExact(errnoState, pid, localIov, localCount,
                    remoteIov, remoteCount, 0L);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** process_vm_writev; returns bytes transferred or -1 (errno in {@code errnoState}). */
    static long processVmWritev(MemorySegment errnoState, int pid, MemorySegment localIov,
                                long localCount, MemorySegment remoteIov, long remoteCount) {
        if (SYS != null) {
            return RawSyscall.call(errnoState, SYS.processVmWritev(), pid, localIov.address(),
                    localCount, remoteIov.address(), remoteCount, 0);
        }
        try {
            return (long) PROCESS_VM_WRITEV.invokeExact(errnoState, pid, localIov, localCount,
                    remoteIov, remoteCount, 0L);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** kill(pid, signal); 0 or -1 (errno in {@code errnoState}). */
    static int kill(MemorySegment errnoState, int pid, int signal) {
        if (SYS != null) {
            return (int) RawSyscall.call(errnoState, SYS.kill(), pid, signal, 0, 0, 0, 0);
        }
        try {
            return (int) KILL.invokeExact(errnoState, pid, signal);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** prctl(option, arg2); 0 or -1 (errno in {@code errnoState}). */
    static int prctl(MemorySegment errnoState, int option, long arg2) {
        if (SYS != null) {
            return (int) RawSyscall.call(errnoState, SYS.prctl(), option, arg2, 0, 0, 0, 0);
        }
        try {
            return (int) PRCTL.invokeExact(errnoState, option, arg2);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void setIovec(MemorySegment iovecs, int index, long base, long length) {
        iovecs.set(JAVA_LONG, index * IOVEC_SIZE, base);
        iovecs.set(JAVA_LONG, index * IOVEC_SIZE + 8, length);
    }

    static String describe(int errno) {
        return switch (errno) {
            case EPERM -> "EPERM (operation not permitted)";
            case ESRCH -> "ESRCH (no such process)";
            case EFAULT -> "EFAULT (bad address)";
            case EINVAL -> "EINVAL (invalid argument)";
            case ENOSYS -> "ENOSYS (not implemented)";
            default -> "errno " + errno;
        };
    }

    /** A downcall's Throwable as an unchecked exception (Errors are thrown as they are). */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
