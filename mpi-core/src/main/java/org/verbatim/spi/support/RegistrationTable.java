package org.verbatim.spi.support;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.verbatim.spi.Access;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.MemoryRegistration;

/**
 * The registrations an emulating transport hands out ({@link org.verbatim.spi.Transport#register}
 * delegates here) and the target side's check of every incoming access. A key is
 * {@code generation << 32 | (slot + 1)}, so the key of a closed registration never matches a
 * later one in the same slot, and 0 is never a key.
 *
 * <p>Not thread-safe: registration, deregistration and lookups happen under the runtime's
 * serialisation (its progress lock), like every other transport call.
 */
public final class RegistrationTable {
    private MemorySegment[] segments = new MemorySegment[64];
    private int[] access = new int[64];
    private int[] generations = new int[64];
    private int[] free = new int[64];
    private int freeCount;
    private int used;

    /**
     * Registers native {@code segment} with the {@link Access} rights {@code rights}. A heap
     * segment is refused with IllegalArgumentException (remote addresses are native addresses).
     */
    public MemoryRegistration register(MemorySegment segment, int rights) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("only native memory can be registered for RDMA");
        }
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (used == segments.length) {
                int n = used * 2;
                segments = Arrays.copyOf(segments, n);
                access = Arrays.copyOf(access, n);
                generations = Arrays.copyOf(generations, n);
                free = Arrays.copyOf(free, n);
            }
            slot = used++;
        }
        long key = ((long) ++generations[slot] << 32) | (slot + 1L);
        segments[slot] = segment;
        access[slot] = rights;
        return new Registration(segment, key);
    }

    /** Number of live registrations. */
    public int size() {
        return used - freeCount;
    }

    /**
     * Checks an access of {@code length} bytes at {@code address} under {@code key} that needs
     * the rights {@code needed}: returns the slot ({@code >= 0}, for {@link #segment} and
     * {@link #offset}) or {@code -status} with {@link CompletionStatus#REMOTE_ACCESS_ERROR} for an
     * unknown key, a range outside the registration or a missing right.
     */
    public int resolve(long key, long address, long length, int needed) {
        int slot = slotOf(key);
        if (slot < 0) {
            return -CompletionStatus.REMOTE_ACCESS_ERROR;
        }
        MemorySegment segment = segments[slot];
        long offset = address - segment.address();
        if (length < 0 || offset < 0 || offset > segment.byteSize() - length
                || !Access.allows(access[slot], needed)) {
            return -CompletionStatus.REMOTE_ACCESS_ERROR;
        }
        return slot;
    }

    /** The registered segment of a slot {@link #resolve} returned. */
    public MemorySegment segment(int slot) {
        return segments[slot];
    }

    /** Offset of {@code address} inside the registered segment of {@code slot}. */
    public long offset(int slot, long address) {
        return address - segments[slot].address();
    }

    private void remove(long key) {
        int slot = slotOf(key);
        if (slot >= 0) {
            segments[slot] = null;
            access[slot] = 0;
            free[freeCount++] = slot;
        }
    }

    private int slotOf(long key) {
        long slot = (key & 0xFFFF_FFFFL) - 1;
        if (slot < 0 || slot >= used) {
            return -1;
        }
        int s = (int) slot;
        return segments[s] != null && generations[s] == (int) (key >>> 32) ? s : -1;
    }

    /** One registration; closing it twice is harmless. */
    private final class Registration implements MemoryRegistration {
        private final MemorySegment segment;
        private final long key;
        private boolean closed;

        Registration(MemorySegment segment, long key) {
            this.segment = segment;
            this.key = key;
        }

        @Override
        public MemorySegment segment() {
            return segment;
        }

        @Override
        public long remoteKey() {
            return key;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                remove(key);
            }
        }
    }
}
