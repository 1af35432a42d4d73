package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The control words in front of an allocated window's memory when every member maps every
 * member's part (one host): the passive-target lock and the accumulate lock, run by the origins
 * with CPU atomics on the mapping, so that passive-target epochs and accumulates need nothing
 * from the target process (as foMPI's and Open MPI osc/rdma's locks by remote atomics).
 * <pre>
 *   0                8              64               72            128
 *   +----------------+--- pad ------+----------------+--- pad -----+
 *   | lock word      |              | accumulate lock|             |
 *   +----------------+--------------+----------------+-------------+
 *   128              136            192              200           256
 *   +----------------+--- pad ------+----------------+--- pad -----+--- window memory ---
 *   | fence arrivals |              | fence round    |             |
 *   +----------------+--------------+----------------+-------------+---------------------
 *   lock word: bit 62 exclusive holder | bits 32..61 writers waiting | bits 0..31 readers
 * </pre>
 * A writer announces itself first and new readers wait while one is announced, so a writer is
 * not starved by a stream of readers. The fence words (used in rank 0's part only) are a
 * counting barrier: each member reads the round, counts itself in; the last one resets the count
 * and publishes the next round, which the others wait for. A fence on such a window is this
 * barrier (its atomics order every load and store before it), a few cache-line transfers instead
 * of the messages of a communicator barrier.
 */
final class SharedControl {
    static final long BYTES = 256;
    private static final long LOCK = 0;
    private static final long ACC = 64;
    private static final long ARRIVALS = 128;
    private static final long ROUND = 192;
    private static final long EXCLUSIVE = 1L << 62;
    private static final long WRITER = 1L << 32;
    private static final long READERS = WRITER - 1;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private SharedControl() {
    }

    /** Announces a writer; then {@link #tryExclusive} until it succeeds. */
    static void announceWriter(MemorySegment c) {
        long unused = (long) WORD.getAndAdd(c, LOCK, WRITER);
    }

    static boolean tryExclusive(MemorySegment c) {
        long v = (long) WORD.getVolatile(c, LOCK);
        return (v & EXCLUSIVE) == 0 && (v & READERS) == 0
                && WORD.compareAndSet(c, LOCK, v, v - WRITER + EXCLUSIVE);
    }

    static void releaseExclusive(MemorySegment c) {
        long unused = (long) WORD.getAndAdd(c, LOCK, -EXCLUSIVE);
    }

    static boolean tryShared(MemorySegment c) {
        long v = (long) WORD.getVolatile(c, LOCK);
        return (v & EXCLUSIVE) == 0 && (v & ~READERS & ~EXCLUSIVE) == 0
                && WORD.compareAndSet(c, LOCK, v, v + 1);
    }

    static void releaseShared(MemorySegment c) {
        long unused = (long) WORD.getAndAdd(c, LOCK, -1L);
    }

    /**
     * Counts this member into the fence barrier of {@code root} (rank 0's words) of
     * {@code members}; returns the round to wait past ({@link #passed}), or -1 when this member
     * was the last to arrive and has opened the next round itself.
     */
    static long arrive(MemorySegment root, int members) {
        long round = (long) WORD.getAcquire(root, ROUND);
        if ((long) WORD.getAndAdd(root, ARRIVALS, 1L) == members - 1) {
            WORD.setVolatile(root, ARRIVALS, 0L);
            WORD.setVolatile(root, ROUND, round + 1);
            return -1;
        }
        return round;
    }

    /** True once the round after {@code round} is open (every member arrived). */
    static boolean passed(MemorySegment root, long round) {
        return (long) WORD.getAcquire(root, ROUND) != round;
    }

    /** Runs {@code update} under the accumulate lock of the member whose words {@code c} are. */
    static void accumulating(MemorySegment c, Runnable update) {
        for (int spins = 1; !WORD.compareAndSet(c, ACC, 0L, 1L); spins++) {
            if ((spins & 63) == 0) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
        try {
            update.run();
        } finally {
            WORD.setRelease(c, ACC, 0L);
        }
    }
}
