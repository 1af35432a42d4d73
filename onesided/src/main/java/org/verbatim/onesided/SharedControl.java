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
 *   128              136                                           256
 *   +----------------+--- pad ---------------------------------------+--- PSCW counters ---
 *   | fence word     |                                               |
 *   +----------------+-----------------------------------------------+---------------------
 *   lock word: bit 62 exclusive holder | bits 32..61 writers waiting | bits 0..31 readers
 *   fence word: bits 32..63 round | bits 0..31 members arrived in it
 * </pre>
 * A writer announces itself first and new readers wait while one is announced, so a writer is
 * not starved by a stream of readers. The fence word (used in rank 0's part only) is a counting
 * barrier in one word: each member counts itself in with one atomic add, which also tells it the
 * round; the last one clears the count and opens the next round in one store, which the others
 * wait for. A fence on such a window is this barrier (its atomics order every load and store
 * before it): one cache line passed from member to member, no message.
 */
final class SharedControl {
    /** Bytes of the fixed words; {@link #bytes} adds the PSCW counters. */
    static final long BYTES = 256;
    private static final long LOCK = 0;
    private static final long ACC = 64;
    private static final long FENCE = 128;
    private static final long ARRIVED = 0xFFFF_FFFFL;
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
        long v = (long) WORD.getAndAdd(root, FENCE, 1L);
        long round = v >>> 32;
        if ((v & ARRIVED) == members - 1) {
            // nobody can count into the next round before this store opens it
            WORD.setRelease(root, FENCE, (round + 1) << 32);
            return -1;
        }
        return round;
    }

    /** True once the round after {@code round} is open (every member arrived). */
    static boolean passed(MemorySegment root, long round) {
        return (long) WORD.getAcquire(root, FENCE) >>> 32 != round;
    }

    /**
     * Bytes of the control words of a window of {@code members}: the fixed words, then two
     * counters per member for PSCW, a cache line apart from them:
     * <pre>
     *   256             256 + 8p           256 + 16p (rounded up to 64)
     *   +---------------+------------------+
     *   | posted by r   | completed by r   |   r = 0 .. p-1, 8 B each
     *   +---------------+------------------+
     * </pre>
     * posted by r: how many times member r posted to this one (an exposure epoch this member may
     * access); completed by r: how many access epochs member r completed on this one.
     */
    static long bytes(int members) {
        return BYTES + ((16L * members + 63) & ~63L);
    }

    /** Target {@code target} exposes its memory to the member whose words are {@code origin}. */
    static void post(MemorySegment origin, int target) {
        long unused = (long) WORD.getAndAdd(origin, BYTES + 8L * target, 1L);
    }

    /** Posts made so far by {@code target} to the member whose words are {@code c}. */
    static long posts(MemorySegment c, int target) {
        return (long) WORD.getAcquire(c, BYTES + 8L * target);
    }

    /**
     * Origin {@code origin} completes its access epoch on the member whose words are
     * {@code target} (of a window of {@code members}); the atomic orders every store before it.
     */
    static void complete(MemorySegment target, int members, int origin) {
        long unused = (long) WORD.getAndAdd(target, BYTES + 8L * members + 8L * origin, 1L);
    }

    /** Completions made so far by {@code origin} on the member whose words are {@code c}. */
    static long completes(MemorySegment c, int members, int origin) {
        return (long) WORD.getAcquire(c, BYTES + 8L * members + 8L * origin);
    }

    /** Runs {@code update} under the accumulate lock of the member whose words {@code c} are. */
    static void accumulating(MemorySegment c, Runnable update) {
        lockAccumulate(c);
        try {
            update.run();
        } finally {
            unlockAccumulate(c);
        }
    }

    /** Takes the accumulate lock of the member whose words {@code c} are (spins, then yields). */
    static void lockAccumulate(MemorySegment c) {
        for (int spins = 1; !WORD.compareAndSet(c, ACC, 0L, 1L); spins++) {
            if ((spins & 63) == 0) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    static void unlockAccumulate(MemorySegment c) {
        WORD.setRelease(c, ACC, 0L);
    }
}
