package org.verbatim.transport.shm;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The registrations of one transport, by key. A key is {@code generation << 32 | (slot + 1)}, so a
 * key of a closed registration never matches a later one in the same slot. Registration is not on
 * the data path; lookups happen once per emulated-RDMA chunk.
 */
final class RegistrationTable {
    private ShmRegistration[] slots = new ShmRegistration[64];
    private int[] generations = new int[64];
    private int[] free = new int[64];
    private int freeCount;
    private int used;

    synchronized ShmRegistration add(MemorySegment segment) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (used == slots.length) {
                slots = Arrays.copyOf(slots, used * 2);
                generations = Arrays.copyOf(generations, used * 2);
                free = Arrays.copyOf(free, used * 2);
            }
            slot = used++;
        }
        long key = ((long) ++generations[slot] << 32) | (slot + 1L);
        ShmRegistration registration = new ShmRegistration(this, segment, key);
        slots[slot] = registration;
        return registration;
    }

    synchronized void remove(long key) {
        int slot = slotOf(key);
        if (slot >= 0 && slots[slot] != null && slots[slot].remoteKey() == key) {
            slots[slot] = null;
            free[freeCount++] = slot;
        }
    }

    /**
     * The registered memory {@code [address, address + length)} under {@code key}, or null if
     * that range is not inside the registration.
     */
    synchronized MemorySegment resolve(long key, long address, long length) {
        int slot = slotOf(key);
        if (slot < 0 || slots[slot] == null || slots[slot].remoteKey() != key) {
            return null;
        }
        MemorySegment segment = slots[slot].segment();
        long offset = address - segment.address();
        if (offset < 0 || length < 0 || offset > segment.byteSize() - length) {
            return null;
        }
        return segment.asSlice(offset, length);
    }

    private int slotOf(long key) {
        long slot = (key & 0xFFFF_FFFFL) - 1;
        return slot < 0 || slot >= used ? -1 : (int) slot;
    }
}
