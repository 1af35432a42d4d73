package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.InboxDescriptor.SLEEPING_OFFSET;
import static org.verbatim.transport.shm.InboxDescriptor.WAKE_ON_COMMIT_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The inbox's doorbell: lets its owner sleep in the kernel (futex) when it has nothing to do,
 * and lets producers wake it, without costing producers anything while the owner never sleeps.
 *
 * <p>Two ints on their own cache line of the inbox file: WAKE_ON_COMMIT, set once by the owner
 * the first time it sleeps, and SLEEPING, the futex word, 1 while the owner sleeps or is about
 * to. A producer reads WAKE_ON_COMMIT after each commit (a plain read of a line nobody writes,
 * so it stays in the producer's cache); only when it is set does the producer fence and look at
 * SLEEPING, and only when that is 1 does it make the wake system call. The owner announces
 * SLEEPING = 1 with a full fence and then looks at the ring once more before it sleeps, so a
 * commit that it missed is one whose producer sees SLEEPING = 1 and wakes it (Dekker's pattern:
 * both sides store, fence, then load). The producer sets SLEEPING back to 0 before the wake call,
 * so an owner between its last look and the futex wait finds the word changed and does not sleep
 * (the kernel compares the word before it sleeps). The one window left is the owner's very first sleep,
 * when a producer may still read WAKE_ON_COMMIT as 0; the sleep's timeout bounds that once.
 *
 * <p>SLEEPING also says how to wake the owner: {@link #FUTEX} (1) with futex wake, {@link #EVENTFD}
 * (2) by writing 1 to the owner's eventfd, of which every producer holds a duplicate
 * ({@link #wakeThrough}, obtained with pidfd_getfd at open). The eventfd lets the owner's runtime
 * poll(2) it together with other transports' descriptors; the owner uses it only when every
 * producer got its duplicate.
 */
final class Doorbell {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    /** SLEEPING values: awake, asleep on the futex, asleep in poll on the eventfd. */
    static final int AWAKE = 0;
    static final int FUTEX = 1;
    static final int EVENTFD = 2;

    private final MemorySegment file;
    /** The file's address, for the producer's read of WAKE_ON_COMMIT after each commit. */
    private final long wakeOnCommit;
    private final MemorySegment sleepingWord;
    /** Owner side only: the relative timeout of a sleep; null for producer views. */
    private final MemorySegment timespec;
    private boolean armed;
    /** Producer side: a duplicate of the owner's eventfd, or -1; the value 1 to write; errno. */
    private int eventFd = -1;
    private MemorySegment one;
    private MemorySegment errno;

    Doorbell(MemorySegment file, MemorySegment timespec) {
        this.file = file;
        this.wakeOnCommit = file.address() + WAKE_ON_COMMIT_OFFSET;
        this.sleepingWord = file.asSlice(SLEEPING_OFFSET, 4);
        this.timespec = timespec;
    }

    /**
     * Producer side: wake the owner through {@code fd}, a duplicate of its eventfd, when it sleeps
     * in poll. {@code scratch}: 8 native bytes; {@code errnoState}: an errno capture segment.
     */
    void wakeThrough(int fd, MemorySegment scratch, MemorySegment errnoState) {
        scratch.set(ValueLayout.JAVA_LONG, 0, 1L);
        this.one = scratch;
        this.errno = errnoState;
        this.eventFd = fd;
    }

    /**
     * Producer side, after a commit: wakes the owner if it sleeps. Only {@link MpscRing}'s commit
     * calls it, which has checked that the mapping is alive: the flag is read by address.
     */
    void ring() {
        if ((int) INT.get(RawWords.ALL, wakeOnCommit) == 0) {
            return;
        }
        VarHandle.fullFence();
        final int sleeping = (int) INT.getVolatile(file, (long) SLEEPING_OFFSET);
        if (sleeping == FUTEX) {
            // The word changes before the wake: an owner that announced its sleep and has not yet
            // entered the futex wait then finds the word changed and does not sleep (a wake alone
            // would find nobody waiting and be lost until the sleep's timeout). Of several
            // producers, the one whose exchange succeeds makes the call.
            if (INT.compareAndSet(file, (long) SLEEPING_OFFSET, FUTEX, AWAKE)) {
                Futex.wake(sleepingWord, 1);
            }
        } else if (sleeping == EVENTFD && eventFd >= 0) {
            FileDescriptors.write(errno, eventFd, one, 8);
        }
    }

    /**
     * Owner side, before a poll on its eventfd: announces SLEEPING = EVENTFD, then looks at the
     * ring once more. False (and awake again) when a record is ready: do not sleep.
     */
    boolean armEventFd(MpscRing ring) {
        if (!armed) {
            INT.setVolatile(file, (long) WAKE_ON_COMMIT_OFFSET, 1);
            armed = true;
        }
        INT.setVolatile(file, (long) SLEEPING_OFFSET, EVENTFD);
        VarHandle.fullFence();
        if (ring.ready()) {
            INT.setRelease(file, (long) SLEEPING_OFFSET, AWAKE);
            return false;
        }
        return true;
    }

    /** Owner side, after a poll: awake again (producers stop writing the eventfd). */
    void disarm() {
        INT.setRelease(file, (long) SLEEPING_OFFSET, AWAKE);
    }

    /**
     * Owner side: sleeps up to {@code maxNanos} unless {@code ring} has a record ready, until a
     * producer rings. Returns false without sleeping when futexes are not available.
     */
    boolean sleep(MpscRing ring, long maxNanos) {
        if (!Futex.available()) {
            return false;
        }
        if (!armed) {
            INT.setVolatile(file, (long) WAKE_ON_COMMIT_OFFSET, 1);
            armed = true;
        }
        INT.setVolatile(file, (long) SLEEPING_OFFSET, FUTEX);
        try {
            if (ring.ready()) {
                return true;
            }
            Futex.setTimeout(timespec, maxNanos);
            Futex.await(sleepingWord, FUTEX, timespec);
            return true;
        } finally {
            INT.setRelease(file, (long) SLEEPING_OFFSET, AWAKE);
        }
    }
}
