package org.verbatim.spi;

import java.lang.foreign.MemorySegment;

/**
 * Where a transport delivers what it finds while making progress. Implemented by the runtime.
 * Calls come from inside {@link Transport#progress} on the progressing thread.
 */
public interface CompletionHandler {
    /**
     * An eager message from {@code source} (world rank). The segment is borrowed: it is valid only
     * during this call, after which the transport reuses the receive buffer.
     */
    void onReceive(int source, MemorySegment message);

    /**
     * The same as {@link #onReceive(int, MemorySegment)} for a message at {@code offset} of
     * {@code length} bytes inside {@code buffer} (for example the receive ring itself), so the
     * transport need not make a slice per message. The default slices.
     */
    default void onReceive(int source, MemorySegment buffer, long offset, long length) {
        onReceive(source, buffer.asSlice(offset, length));
    }

    /** A write-with-immediate from {@code source} has landed in this process's memory. */
    void onImmediate(int source, int immediate);

    /**
     * A posted one-sided operation has completed locally (data written, read data in place,
     * atomic result in place, flush placed) with {@code status} ({@link CompletionStatus}). An
     * error status reaches the operation that posted {@code wrId}; it does not end the job by
     * itself.
     */
    void onComplete(long wrId, int status);

    /** {@link #onComplete(long, int)} with {@link CompletionStatus#OK}. */
    default void onComplete(long wrId) {
        onComplete(wrId, CompletionStatus.OK);
    }

    /**
     * The peer is gone (its process died or its connection broke). The runtime ends the job with
     * a message that names the rank.
     */
    void onPeerFailure(int peer, String reason);
}
