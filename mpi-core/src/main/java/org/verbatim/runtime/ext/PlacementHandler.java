package org.verbatim.runtime.ext;

import java.lang.foreign.MemorySegment;

/**
 * Receives large messages of one registered kind straight into place on a transport that reads
 * a byte stream ({@link org.verbatim.spi.CompletionHandler#placement}): from the message's head
 * it names where the rest goes, and handles the message once the rest has arrived. Called on
 * the progressing thread, under the runtime's lock.
 */
public interface PlacementHandler {
    /**
     * Where the tail of the message whose first {@code headLength} bytes are at {@code at} of
     * {@code head} goes (its last {@code byteSize()} bytes of {@code length}), or null: deliver
     * it whole to the kind's {@link MessageHandler}.
     */
    MemorySegment placement(int sourceWorld, MemorySegment head, long at, long headLength,
                            long length);

    /** The tail is in place; {@code head} holds the message's header at {@code at}. */
    void placed(int sourceWorld, MemorySegment head, long at, long length);
}
