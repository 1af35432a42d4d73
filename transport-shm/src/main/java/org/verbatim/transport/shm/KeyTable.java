package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.KeyTableDescriptor.ADDRESS_OFFSET;
import static org.verbatim.transport.shm.KeyTableDescriptor.ENTRIES;
import static org.verbatim.transport.shm.KeyTableDescriptor.ENTRY_LENGTH;
import static org.verbatim.transport.shm.KeyTableDescriptor.KEY_OFFSET;
import static org.verbatim.transport.shm.KeyTableDescriptor.LENGTH_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/** One rank's key table ({@link KeyTableDescriptor}): written by its owner, read by peers. */
final class KeyTable {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final MemorySegment table;

    /** @param table the table's {@link KeyTableDescriptor#LENGTH} bytes in the inbox file */
    KeyTable(MemorySegment table) {
        this.table = table;
    }

    /** Owner: publishes a registration (its slot comes from the key). */
    void publish(long key, long address, long length) {
        final int slot = RemoteKeys.slot(key);
        if (slot < 0 || slot >= ENTRIES) {
            return;
        }
        final long entry = (long) slot * ENTRY_LENGTH;
        table.set(ValueLayout.JAVA_LONG, entry + ADDRESS_OFFSET, address);
        table.set(ValueLayout.JAVA_LONG, entry + LENGTH_OFFSET, length);
        LONG.setRelease(table, entry + KEY_OFFSET, key);
    }

    /** Owner: withdraws a registration before its slot is reused. */
    void withdraw(long key) {
        final int slot = RemoteKeys.slot(key);
        if (slot < 0 || slot >= ENTRIES) {
            return;
        }
        LONG.setRelease(table, (long) slot * ENTRY_LENGTH + KEY_OFFSET, 0L);
    }

    /**
     * True when {@code key} is beyond the table (a well-formed key of a slot past
     * {@link KeyTableDescriptor#ENTRIES}): only its owner can check it, so operations with it take
     * the emulated path.
     */
    static boolean beyond(long key) {
        return RemoteKeys.slot(key) >= ENTRIES;
    }

    /**
     * Peer: true when {@code [address, address + length)} lies inside the registration of
     * {@code key} and the key carries the rights in {@code needed}. False for a key
     * {@link #beyond} the table.
     */
    boolean allows(long key, long address, long length, int needed) {
        if (!RemoteKeys.allows(key, needed)) {
            return false;
        }
        final int slot = RemoteKeys.slot(key);
        if (slot >= ENTRIES) {
            return false;
        }
        final long entry = (long) slot * ENTRY_LENGTH;
        if ((long) LONG.getAcquire(table, entry + KEY_OFFSET) != key) {
            return false;
        }
        final long base = table.get(ValueLayout.JAVA_LONG, entry + ADDRESS_OFFSET);
        final long size = table.get(ValueLayout.JAVA_LONG, entry + LENGTH_OFFSET);
        VarHandle.loadLoadFence();
        if ((long) LONG.getAcquire(table, entry + KEY_OFFSET) != key) {
            return false;
        }
        final long offset = address - base;
        return offset >= 0 && length >= 0 && offset <= size - length;
    }
}
