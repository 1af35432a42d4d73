package org.verbatim.bootstrap;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Waits, briefly, until the process manager has read what this process wrote to stderr. An
 * aborting rank prints why and then asks the process manager to end the job; Hydra kills the
 * job at once and drops output it had not yet read from the rank's pipe (seen under load). So
 * before the abort request the rank waits until its stderr pipe is empty (ioctl FIONREAD on
 * descriptor 2 reports 0 unread bytes) or {@code maxMillis} have passed. Best effort: without
 * native access, or when stderr is not something FIONREAD answers for, it returns at once.
 */
final class StderrDrain {
    private static final int STDERR = 2;
    /** FIONREAD on Linux (x86-64 and aarch64). */
    private static final long FIONREAD = 0x541B;

    private StderrDrain() {
    }

    static void await(long maxMillis) {
        MethodHandle ioctl = Ioctl.HANDLE;
        if (ioctl == null) {
            return;
        }
        long deadline = System.nanoTime() + maxMillis * 1_000_000L;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment unread = arena.allocate(ValueLayout.JAVA_INT);
            while (System.nanoTime() - deadline < 0) {
                int rc = (int) ioctl.invokeExact(STDERR, FIONREAD, unread);
                if (rc != 0 || unread.get(ValueLayout.JAVA_INT, 0) <= 0) {
                    return;
                }
                Thread.sleep(2);
            }
        } catch (Throwable ignored) {
            // best effort: the abort goes ahead whatever happened here
        }
    }

    /** Bound on first use, so that a process that never aborts never needs native access. */
    @SuppressWarnings("restricted")
    private static final class Ioctl {
        static final MethodHandle HANDLE = bind();

        private static MethodHandle bind() {
            try {
                Linker linker = Linker.nativeLinker();
                return linker.downcallHandle(linker.defaultLookup().findOrThrow("ioctl"),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG, ValueLayout.ADDRESS),
                        Linker.Option.firstVariadicArg(2));
            } catch (RuntimeException | LinkageError e) {
                return null;
            }
        }
    }
}
