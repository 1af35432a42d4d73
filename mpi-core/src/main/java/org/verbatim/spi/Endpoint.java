package org.verbatim.spi;

import java.lang.foreign.MemorySegment;

/**
 * The way to one peer (a connected queue pair in verbs terms), opened on demand at first use.
 * Every call is non-blocking and returns a {@link PostStatus}; completions of RDMA operations
 * arrive through {@link CompletionHandler#onComplete} with the caller's work-request id.
 *
 * <p>Threading: the runtime calls an endpoint from one thread at a time (under its progress lock).
 */
public interface Endpoint {
    /** World rank of the peer. */
    int peer();

    /**
     * Eager send of {@code header} followed by {@code payload} (a two-entry gather list) as one
     * message. On {@link PostStatus#OK} both have been copied out: the caller may reuse them at
     * once. Messages to one peer arrive in the order they were sent. {@code header.byteSize() +
     * payload.byteSize()} must not exceed {@link Capabilities#maxEager()}. Either may be a heap
     * segment.
     */
    int send(MemorySegment header, MemorySegment payload);

    /**
     * RDMA write of {@code local} (registered, native) to the peer's memory at {@code remoteAddress}.
     * Completes locally through {@code onComplete(wrId)}.
     */
    int write(MemorySegment local, long remoteAddress, long remoteKey, long wrId);

    /**
     * RDMA write with immediate: like {@link #write}, and once the data is in place the peer's
     * handler gets {@code onImmediate(myRank, immediate)}.
     */
    int writeWithImmediate(MemorySegment local, long remoteAddress, long remoteKey, int immediate,
                           long wrId);

    /** RDMA read of the peer's memory at {@code remoteAddress} into {@code local} (native). */
    int read(MemorySegment local, long remoteAddress, long remoteKey, long wrId);
}
