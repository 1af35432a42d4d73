package org.verbatim.transport.shm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import org.verbatim.spi.support.RawSyscall;

/**
 * futex(2) on a word of shared memory, through libc's {@code syscall} (glibc has no futex
 * wrapper). Shared, not FUTEX_PRIVATE: the waiter and the waker are different processes that
 * map the same file. When the call is not available (not Linux, an architecture whose number is
 * not known here, no native access) {@link #available()} is false and callers park instead.
 * Through {@link RawSyscall}'s shared downcall shape where it is available (one stub less at
 * start-up); its errno goes to a scratch segment nobody reads.
 */
@SuppressWarnings("restricted")
final class Futex {
    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    /** struct timespec { time_t tv_sec; long tv_nsec; } */
    static final long TIMESPEC_SIZE = 16;

    private static final long SYS_FUTEX = switch (System.getProperty("os.arch", "")
            .toLowerCase(Locale.ROOT)) {
        case "amd64", "x86_64" -> 202;
        case "aarch64" -> 98;
        default -> -1;
    };
    private static final boolean RAW = RawSyscall.available();
    /** Captured errno of the raw calls: written by every caller, never read. */
    private static final MemorySegment IGNORED_STATE = RAW
            ? java.lang.foreign.Arena.global().allocate(RawSyscall.STATE) : null;
    private static final MethodHandle SYSCALL = RAW ? null : bind();

    private Futex() {
    }

    private static MethodHandle bind() {
        if (SYS_FUTEX < 0 || !System.getProperty("os.name", "").toLowerCase(Locale.ROOT)
                .contains("linux")) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            // long syscall(long number, ...): uaddr, op, val, timeout (uaddr2 and val3 unused)
            return linker.downcallHandle(linker.defaultLookup().findOrThrow("syscall"),
                    FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT,
                            ADDRESS),
                    Linker.Option.firstVariadicArg(1));
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    static boolean available() {
        return RAW || SYSCALL != null;
    }

    /**
     * Sleeps while the int at {@code word} still holds {@code expected}, for at most the
     * relative time in {@code timespec} (already filled), until a {@link #wake}, a signal or the
     * timeout. Returns at once if the word differs. Spurious returns are allowed.
     */
    static void await(MemorySegment word, int expected, MemorySegment timespec) {
        if (RAW) {
            RawSyscall.call(IGNORED_STATE, RawSyscall.NR.futex(), word.address(), FUTEX_WAIT,
                    expected, timespec.address(), 0, 0);
            return;
        }
        try {
            long ignored = (long) SYSCALL.invokeExact(SYS_FUTEX, word, FUTEX_WAIT, expected,
                    timespec);
        } catch (Throwable t) {
            throw LinuxSyscalls.rethrow(t);
        }
    }

    /** Wakes up to {@code count} processes sleeping in {@link #await} on {@code word}. */
    static void wake(MemorySegment word, int count) {
        if (RAW) {
            RawSyscall.call(IGNORED_STATE, RawSyscall.NR.futex(), word.address(), FUTEX_WAKE,
                    count, 0, 0, 0);
            return;
        }
        try {
            long ignored = (long) SYSCALL.invokeExact(SYS_FUTEX, word, FUTEX_WAKE, count,
                    MemorySegment.NULL);
        } catch (Throwable t) {
            throw LinuxSyscalls.rethrow(t);
        }
    }

    static void setTimeout(MemorySegment timespec, long nanos) {
        timespec.set(JAVA_LONG, 0, nanos / 1_000_000_000L);
        timespec.set(JAVA_LONG, 8, nanos % 1_000_000_000L);
    }
}
