package org.verbatim.transport.shm;

import java.lang.foreign.MemorySegment;
import org.verbatim.spi.MemoryRegistration;

/**
 * A registered native range. Shared memory needs no pinning: the key only lets a target of the
 * emulated (fallback) RDMA check that an address range was really registered before it copies.
 */
final class ShmRegistration implements MemoryRegistration {
    private final RegistrationTable table;
    private final MemorySegment segment;
    private final long key;
    private boolean closed;

    ShmRegistration(RegistrationTable table, MemorySegment segment, long key) {
        this.table = table;
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
                + ", key=0x" + Long.toHexString(key) + "]";
    }
}
