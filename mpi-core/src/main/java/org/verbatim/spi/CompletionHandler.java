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

    /** Header bytes a transport has of a message before it asks for its {@link #placement}. */
    int PLACEMENT_HEAD = 40;

    /**
     * For a transport that reads a byte stream: where the tail of the message from
     * {@code source} whose first {@code headLength} bytes (at least {@link #PLACEMENT_HEAD}) are at
     * {@code at} of {@code head} goes, so that the transport reads it from the socket straight
     * into place instead of into its buffer. The whole message is {@code length} bytes; the
     * returned segment takes its last {@code byteSize()} bytes (the message's header is the rest,
     * at most {@code headLength}). Null (the default): deliver the message whole through
     * {@link #onReceive}. Once all of it is in place the transport calls {@link #placed} with
     * the header (the first {@code length - byteSize()} bytes), before it delivers anything else
     * from that peer. A peer that fails in between is reported by {@link #onPeerFailure} alone.
     */
    default MemorySegment placement(int source, MemorySegment head, long at, long headLength,
                                    long length) {
        return null;
    }

    /** The tail of a message {@link #placement} placed has all arrived: handle the message. */
    default void placed(int source, MemorySegment head, long at, long length) {
        throw new IllegalStateException("placed() without a placement");
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
