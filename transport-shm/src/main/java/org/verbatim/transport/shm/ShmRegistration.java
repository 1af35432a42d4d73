package org.verbatim.transport.shm;

import java.lang.foreign.MemorySegment;
import org.verbatim.spi.MemoryRegistration;

/**
 * A registered native range. Shared memory needs no pinning: the key ({@link RemoteKeys}) lets a
 * target of emulated operations check that an address range was registered, with the right
 * access, before it copies, and tells an initiator the rights and whether the memory lies in a
 * shared segment.
 */
final class ShmRegistration implements MemoryRegistration {
    private final RegistrationTable table;
    private final MemorySegment segment;
    private final long key;
    private final int access;
    private boolean closed;

    ShmRegistration(RegistrationTable table, MemorySegment segment, long key, int access) {
        this.table = table;
        this.segment = segment;
        this.key = key;
        this.access = access;
    }

    /** The {@link org.verbatim.spi.Access} rights peers have on this memory. */
    int access() {
        return access;
    }

    /** True when the memory lies inside a shared segment ({@link ShmSharedSegments}). */
    boolean shared() {
        return RemoteKeys.shared(key);
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
        synchronized (table) {
            if (!closed) {
                closed = true;
                table.remove(key);
            }
        }
    }

    @Override
    public String toString() {
        return "ShmRegistration[address=0x" + Long.toHexString(address()) + ", length=" + length()
                + ", key=0x" + Long.toHexString(key) + ", access=" + access + "]";
    }
}
