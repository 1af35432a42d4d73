package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * {@code poll(2)} on one descriptor for input: how the event channels of librdmacm and the async
 * descriptor of a verbs context are waited on without blocking inside a verbs call (a blocked
 * call cannot notice close). An instance keeps its {@code pollfd} record, so a progress loop that
 * polls a descriptor over and over allocates nothing.
 */
public final class Poll {
    private static final MethodHandle POLL = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("poll").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT));
    private static final short POLLIN = 1;

    /** struct pollfd { int fd; short events; short revents; } */
    private final MemorySegment pollfd;

    /** A poller of {@code fd} whose {@code pollfd} record lives in {@code arena}. */
    public Poll(int fd, Arena arena) {
        pollfd = arena.allocate(8, 4);
        pollfd.set(ValueLayout.JAVA_INT, 0, fd);
        pollfd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
    }

    /**
     * Whether the descriptor has input within {@code timeoutMs} (0: do not wait). An interrupted
     * or failed poll counts as no input. Not for concurrent use.
     */
    public boolean readable(int timeoutMs) {
        pollfd.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
        try {
            int ready = (int) POLL.invokeExact(pollfd, 1L, timeoutMs);
            return ready > 0 && (pollfd.get(ValueLayout.JAVA_SHORT, 6) & POLLIN) != 0;
        } catch (Throwable t) {
            throw new IllegalStateException("poll(2) failed", t);
        }
    }

    /** Whether {@code fd} has input within {@code timeoutMs}: a one-off {@link #readable(int)}. */
    public static boolean readable(int fd, int timeoutMs) {
        try (Arena arena = Arena.ofConfined()) {
            return new Poll(fd, arena).readable(timeoutMs);
        }
    }
}
