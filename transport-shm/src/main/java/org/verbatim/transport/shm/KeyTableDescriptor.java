package org.verbatim.transport.shm;

/**
 * Layout of a rank's key table, at the end of its inbox file: one entry per registration slot
 * ({@link RemoteKeys}), so that a peer that copies by itself with cross-memory attach can check a
 * key, the range and the rights against what the owner registered, with plain loads and no
 * system call. The owner writes; peers only read.
 *
 * <pre>
 *   entry i (32 bytes, at i * ENTRY_LENGTH):
 *  +---------------------------------------------------------------+  0
 *  |   KEY: the registration's remote key; 0 = free. Written last  |
 *  |   (release) when registering, cleared first when closing.     |
 *  +---------------------------------------------------------------+  8
 *  |   ADDRESS: first byte, in the owner's address space           |
 *  +---------------------------------------------------------------+ 16
 *  |   LENGTH: bytes                                               |
 *  +---------------------------------------------------------------+ 24
 *  |   (reserved)                                                  |
 *  +---------------------------------------------------------------+ 32
 * </pre>
 *
 * A reader loads KEY (acquire), ADDRESS and LENGTH, then KEY again: the same key both times means
 * the range belongs to it (a slot's next key differs by its generation). Slots beyond
 * {@link #ENTRIES} are not in the table: operations on them take the emulated path, where the
 * owner checks them. The table is a sparse part of a tmpfs file: pages no registration touched
 * cost no memory (2 MiB of address space, 4 KiB of memory per 128 live registrations).
 */
final class KeyTableDescriptor {
    static final int ENTRIES = 65536;
    static final int ENTRY_LENGTH = 32;
    static final int KEY_OFFSET = 0;
    static final int ADDRESS_OFFSET = 8;
    static final int LENGTH_OFFSET = 16;
    static final long LENGTH = (long) ENTRIES * ENTRY_LENGTH;

    private KeyTableDescriptor() {
    }
}
