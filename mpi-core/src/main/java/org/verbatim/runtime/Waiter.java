package org.verbatim.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.verbatim.spi.Transport;
import org.verbatim.spi.WaitSource;
import org.verbatim.spi.support.RawSyscall;

/**
 * Sleeps until any open transport has an event (idle strategy "block"): arms every transport's
 * {@link WaitSource}, then sleeps on one source alone, or on all of them at once with
 * {@code ppoll(2)} over their file descriptors (a shm eventfd doorbell, a completion channel, a
 * socket), or parks for at most 50 microseconds when a source cannot be combined. Sources
 * that say they are dormant (no connection to have an event on) are left out of that sleep. Under
 * MPI_THREAD_MULTIPLE it always parks: a thread asleep in a transport would hold up the others.
 */
final class Waiter implements AutoCloseable {
    private static final long PARK_NANOS = 50_000;
    private static final short POLLIN = 1;
    private static final MethodHandle PPOLL;

    static {
        // through RawSyscall's one shared downcall shape where it can (start-up: one stub less)
        Linker linker = Linker.nativeLinker();
        PPOLL = RawSyscall.available() ? null : linker.defaultLookup().find("ppoll")
                .map(a -> linker.downcallHandle(a, FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS)))
                .orElse(null);
    }

    private final WaitSource[] sources;
    /** The sources not {@link WaitSource#dormant() dormant} in this sleep (scratch). */
    private final WaitSource[] active;
    private final boolean parkOnly;
    private final Arena arena;
    private final MemorySegment pollFds;
    private final MemorySegment timeout;
    private final MemorySegment callState;

    Waiter(List<Transport> transports, boolean multiThreaded) {
        List<WaitSource> found = new ArrayList<>();
        for (Transport t : transports) {
            WaitSource s = t instanceof SelfTransport ? null : t.waitSource();
            if (s != null) {
                found.add(s);
            }
        }
        this.sources = found.toArray(new WaitSource[0]);
        this.active = new WaitSource[sources.length];
        this.parkOnly = multiThreaded || sources.length == 0;
        this.arena = Arena.ofShared();
        this.pollFds = arena.allocate(8L * Math.max(1, sources.length), 8);
        this.timeout = arena.allocate(16, 8);
        this.callState = arena.allocate(RawSyscall.STATE);
    }

    /** Sleeps for at most {@code maxNanos}, or less when an event comes. */
    void sleep(long maxNanos) {
        if (parkOnly) {
            LockSupport.parkNanos(Math.min(maxNanos, PARK_NANOS));
            return;
        }
        int live = 0;
        for (WaitSource s : sources) {
            if (!s.dormant()) {
                active[live++] = s;
            }
        }
        if (live == 0) {
            LockSupport.parkNanos(Math.min(maxNanos, PARK_NANOS));
            return;
        }
        int armed = 0;
        boolean ready = false;
        for (; armed < live; armed++) {
            if (!active[armed].arm()) {
                ready = true;
                armed++;
                break;
            }
        }
        try {
            if (ready) {
                return;
            }
            if (live == 1) {
                active[0].sleep(maxNanos);
                return;
            }
            if (!pollAll(live, maxNanos)) {
                LockSupport.parkNanos(Math.min(maxNanos, PARK_NANOS));
            }
        } finally {
            for (int i = 0; i < armed; i++) {
                active[i].disarm();
            }
        }
    }

    /** ppoll over every source's descriptor; false when one has none (or no ppoll). */
    private boolean pollAll(int live, long maxNanos) {
        boolean raw = RawSyscall.available();
        if (PPOLL == null && !raw) {
            return false;
        }
        for (int i = 0; i < live; i++) {
            int fd = active[i].fd();
            if (fd < 0) {
                return false;
            }
            pollFds.set(ValueLayout.JAVA_INT, 8L * i, fd);
            pollFds.set(ValueLayout.JAVA_SHORT, 8L * i + 4, POLLIN);
            pollFds.set(ValueLayout.JAVA_SHORT, 8L * i + 6, (short) 0);
        }
        timeout.set(ValueLayout.JAVA_LONG, 0, maxNanos / 1_000_000_000L);
        timeout.set(ValueLayout.JAVA_LONG, 8, maxNanos % 1_000_000_000L);
        if (raw) {
            // the kernel writes the time left back into timeout: it is set again before each call
            RawSyscall.call(callState, RawSyscall.NR.ppoll(), pollFds.address(), live,
                    timeout.address(), 0, 0, 0);
            return true;
        }
        try {
            int ignored = (int) PPOLL.invokeExact(pollFds, (long) live, timeout,
                    MemorySegment.NULL);
        } catch (Throwable t) {
            throw new IllegalStateException("ppoll failed", t);
        }
        return true;
    }

    /** How many transports can wake this process (for proto-info and tests). */
    int sourceCount() {
        return sources.length;
    }

    @Override
    public void close() {
        arena.close();
    }
}
