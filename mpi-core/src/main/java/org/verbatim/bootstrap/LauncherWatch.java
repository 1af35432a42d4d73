package org.verbatim.bootstrap;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Ends a rank whose process manager is gone, so that no rank outlives a killed {@code mpirun} or
 * {@code mpiexec.hydra}. Two signs, either of which suffices:
 *
 * <ul>
 *   <li>the PMI connection closes: a daemon thread polls its descriptor for POLLRDHUP / POLLHUP
 *       (never reading from it, so requests and replies are untouched) every
 *       {@value #POLL_MILLIS} ms;</li>
 *   <li>the parent process ends: Linux's parent-death signal (prctl PR_SET_PDEATHSIG, SIGTERM:
 *       the JVM runs its shutdown hooks and exits), and the same thread sees getppid() change,
 *       which also covers a parent that died before the prctl.</li>
 * </ul>
 *
 * <p>The rank then prints one line on stderr and exits with status {@value #EXIT_STATUS}; if an
 * orderly exit does not finish within {@value #HALT_MILLIS} ms (a shutdown hook that blocks),
 * it halts. The watch thread stops before finalize and abort, after which the process manager
 * may close the connection on purpose.
 */
final class LauncherWatch {
    static final int EXIT_STATUS = 1;
    static final long POLL_MILLIS = 200;
    static final long HALT_MILLIS = 2000;
    private static final int PR_SET_PDEATHSIG = 1;
    private static final int SIGTERM = 15;
    private static final short POLLRDHUP = 0x2000;
    private static final short POLLERR = 0x8;
    private static final short POLLHUP = 0x10;
    private static final short POLLNVAL = 0x20;

    private final int fd;
    private final String where;
    private final Consumer<String> onGone;
    private final int parent;
    private final Thread thread;
    private final AtomicBoolean fired = new AtomicBoolean();
    private volatile boolean stopped;

    private LauncherWatch(int fd, String where, Consumer<String> onGone, int parent) {
        this.fd = fd;
        this.where = where;
        this.onGone = onGone;
        this.parent = parent;
        this.thread = Thread.ofPlatform().daemon().name("verbatim-launcher-watch").unstarted(this::run);
    }

    /**
     * Watches {@code fd} (the PMI connection, described as {@code where}) and the parent process;
     * calls {@code onGone} once with the reason when either ends.
     *
     * @param parentDeathSignal also ask the kernel for SIGTERM when the parent dies
     */
    static LauncherWatch start(int fd, String where, Consumer<String> onGone, boolean parentDeathSignal) {
        if (parentDeathSignal) {
            try (Arena arena = Arena.ofConfined()) {
                Libc.prctl(arena.allocate(Libc.CALL_STATE), PR_SET_PDEATHSIG, SIGTERM);
            }
        }
        LauncherWatch watch = new LauncherWatch(fd, where, onGone, Libc.getppid());
        watch.thread.start();
        return watch;
    }

    /** The action of a real rank: one line on stderr, then exit (halt if exit hangs). */
    static Consumer<String> exitRank(int rank) {
        return reason -> {
            System.err.println("[verbatim] rank " + rank + ": the process manager is gone (" + reason
                    + "); ending this rank");
            System.err.flush();
            Thread.ofPlatform().daemon().name("verbatim-launcher-watch-halt").start(() -> {
                try {
                    Thread.sleep(HALT_MILLIS);
                } catch (InterruptedException ignored) {
                    // halt now
                }
                Runtime.getRuntime().halt(EXIT_STATUS);
            });
            System.exit(EXIT_STATUS);
        };
    }

    /**
     * Stops watching (before finalize or abort) without waiting: the thread ends at its next
     * poll, and whatever a poll reports after this (the connection closing at finalize, or
     * another descriptor that reuses the number once the channel is closed) is ignored. The
     * parent-death signal stays: a finalized rank still ends with its parent.
     */
    void stop() {
        stopped = true;
    }

    private void run() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(Libc.CALL_STATE);
            MemorySegment pollfd = arena.allocate(8, 4);
            while (!stopped) {
                pollfd.set(ValueLayout.JAVA_INT, 0, fd);
                pollfd.set(ValueLayout.JAVA_SHORT, 4, POLLRDHUP);
                pollfd.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
                int n = Libc.poll(state, pollfd, 1, (int) POLL_MILLIS);
                if (stopped) {
                    return;
                }
                short revents = pollfd.get(ValueLayout.JAVA_SHORT, 6);
                if (n > 0 && (revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0) {
                    fire("its PMI connection, " + where + ", closed");
                    return;
                }
                if (Libc.getppid() != parent) {
                    fire("the parent process, pid " + parent + ", ended");
                    return;
                }
            }
        }
    }

    private void fire(String reason) {
        if (!stopped && fired.compareAndSet(false, true)) {
            onGone.accept(reason);
        }
    }
}
