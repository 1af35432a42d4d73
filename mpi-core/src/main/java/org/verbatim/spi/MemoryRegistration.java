package org.verbatim.spi;

import java.lang.foreign.MemorySegment;

/**
 * A registered (pinned, remotely accessible) native memory range. Closing it deregisters it; a
 * registration cache may hold it longer than one operation.
 */
public interface MemoryRegistration extends RemoteMemory, AutoCloseable {
    /** The registered memory itself. */
    MemorySegment segment();

    @Override
    void close();
}
