package org.verbatim.spi;

import java.lang.foreign.MemorySegment;

/**
 * The way to one peer (a connected queue pair in verbs terms), opened on demand at first use.
 * Every call is non-blocking and returns a {@link PostStatus}; one-sided operations complete
 * through {@link CompletionHandler#onComplete(long, int)} with the caller's work-request id and a
 * {@link CompletionStatus}.
 *
 * <p>The operations beyond send, write, write-with-immediate and read are optional: each is
 * advertised by a {@link Capability} flag and limited by the {@link Capabilities} record, and the
 * default implementations throw {@link UnsupportedOperationException} naming the missing flag.
 * Callers check the flag first; calling an operation that is not advertised is a bug.
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
     * {@link #send} of emulated RDMA data: the caller keeps {@code payload} (native) valid and
     * unchanged until the operation it belongs to completes through the peer's answer, so a
     * transport may leave the part the wire does not take at once where it is and write it from
     * there later, instead of copying it out. The header is copied out as with {@link #send}.
     */
    default int sendRetained(MemorySegment header, MemorySegment payload) {
        return send(header, payload);
    }

    /**
     * Claims room for one eager message of {@code length} bytes (header included, at most
     * {@link Capabilities#maxEager()}) and wraps it into {@code claim}: the caller writes the
     * message in place and commits or aborts it ({@link Capability#EAGER_CLAIM}). Ordered with
     * {@link #send}: a committed claim arrives after every message sent before the claim.
     */
    default int claim(int length, EagerClaim claim) {
        throw unsupported(Capability.EAGER_CLAIM);
    }

    /**
     * RDMA write of {@code local} (registered, native) to the peer's memory at {@code remoteAddress}.
     * Completes locally through {@code onComplete(wrId, status)}.
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

    /**
     * RDMA write of the gather list {@code local} (its entries, in order, at most
     * {@code put().maxIov()} of them) to one contiguous remote range ({@link Capability#WRITE_GATHER}).
     * The list is read during the call only.
     */
    default int writeGather(IoVector local, long remoteAddress, long remoteKey, long wrId) {
        throw unsupported(Capability.WRITE_GATHER);
    }

    /** {@link #writeGather} that also delivers {@code immediate} once the data is in place. */
    default int writeGatherWithImmediate(IoVector local, long remoteAddress, long remoteKey,
                                         int immediate, long wrId) {
        throw unsupported(Capability.WRITE_GATHER);
    }

    /**
     * RDMA read of one contiguous remote range into the scatter list {@code local}
     * ({@link Capability#READ_SCATTER}, at most {@code get().maxIov()} entries).
     */
    default int readScatter(IoVector local, long remoteAddress, long remoteKey, long wrId) {
        throw unsupported(Capability.READ_SCATTER);
    }

    /**
     * Posts the requests of {@code list} from index {@code from} on, in order, in one call where
     * the transport can ({@link Capability#LIST_POST}). Returns how many were posted (0 when the
     * first was refused for now); the caller retries the rest after progress. Without the flag
     * this posts them one by one, which every transport can do.
     */
    default int postList(WorkList list, int from) {
        return list.postEach(this, from);
    }

    /**
     * Remote fetch-and-add on the naturally aligned 64-bit word at {@code remoteAddress}: adds
     * {@code add}, and the old value lands in {@code result} (8 bytes of registered native
     * memory) before the completion ({@link Capability#ATOMICS}, {@link AtomicOp#FETCH_AND_ADD}).
     */
    default int fetchAndAdd(MemorySegment result, long remoteAddress, long remoteKey, long add,
                            long wrId) {
        throw unsupported(Capability.ATOMICS);
    }

    /**
     * Remote compare-and-swap on the 64-bit word at {@code remoteAddress}: writes {@code desired}
     * if it holds {@code expected}; the old value lands in {@code result}
     * ({@link AtomicOp#COMPARE_AND_SWAP}).
     */
    default int compareAndSwap(MemorySegment result, long remoteAddress, long remoteKey,
                               long expected, long desired, long wrId) {
        throw unsupported(Capability.ATOMICS);
    }

    /**
     * Completes (through {@code onComplete(wrId, status)}) once every write, atomic and
     * write-with-immediate posted earlier on this endpoint is placed in the peer's memory, not
     * only sent ({@link Capability#FLUSH}).
     */
    default int flush(long wrId) {
        throw unsupported(Capability.FLUSH);
    }

    private UnsupportedOperationException unsupported(Capability flag) {
        return new UnsupportedOperationException(getClass().getSimpleName() + " to rank " + peer()
                + " does not offer " + flag + " (check the transport's capabilities first)");
    }
}
