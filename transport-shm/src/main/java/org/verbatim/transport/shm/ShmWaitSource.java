package org.verbatim.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BooleanSupplier;
import org.verbatim.spi.WaitSource;

/**
 * How an idle shm rank sleeps until a peer commits into its inbox.
 *
 * <p>With an eventfd (every same-host peer holds a duplicate, fetched at open with pidfd_open +
 * pidfd_getfd): {@link #arm} announces SLEEPING = EVENTFD in the inbox ({@link Doorbell}) and
 * looks at the ring once more, {@link #fd} is the eventfd, which becomes readable when a peer
 * commits and sees the announcement, so the runtime can poll(2) it together with other
 * transports' descriptors; {@link #sleep} alone is a ppoll on it; {@link #disarm} clears the
 * announcement and drains the eventfd. Without one (pidfd_getfd refused, as Yama's ptrace_scope
 * 1 does to processes that did not allow it, or {@code verbatim.shm.eventfd=false}), {@link #fd}
 * is -1 and {@link #sleep} waits on the inbox futex as before.
 *
 * <p>Either way arm refuses while the transport has local work (completions to deliver, a
 * backlog towards a full peer inbox, failures to report): the peer's consumption rings no bell
 * here, so the runtime parks briefly instead.
 */
final class ShmWaitSource implements WaitSource {
    /** Null until the transport has an inbox (made late for peers of other worlds): dormant. */
    private MpscRing inbox;
    private final BooleanSupplier idle;
    private int eventFd;
    private final MemorySegment pollfd;
    private final MemorySegment timespec;
    private final MemorySegment drain;
    private final MemorySegment errno;
    /** True between a successful arm and its disarm (eventfd mode): only then may it have rung. */
    private boolean armed;

    /** @param eventFd this rank's eventfd, or -1 to sleep on the futex */
    ShmWaitSource(MpscRing inbox, BooleanSupplier idle, int eventFd, Arena arena) {
        this.inbox = inbox;
        this.idle = idle;
        this.eventFd = eventFd;
        this.pollfd = arena.allocate(FileDescriptors.POLLFD_SIZE, 8);
        this.timespec = arena.allocate(Futex.TIMESPEC_SIZE, 8);
        this.drain = arena.allocate(8, 8);
        this.errno = LinuxSyscalls.allocateErrno(arena);
        FileDescriptors.setPollfd(pollfd, 0, eventFd, FileDescriptors.POLLIN);
    }

    /** The inbox made after open (for peers of other worlds) and its eventfd, or -1. */
    void attach(MpscRing lateInbox, int lateEventFd) {
        this.eventFd = lateEventFd;
        FileDescriptors.setPollfd(pollfd, 0, lateEventFd, FileDescriptors.POLLIN);
        this.inbox = lateInbox;
    }

    @Override
    public boolean dormant() {
        return inbox == null;
    }

    @Override
    public boolean arm() {
        if (!idle.getAsBoolean()) {
            return false;
        }
        if (eventFd < 0) {
            return true;
        }
        armed = inbox.doorbell().armEventFd(inbox);
        return armed;
    }

    @Override
    public int fd() {
        return eventFd;
    }

    @Override
    public void sleep(long maxNanos) {
        if (eventFd < 0) {
            inbox.sleep(maxNanos);
            return;
        }
        Futex.setTimeout(timespec, maxNanos);
        pollfd.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
        FileDescriptors.ppoll(errno, pollfd, 1, timespec);
    }

    @Override
    public void disarm() {
        if (armed) {
            armed = false;
            inbox.doorbell().disarm();
            FileDescriptors.read(errno, eventFd, drain, 8); // EAGAIN when nobody rang
        }
    }
}
