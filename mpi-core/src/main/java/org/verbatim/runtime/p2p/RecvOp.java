package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.ext.CompletionCallback;
import org.verbatim.runtime.ext.Retryable;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.support.SmallCopy;

/**
 * A posted receive (or a matched-probe receive) in flight: its own pending-queue entry (a read
 * or CTS the transport refused) and completion callback (the RGET reads).
 */
public final class RecvOp extends RequestState implements Retryable, CompletionCallback {
    final PointToPoint owner;
    int context;
    int source;
    int tag;
    /** Destination: exactly the receive buffer's bytes (count * type size), or the base of
     *  {@link #layout}. */
    MemorySegment data;
    /** The receive buffer's layout over {@link #data}, or null when contiguous. */
    Layout layout;
    Object keepAlive;
    /** Runs after the data has landed (copy-back of staged or converted buffers). */
    Runnable onDone;
    long id;
    /** Doubly linked membership in the posted-receive queue. */
    RecvOp prev;
    RecvOp next;
    boolean posted;
    /** Rendezvous state: staging buffer read into, chunks outstanding, the sender to answer. */
    MemorySegment staging;
    int chunksOutstanding;
    long bytesToRead;
    long readOffset;
    long remoteAddress;
    long remoteKey;
    long senderRequest;
    PeerState peer;
    /** RPUT: the receive buffer (or its staging) as registered for the sender's writes. */
    MemoryRegistration registration;
    /** RPUT: the CTS still has to go out. */
    boolean ctsPending;
    /** RPUT into the blocks themselves (multi-w): the CTS's block list until it is out. */
    MemorySegment ctsBlocks;
    /** RPUT into the blocks, named by a reference to the committed type ({@link CtsLayouts}). */
    boolean ctsReference;
    /** RGET straight into the blocks (p-rrs): where the next read lands. */
    BlockCursor cursor;
    /** Eager fragments into {@link #layout}: where the next fragment is unpacked. */
    LayoutCursor fragmentCursor;
    /** Segments (bc-spup, rwg-up): slots and progress; null otherwise. */
    SegmentReceive segments;
    /** True while in the pending queue. */
    boolean pending;
    /** Error class of a failed transfer (set by a completion with an error status). */
    int transferError;
    /** verbatim.core.check-types: the receive's type signature (null: unchecked). */
    TypeCheck typeCheck;
    /** The matched message's sender type does not match: the receive ends with MPI_ERR_TYPE. */
    boolean typeMismatch;

    RecvOp(PointToPoint owner, int context, int source, int tag, MemorySegment data, Object keepAlive) {
        this.owner = owner;
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.data = data;
        this.keepAlive = keepAlive;
    }

    /** True while the receive waits in the posted queue (not matched yet). */
    public boolean isPosted() {
        return posted;
    }

    /** Bytes the receive buffer holds. */
    long capacity() {
        return layout != null ? layout.size() : data.byteSize();
    }

    /** True when RDMA cannot land in the buffer itself (heap memory, or a layout). */
    boolean needsStaging() {
        return layout != null || !data.isNative();
    }

    /** Copies {@code n} bytes of the message from {@code from} at {@code at} into the buffer. */
    void deliver(MemorySegment from, long at, long n) {
        if (n == 0) {
            return;
        }
        if (layout != null) {
            layout.unpack(from, at, n, data, 0);
        } else if (n <= SmallCopy.MAX && from.isNative() && data.isNative()
                && at + n <= from.byteSize() && n <= data.byteSize() && !data.isReadOnly()
                && data.scope().isAlive()) {
            // a small eager message out of a transport's native buffer (the shm ring): by
            // address, both ranges checked here, the receive buffer writable and alive
            SmallCopy.copy(from.address() + at, data.address(), (int) n);
        } else {
            MemorySegment.copy(from, at, data, 0, n);
        }
    }

    /**
     * Hands this receive back to the point-to-point engine that made it, for reuse
     * ({@link PointToPoint#recycle}): its only owner has consumed its completion.
     */
    public void recycle() {
        owner.recycle(this);
    }

    @Override
    public boolean retry() {
        return owner.retryReceive(this);
    }

    @Override
    public void onComplete(long wrId, int status) {
        owner.gets().onReadComplete(this, status);
    }

    /** Makes a finished receive new again (the engine reuses one for blocking receives). */
    void reinit(int context, int source, int tag, MemorySegment data, Object keepAlive,
                Runnable onDone) {
        reset();
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.data = data;
        this.layout = null;
        this.keepAlive = keepAlive;
        this.onDone = onDone;
        this.staging = null;
        this.ctsPending = false;
        this.pending = false;
        this.transferError = 0;
        this.typeCheck = null;
        this.typeMismatch = false;
        this.chunksOutstanding = 0;
        this.peer = null;
        this.registration = null;
        this.ctsBlocks = null;
        this.ctsReference = false;
        this.cursor = null;
        this.segments = null;
        this.fragmentCursor = null;
    }

    /**
     * Records a rendezvous matched to this receive (RGET or RPUT): the peer, the sender's request,
     * the status, and the bytes that fit; returns those bytes (less than {@code length} when the
     * message is truncated).
     */
    long matchRendezvous(PeerState p, int src, int tg, long length, long senderReq) {
        long n = Math.min(length, capacity());
        peer = p;
        senderRequest = senderReq;
        bytesToRead = n;
        statusSource = src;
        statusTag = tg;
        statusError = typeMismatch ? ErrorClass.ERR_TYPE : length > n ? ErrorClass.ERR_TRUNCATE : ErrorClass.SUCCESS;
        return n;
    }

    boolean matches(int msgContext, int msgSource, int msgTag) {
        return context == msgContext
                && (source == PointToPoint.ANY_SOURCE || source == msgSource)
                && (tag == PointToPoint.ANY_TAG || tag == msgTag);
    }

    void finish(int src, int tg, long bytes, int error) {
        statusSource = src;
        statusTag = tg;
        statusBytes = bytes;
        statusError = typeMismatch && (error == ErrorClass.SUCCESS || error == ErrorClass.ERR_TRUNCATE)
                ? ErrorClass.ERR_TYPE : error;
        if (onDone != null) {
            onDone.run();
        }
        markComplete();
    }

    @Override
    public boolean cancel() {
        return owner.cancelReceive(this);
    }

    void markCancelled() {
        cancelled = true;
        statusSource = PointToPoint.ANY_SOURCE;
        statusTag = PointToPoint.ANY_TAG;
        markComplete();
    }
}
