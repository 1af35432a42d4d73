package org.verbatim.spi;

import java.lang.foreign.MemorySegment;

/**
 * A registered (pinned, remotely accessible) native memory range. Closing it deregisters it; a
 * registration cache may hold it longer than one operation.
 */
public interface MemoryRegistration extends RemoteMemory, AutoCloseable {
    /** The registered memory itself. */
    MemorySegment segment();

    /** The registered memory's own address (where the owner's process sees it). */
    @Override
    default long address() {
        return segment().address();
    }

    @Override
    default long length() {
        return segment().byteSize();
    }

    @Override
    void close();
}
