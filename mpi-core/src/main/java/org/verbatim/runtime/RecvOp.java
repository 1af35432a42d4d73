package org.verbatim.runtime;

import java.lang.foreign.MemorySegment;
import org.verbatim.spi.MemoryRegistration;

/** A posted receive (or a matched-probe receive) in flight. */
public final class RecvOp extends RequestState {
    int context;
    int source;
    int tag;
    /** Destination: exactly the receive buffer's bytes (count * type size). */
    MemorySegment data;
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

    RecvOp(int context, int source, int tag, MemorySegment data, Object keepAlive) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.data = data;
        this.keepAlive = keepAlive;
    }

    /** Makes a finished receive new again (the engine reuses one for blocking receives). */
    void reinit(int context, int source, int tag, MemorySegment data, Object keepAlive,
                Runnable onDone) {
        reset();
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.data = data;
        this.keepAlive = keepAlive;
        this.onDone = onDone;
        this.staging = null;
        this.chunksOutstanding = 0;
        this.peer = null;
        this.registration = null;
    }

    /**
     * Records a rendezvous matched to this receive (RGET or RPUT): the peer, the sender's request,
     * the status, and the bytes that fit; returns those bytes (less than {@code length} when the
     * message is truncated).
     */
    long matchRendezvous(PeerState p, int src, int tg, long length, long senderReq) {
        long n = Math.min(length, data.byteSize());
        peer = p;
        senderRequest = senderReq;
        bytesToRead = n;
        statusSource = src;
        statusTag = tg;
        statusError = length > n ? ErrorClass.ERR_TRUNCATE : ErrorClass.SUCCESS;
        return n;
    }

    boolean matches(int msgContext, int msgSource, int msgTag) {
        return context == msgContext
                && (source == Engine.ANY_SOURCE || source == msgSource)
                && (tag == Engine.ANY_TAG || tag == msgTag);
    }

    void finish(int src, int tg, long bytes, int error) {
        statusSource = src;
        statusTag = tg;
        statusBytes = bytes;
        statusError = error;
        if (onDone != null) {
            onDone.run();
        }
        markComplete();
    }

    @Override
    public boolean cancel(Engine engine) {
        return engine.cancelReceive(this);
    }

    void markCancelled() {
        cancelled = true;
        statusSource = Engine.ANY_SOURCE;
        statusTag = Engine.ANY_TAG;
        markComplete();
    }
}
