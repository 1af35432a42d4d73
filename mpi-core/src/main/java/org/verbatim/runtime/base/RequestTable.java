package org.verbatim.runtime.base;

import java.util.Arrays;

/**
 * Maps the 64-bit ids that travel in protocol headers (FIN, SYNC_ACK, RDMA work-request ids)
 * back to requests. An id is a slot index plus a generation, so a stale id never finds a reused
 * slot. No allocation once the table has grown to the number of requests in flight.
 */
public final class RequestTable {
    private Object[] slots = new Object[64];
    private int[] generations = new int[64];
    private int[] free = new int[64];
    private int freeCount;
    private int used;

    public long add(Object request) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (used == slots.length) {
                int n = used * 2;
                slots = Arrays.copyOf(slots, n);
                generations = Arrays.copyOf(generations, n);
                free = Arrays.copyOf(free, n);
            }
            slot = used++;
        }
        slots[slot] = request;
        return ((long) generations[slot] << 32) | slot;
    }

    public Object get(long id) {
        int slot = (int) id;
        if (slot < 0 || slot >= used || generations[slot] != (int) (id >>> 32)) {
            return null;
        }
        return slots[slot];
    }

    public Object remove(long id) {
        Object r = get(id);
        if (r != null) {
            int slot = (int) id;
            slots[slot] = null;
            generations[slot]++;
            free[freeCount++] = slot;
        }
        return r;
    }

    /** The id of the request now in {@code slot}, or -1 if the slot is free or unknown. */
    public long currentId(int slot) {
        if (slot < 0 || slot >= used || slots[slot] == null) {
            return -1;
        }
        return ((long) generations[slot] << 32) | slot;
    }

    public int inFlight() {
        return used - freeCount;
    }

    /** Calls {@code action} with every request in the table. */
    public void forEach(java.util.function.Consumer<Object> action) {
        for (int i = 0; i < used; i++) {
            if (slots[i] != null) {
                action.accept(slots[i]);
            }
        }
    }
}
