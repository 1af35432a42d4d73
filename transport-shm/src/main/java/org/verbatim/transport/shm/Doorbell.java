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
 * both sides store, fence, then load). The one window left is the owner's very first sleep,
 * when a producer may still read WAKE_ON_COMMIT as 0; the sleep's timeout bounds that once.
 */
final class Doorbell {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment file;
    private final MemorySegment sleepingWord;
    /** Owner side only: the relative timeout of a sleep; null for producer views. */
    private final MemorySegment timespec;
    private boolean armed;

    Doorbell(MemorySegment file, MemorySegment timespec) {
        this.file = file;
        this.sleepingWord = file.asSlice(SLEEPING_OFFSET, 4);
        this.timespec = timespec;
    }

    /** Producer side, after a commit: wakes the owner if it sleeps. */
    void ring() {
        if ((int) INT.get(file, (long) WAKE_ON_COMMIT_OFFSET) == 0) {
            return;
        }
        VarHandle.fullFence();
        if ((int) INT.getVolatile(file, (long) SLEEPING_OFFSET) != 0) {
            Futex.wake(sleepingWord, 1);
        }
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
        INT.setVolatile(file, (long) SLEEPING_OFFSET, 1);
        try {
            if (ring.ready()) {
                return true;
            }
            Futex.setTimeout(timespec, maxNanos);
            Futex.await(sleepingWord, 1, timespec);
            return true;
        } finally {
            INT.setRelease(file, (long) SLEEPING_OFFSET, 0);
        }
    }
}
