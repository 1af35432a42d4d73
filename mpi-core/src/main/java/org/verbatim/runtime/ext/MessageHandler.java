package org.verbatim.runtime.ext;

import java.lang.foreign.MemorySegment;

/**
 * Handles every eager message of one registered kind (the first byte of the message, see
 * {@link Dispatch}). Called on the progressing thread, under the runtime's lock.
 */
@FunctionalInterface
public interface MessageHandler {
    /**
     * The message is {@code length} bytes at {@code offset} of {@code buffer}, starting with its
     * kind byte. The memory is borrowed: it is valid only during this call.
     */
    void onMessage(int sourceWorld, MemorySegment buffer, long offset, long length);
}
