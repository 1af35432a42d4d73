package org.verbatim.transport.shm;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.spi.support.RawSyscall;

/**
 * futex(2) on a word of shared memory, through {@link RawSyscall} (glibc has no futex wrapper).
 * Shared, not FUTEX_PRIVATE: the waiter and the waker are different processes that map the same
 * file. When the call is not available (not Linux, an architecture whose numbers are not known
 * here, no native access) {@link #available()} is false and callers park instead.
 */
final class Futex {
    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    /** struct timespec { time_t tv_sec; long tv_nsec; } */
    static final long TIMESPEC_SIZE = 16;

    private static final boolean AVAILABLE = RawSyscall.available();
    /** Captured errno of the calls: written by every caller, never read. */
    private static final MemorySegment IGNORED_STATE = AVAILABLE
            ? Arena.global().allocate(RawSyscall.STATE) : null;

    private Futex() {
    }

    static boolean available() {
        return AVAILABLE;
    }

    /**
     * Sleeps while the int at {@code word} still holds {@code expected}, for at most the
     * relative time in {@code timespec} (already filled), until a {@link #wake}, a signal or the
     * timeout. Returns at once if the word differs. Spurious returns are allowed.
     */
    static void await(MemorySegment word, int expected, MemorySegment timespec) {
        RawSyscall.call(IGNORED_STATE, RawSyscall.NR.futex(), word.address(), FUTEX_WAIT,
                expected, timespec.address(), 0, 0);
    }

    /** Wakes up to {@code count} processes sleeping in {@link #await} on {@code word}. */
    static void wake(MemorySegment word, int count) {
        RawSyscall.call(IGNORED_STATE, RawSyscall.NR.futex(), word.address(), FUTEX_WAKE,
                count, 0, 0, 0);
    }

    static void setTimeout(MemorySegment timespec, long nanos) {
        timespec.set(JAVA_LONG, 0, nanos / 1_000_000_000L);
        timespec.set(JAVA_LONG, 8, nanos % 1_000_000_000L);
    }
}
