package org.verbatim.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.verbatim.bootstrap.Bootstrap;

/**
 * The eventfd doorbells of one rank, set up during open in the same two bootstrap phases as the
 * inboxes: this rank's own eventfd, which its wait source polls, and duplicates of its peers'
 * eventfds, fetched with pidfd_open + pidfd_getfd, through which its commits wake them
 * ({@link Doorbell#wakeThrough}). A rank uses its eventfd only if every same-host peer fetched
 * it; otherwise it closes it and sleeps on the inbox futex, and {@link #unavailabilityCause()}
 * says why.
 */
final class PeerWakeups implements AutoCloseable {
    private final int rank;
    private final MemorySegment errno;
    private final int[] peerFds;
    private int eventFd = -1;
    private String cause;

    PeerWakeups(int rank, int size, Arena arena) {
        this.rank = rank;
        this.errno = LinuxSyscalls.allocateErrno(arena);
        this.peerFds = new int[size];
        Arrays.fill(peerFds, -1);
    }

    /** Phase 1: creates this rank's eventfd (unless disabled) and publishes its number. */
    void create(Bootstrap bootstrap, boolean enabled) {
        createLocal(enabled);
        bootstrap.put(key("efd", rank), eventFd >= 0 ? Integer.toString(eventFd) : "none");
    }

    /**
     * Creates this rank's eventfd without telling any world peer: for an inbox made only for
     * peers of other worlds, which fetch it themselves ({@link ForeignInboxes}).
     */
    void createLocal(boolean enabled) {
        if (!enabled) {
            cause = "disabled by " + ShmConfiguration.EVENTFD.name() + "=false";
        } else {
            eventFd = FileDescriptors.eventfd(errno, 0,
                    FileDescriptors.EFD_NONBLOCK | FileDescriptors.EFD_CLOEXEC);
            if (eventFd < 0) {
                cause = "eventfd failed: " + LinuxSyscalls.describe(LinuxSyscalls.errno(errno));
            }
        }
    }

    /**
     * Phase 2: fetches the eventfd of every same-host peer ({@code rings[p] != null}), hands it to
     * that peer's doorbell, and publishes whether all of them could be fetched.
     */
    void fetch(Bootstrap bootstrap, int[] pids, MpscRing[] rings, Arena arena) {
        String verdict = "ok";
        for (int p = 0; p < rings.length; p++) {
            if (rings[p] == null) {
                continue;
            }
            String number = bootstrap.get(key("efd", p));
            if (number == null || "none".equals(number)) {
                verdict = "rank " + p + " has no eventfd";
                continue;
            }
            int fd = FileDescriptors.fetch(errno, pids[p], Integer.parseInt(number));
            if (fd < 0) {
                verdict = "pidfd_getfd of rank " + p + "'s eventfd refused: "
                        + LinuxSyscalls.describe(-fd);
                continue;
            }
            peerFds[p] = fd;
            rings[p].doorbell().wakeThrough(fd, arena.allocate(8, 8), errno);
        }
        bootstrap.put(key("efd-ok", rank), verdict);
    }

    /** After the second barrier: keeps this rank's eventfd only if every peer fetched it. */
    void settle(Bootstrap bootstrap, MpscRing[] rings) {
        for (int p = 0; p < rings.length && eventFd >= 0; p++) {
            if (rings[p] == null) {
                continue;
            }
            String verdict = bootstrap.get(key("efd-ok", p));
            if (!"ok".equals(verdict)) {
                cause = "rank " + p + ": " + verdict;
                FileDescriptors.close(errno, eventFd);
                eventFd = -1;
            }
        }
    }

    /** This rank's eventfd, or -1 when it sleeps on the futex. */
    int eventFd() {
        return eventFd;
    }

    /** Why the wait source has no descriptor, or null when it has one. */
    String unavailabilityCause() {
        return eventFd >= 0 ? null : cause;
    }

    @Override
    public void close() {
        if (eventFd >= 0) {
            FileDescriptors.close(errno, eventFd);
            eventFd = -1;
        }
        for (int p = 0; p < peerFds.length; p++) {
            if (peerFds[p] >= 0) {
                FileDescriptors.close(errno, peerFds[p]);
                peerFds[p] = -1;
            }
        }
    }

    private static String key(String what, int rank) {
        return "shm." + what + "." + rank;
    }
}
