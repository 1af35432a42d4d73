package org.verbatim.transport.shm;

/**
 * Layout of a shm remote key: what a peer's operation carries to name a registration.
 *
 * <pre>
 *   63      57 56  55   52 51              32 31                        0
 *  +----------+---+-------+------------------+---------------------------+
 *  | TAG 0x5A | S | ACCESS|  GENERATION (20) |   SLOT + 1 (32)           |
 *  +----------+---+-------+------------------+---------------------------+
 * </pre>
 *
 * SLOT and GENERATION find the registration in the owner's {@link RegistrationTable} (a closed
 * registration's key never matches its slot's next tenant). ACCESS repeats the registration's
 * {@link org.verbatim.spi.Access} rights and S says the memory lies in a shared segment
 * ({@link ShmSharedSegments}), so that an initiator that copies by itself (cross-memory attach,
 * atomics on a shared mapping) can refuse what the owner would refuse without asking it. The tag
 * makes a key that shm never issued (0, a key of another transport) fail that local check too.
 */
final class RemoteKeys {
    static final long TAG = 0x5AL;
    static final int TAG_SHIFT = 57;
    static final long SHARED_BIT = 1L << 56;
    static final int ACCESS_SHIFT = 52;
    static final int GENERATION_SHIFT = 32;
    static final int GENERATION_MASK = (1 << 20) - 1;

    private RemoteKeys() {
    }

    static long key(int slot, int generation, int access, boolean shared) {
        return TAG << TAG_SHIFT | (shared ? SHARED_BIT : 0)
                | (long) (access & 0xF) << ACCESS_SHIFT
                | (long) (generation & GENERATION_MASK) << GENERATION_SHIFT
                | (slot + 1L);
    }

    /** True when {@code key} has the shape of a key shm issued. */
    static boolean wellFormed(long key) {
        return key >>> TAG_SHIFT == TAG && (key & 0xFFFF_FFFFL) != 0;
    }

    /** The slot, or -1 for a malformed key. */
    static int slot(long key) {
        return wellFormed(key) ? (int) ((key & 0xFFFF_FFFFL) - 1) : -1;
    }

    static int access(long key) {
        return (int) (key >>> ACCESS_SHIFT) & 0xF;
    }

    static boolean shared(long key) {
        return (key & SHARED_BIT) != 0;
    }

    /** True when the key is well formed and carries every right in {@code needed}. */
    static boolean allows(long key, int needed) {
        return wellFormed(key) && (access(key) & needed) == needed;
    }
}
