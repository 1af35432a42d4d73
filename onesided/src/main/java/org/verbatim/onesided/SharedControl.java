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
 *   +----------------+--- pad ------+----------------+--- pad -----+--- window memory ---
 *   | lock word      |              | accumulate lock|             |
 *   +----------------+--------------+----------------+-------------+---------------------
 *   lock word: bit 62 exclusive holder | bits 32..61 writers waiting | bits 0..31 readers
 * </pre>
 * A writer announces itself first and new readers wait while one is announced, so a writer is
 * not starved by a stream of readers.
 */
final class SharedControl {
    static final long BYTES = 128;
    private static final long LOCK = 0;
    private static final long ACC = 64;
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
