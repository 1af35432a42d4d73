package org.verbatim.transport.shm;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.verbatim.spi.Access;

/**
 * The registrations of one transport, by key ({@link RemoteKeys}): slot, generation and access
 * rights. Registration is not on the data path; lookups happen once per emulated operation
 * record, at the target.
 */
final class RegistrationTable {
    /** This rank's key table in its inbox file, which peers read; null without peers. */
    private KeyTable published;
    private ShmRegistration[] slots = new ShmRegistration[64];
    private int[] generations = new int[64];
    private int[] free = new int[64];
    private int freeCount;
    private int used;

    RegistrationTable(KeyTable published) {
        this.published = published;
    }

    /** Publishes every live registration in {@code table}, from now on kept up to date (a late inbox). */
    synchronized void publishTo(KeyTable table) {
        for (int slot = 0; slot < used; slot++) {
            ShmRegistration r = slots[slot];
            if (r != null) {
                table.publish(r.remoteKey(), r.segment().address(), r.segment().byteSize());
            }
        }
        published = table;
    }

    synchronized ShmRegistration add(MemorySegment segment, int access, boolean shared) {
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
        generations[slot] = (generations[slot] + 1) & RemoteKeys.GENERATION_MASK;
        long key = RemoteKeys.key(slot, generations[slot], access & Access.ALL, shared);
        ShmRegistration registration = new ShmRegistration(this, segment, key, access);
        slots[slot] = registration;
        if (published != null) {
            published.publish(key, segment.address(), segment.byteSize());
        }
        return registration;
    }

    synchronized void remove(long key) {
        int slot = slotOf(key);
        if (slot >= 0 && slots[slot] != null && slots[slot].remoteKey() == key) {
            if (published != null) {
                published.withdraw(key);
            }
            slots[slot] = null;
            free[freeCount++] = slot;
        }
    }

    /**
     * The registered memory {@code [address, address + length)} under {@code key}, or null if
     * the key is unknown, that range is not inside the registration, or the registration lacks
     * a right in {@code needed} ({@link Access}): a remote access error, in any case.
     */
    synchronized MemorySegment resolve(long key, long address, long length, int needed) {
        int slot = slotOf(key);
        if (slot < 0 || slots[slot] == null || slots[slot].remoteKey() != key) {
            return null;
        }
        ShmRegistration registration = slots[slot];
        if (!Access.allows(registration.access(), needed)) {
            return null;
        }
        MemorySegment segment = registration.segment();
        long offset = address - segment.address();
        if (offset < 0 || length < 0 || offset > segment.byteSize() - length) {
            return null;
        }
        return segment.asSlice(offset, length);
    }

    private int slotOf(long key) {
        int slot = RemoteKeys.slot(key);
        return slot < 0 || slot >= used ? -1 : slot;
    }
}
