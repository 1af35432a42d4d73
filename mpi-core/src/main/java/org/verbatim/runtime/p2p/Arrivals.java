package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Profiler;
import org.verbatim.runtime.base.RequestTable;
import org.verbatim.runtime.base.StagingPool;

/**
 * What arrives for the point-to-point protocols: eager messages and RTS matched against the
 * posted receives (else kept as unexpected), FIN and SYNC_ACK completing sends, and an
 * unexpected message delivered to the receive that matches it later.
 */
final class Arrivals {
    private final ProtocolContext context;
    private final PointToPoint owner;
    private final MatchQueues queues;
    private final RequestTable table;
    private final StagingPool pool;
    private final Profiler profiler;

    Arrivals(ProtocolContext context, PointToPoint owner, MatchQueues queues) {
        this.context = context;
        this.owner = owner;
        this.queues = queues;
        this.table = context.table();
        this.pool = context.pool();
        this.profiler = context.profiler();
    }

    /** verbatim.core.check-types: marks {@code r} if the sender's signature {@code code} does not fit. */
    static void checkType(RecvOp r, short code, long length) {
        if (code != 0 && r.typeCheck != null && !r.typeCheck.accepts(code, length)) {
            r.typeMismatch = true;
        }
    }

    void deliverUnexpected(Unexpected u, RecvOp r) {
        checkType(r, u.signature, u.length);
        if (u.fragmented) {
            owner.fragmentReceiver().deliverUnexpected(u, r);
            return;
        }
        if (u.rendezvous) {
            if (u.put && u.segments) {
                owner.segmentReceiver().start(r, u.peer, u.source, u.tag, u.length, u.senderRequest);
                return;
            }
            if (u.put) {
                owner.puts().start(r, u.peer, u.source, u.tag, u.length, u.senderRequest);
                return;
            }
            owner.gets().start(r, u.peer, u.source, u.tag, u.length, u.remoteAddress, u.remoteKey,
                    u.senderRequest);
            return;
        }
        long n = Math.min(u.length, r.capacity());
        if (n > 0) {
            r.deliver(u.payload, 0, n);
        }
        if (u.payload != null) {
            pool.release(u.payload);
        }
        if (u.sync) {
            owner.sendControl(u.peer, WireHeader.SYNC_ACK, 0, u.senderRequest);
        }
        if (u.credited) {
            owner.credit().taken(u.peer, u.length);
        }
        r.finish(u.source, u.tag, n, u.length > n ? ErrorClass.ERR_TRUNCATE : ErrorClass.SUCCESS);
    }

    void onEager(int sourceWorld, MemorySegment m, long at, long size) {
        // three loads for the fields of six; from a native record (the shm ring) by address,
        // its bounds checked once here (the handler's memory is the transport's, alive during
        // the call), not on each load of the ring's segment
        final long first;
        final long sourceTag;
        final long length;
        if (m.isNative() && at >= 0 && at + WireHeader.BASE_SIZE <= m.byteSize()) {
            long a = m.address() + at;
            first = WireHeader.firstAt(a);
            sourceTag = WireHeader.sourceTagAt(a);
            length = WireHeader.lengthAt(a);
        } else {
            first = WireHeader.first(m, at);
            sourceTag = WireHeader.sourceTag(m, at);
            length = WireHeader.length(m, at);
        }
        int ctx = WireHeader.contextOf(first);
        int src = WireHeader.sourceOf(sourceTag);
        int tag = WireHeader.tagOf(sourceTag);
        boolean sync = (WireHeader.flagsOf(first) & WireHeader.FLAG_SYNC) != 0;
        RecvOp r = queues.takePosted(ctx, src, tag);
        if (r != null) {
            checkType(r, WireHeader.signatureOf(first), length);
            long n = Math.min(length, r.capacity());
            r.deliver(m, at + WireHeader.BASE_SIZE, n);
            if (sync) {
                owner.sendControl(owner.peer(sourceWorld), WireHeader.SYNC_ACK, 0, WireHeader.request(m, at));
            }
            r.finish(src, tag, n, length > n ? ErrorClass.ERR_TRUNCATE : ErrorClass.SUCCESS);
            return;
        }
        Unexpected u = new Unexpected(ctx, src, tag, length, false, sync,
                WireHeader.request(m, at), 0, 0, owner.peer(sourceWorld));
        u.signature = WireHeader.signatureOf(first);
        if (length > 0) {
            u.payload = pool.acquire(length);
            MemorySegment.copy(m, at + WireHeader.BASE_SIZE, u.payload, 0, length);
        }
        queues.addUnexpected(u);
        profiler.unexpected();
    }

    /**
     * An eager message sent against this side's credit ({@link WireHeader#EAGER_CREDITED}): as
     * {@link #onEager}, whose hot path stays as it is (its size decides whether the JIT inlines
     * it), then the credit is given back at once if a posted receive took it, or once a later
     * receive takes it from the unexpected queue.
     */
    void onCreditedEager(int sourceWorld, MemorySegment m, long at, long size) {
        long before = queues.unexpectedTotal();
        onEager(sourceWorld, m, at, size);
        if (queues.unexpectedTotal() == before) {
            owner.credit().taken(owner.peer(sourceWorld), WireHeader.length(m, at));
        } else {
            queues.lastUnexpected().credited = true;
        }
    }

    void onRts(int sourceWorld, MemorySegment m, long at, long size) {
        int ctx = WireHeader.context(m, at);
        int src = WireHeader.source(m, at);
        int tag = WireHeader.tag(m, at);
        long length = WireHeader.length(m, at);
        RecvOp r = queues.takePosted(ctx, src, tag);
        PeerState p = owner.peer(sourceWorld);
        boolean put = (WireHeader.flags(m, at) & WireHeader.FLAG_RPUT) != 0;
        if (r != null) {
            checkType(r, WireHeader.signature(m, at), length);
        }
        boolean segments = put && (WireHeader.flags(m, at) & WireHeader.FLAG_SEGMENTS) != 0;
        if (r != null && segments) {
            owner.segmentReceiver().start(r, p, src, tag, length, WireHeader.request(m, at));
            return;
        }
        if (r != null && put) {
            owner.puts().start(r, p, src, tag, length, WireHeader.request(m, at));
            return;
        }
        if (r != null) {
            owner.gets().start(r, p, src, tag, length, WireHeader.address(m, at),
                    WireHeader.remoteKey(m, at), WireHeader.request(m, at));
            return;
        }
        Unexpected u = new Unexpected(ctx, src, tag, length, true, false,
                WireHeader.request(m, at), WireHeader.address(m, at),
                WireHeader.remoteKey(m, at), p);
        u.put = put;
        u.segments = segments;
        u.signature = WireHeader.signature(m, at);
        queues.addUnexpected(u);
        profiler.unexpected();
    }

    /** FIN (RGET done) or SYNC_ACK (synchronous eager matched): the send is complete. */
    void onFin(int sourceWorld, MemorySegment m, long at, long size) {
        Object o = table.remove(WireHeader.request(m, at));
        if (!(o instanceof SendOp s)) {
            throw context.fail("rank " + context.worldRank() + ": " + (WireHeader.kind(m, at)
                    == WireHeader.FIN ? "FIN" : "SYNC_ACK") + " from rank " + sourceWorld
                    + " names no send in progress");
        }
        owner.releaseRendezvous(s);
        if ((WireHeader.flags(m, at) & WireHeader.FLAG_ERROR) != 0) {
            s.fail(ErrorClass.ERR_OTHER);
        } else {
            s.finish();
        }
    }

}
