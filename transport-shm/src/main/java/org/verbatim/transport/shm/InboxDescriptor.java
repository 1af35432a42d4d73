package org.verbatim.transport.shm;

/**
 * Layout of one rank's inbox file ({@code <dir>/verbatim-<jobid>-<rank>}): a metadata block, the
 * ring counters, each on its own pair of cache lines, the ring data (a power of two), and the
 * rank's table of registration keys ({@link KeyTableDescriptor}).
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+   0
 *  |                        MAGIC "VBTMSHM1"                       |
 *  +-------------------------------+-------------------------------+   8
 *  |            VERSION            |      CAPACITY (ring bytes)    |
 *  +-------------------------------+-------------------------------+  16
 *  |                        OWNER PID                              |
 *  +-------------------------------+-------------------------------+  24
 *  |      MAX RECORD LENGTH        |   FINALIZED (owner closed)    |
 *  +-------------------------------+-------------------------------+  32
 *  |   PROBE WORD (read by a peer with process_vm_readv at open)   |
 *  +---------------------------------------------------------------+  40
 *  |                        ... padding ...                        |
 *  +---------------------------------------------------------------+ 128
 *  |      TAIL: claimed by producers with CAS (any peer)           |
 *  +---------------------------------------------------------------+ 136 .. 255 padding
 *  |      HEAD CACHE: producers' hint of HEAD (racy, conservative) |
 *  +---------------------------------------------------------------+ 256 .. 383 padding
 *  |      HEAD: consumed position, written by the owner (release)  |
 *  +-------------------------------+-------------------------------+ 384 .. 511 padding
 *  |  SLEEPING (futex word)        |  WAKE ON COMMIT               |  see Doorbell
 *  +---------------------------------------------------------------+ 520 .. 4095 padding
 *  |                                                               |
 *  |      RING DATA: CAPACITY bytes of records, see RecordDescriptor
 *  |                                                               |
 *  +---------------------------------------------------------------+ 4096 + CAPACITY
 *  |      KEY TABLE: see KeyTableDescriptor                        |
 *  +---------------------------------------------------------------+ + KeyTableDescriptor.LENGTH
 * </pre>
 *
 * Counters sit 128 bytes apart (two cache lines, because of the adjacent-line prefetcher), so the
 * consumer's HEAD and the producers' TAIL never share a line. TAIL and HEAD are positions that only
 * grow; the index in the ring is {@code position & (CAPACITY - 1)}.
 */
final class InboxDescriptor {
    /** "VBTMSHM1" in ASCII, little-endian. */
    static final long MAGIC = 0x314D48534D544256L;
    static final int VERSION = 3;
    /** The value of the probe word: what a peer must read through CMA for CMA to count as working. */
    static final long PROBE_MAGIC = 0x43_4D_41_2D_50_52_4F_42L;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int CAPACITY_OFFSET = 12;
    static final int PID_OFFSET = 16;
    static final int MAX_RECORD_OFFSET = 24;
    static final int PROBE_OFFSET = 32;
    /**
     * Set to 1 by the owner when it closes its transport (MPI_Finalize): a peer of another world
     * that then finds the owner's process gone knows it ended normally, not failed.
     */
    static final int FINALIZED_OFFSET = 28;

    /** Distance between counters: two cache lines. */
    static final int COUNTER_PADDING = 128;
    static final int TAIL_OFFSET = 128;
    static final int HEAD_CACHE_OFFSET = TAIL_OFFSET + COUNTER_PADDING;
    static final int HEAD_OFFSET = HEAD_CACHE_OFFSET + COUNTER_PADDING;
    /** The owner's futex word: 1 while it sleeps (or is about to). */
    static final int SLEEPING_OFFSET = HEAD_OFFSET + COUNTER_PADDING;
    /** Set by the owner once it has slept: producers then check SLEEPING after commits. */
    static final int WAKE_ON_COMMIT_OFFSET = SLEEPING_OFFSET + 4;
    /** The ring starts on its own page. */
    static final int RING_OFFSET = 4096;

    private InboxDescriptor() {
    }

    /** Where the key table starts in a file with a ring of {@code capacity} bytes. */
    static long keyTableOffset(int capacity) {
        return RING_OFFSET + (long) capacity;
    }

    /** Total file size for a ring of {@code capacity} bytes. */
    static long fileSize(int capacity) {
        return keyTableOffset(capacity) + KeyTableDescriptor.LENGTH;
    }
}
