package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.EngineLock;

/**
 * Posting receives, for {@link PointToPoint}: a receive is matched at once against the
 * unexpected messages ({@link MatchQueues}, then {@link Arrivals} delivers) or posted to wait for
 * its message; probes look at the unexpected queue, and a matched probe's message goes to the
 * receive made for it. Receives that ended as an eager delivery are taken back ({@link #recycle})
 * and reused, so that a warm receive allocates nothing (the blocking receive's one reused object
 * is {@link PointToPoint#receiveBlocking}'s). Cancel and the pending queue's retry (an RPUT CTS or
 * RGET reads the transport refused) end here too. Runs under the runtime's lock.
 */
final class ReceivePath {
    private final ProtocolContext context;
    private final PointToPoint owner;
    private final EngineLock lock;
    private final MatchQueues queues;
    private final Arrivals arrivals;
    private final PutRendezvous puts;
    private final GetRendezvous gets;
    private final SegmentReceiver segmentReceiver;
    /** Receives handed back by {@link #recycle}, reused by {@link #receive}. */
    private final RecvOp[] free = new RecvOp[64];
    private int freeCount;

    ReceivePath(ProtocolContext context, PointToPoint owner, MatchQueues queues,
                Arrivals arrivals, PutRendezvous puts, GetRendezvous gets,
                SegmentReceiver segmentReceiver) {
        this.context = context;
        this.owner = owner;
        this.lock = context.lock();
        this.queues = queues;
        this.arrivals = arrivals;
        this.puts = puts;
        this.gets = gets;
        this.segmentReceiver = segmentReceiver;
    }

    /** {@link PointToPoint#receive(int, int, int, MemorySegment, Layout, Object, Runnable, TypeCheck)}. */
    RecvOp receive(int ctx, int source, int tag, MemorySegment base, Layout layout,
                   Object keepAlive, Runnable onDone, TypeCheck check) {
        context.checkFatal();
        lock.lock();
        try {
            RecvOp r;
            if (freeCount > 0) {
                r = free[--freeCount];
                free[freeCount] = null;
                r.reinit(ctx, source, tag, base, keepAlive, onDone);
                r.id = 0;
            } else {
                r = new RecvOp(owner, ctx, source, tag, base, keepAlive);
                r.onDone = onDone;
            }
            r.layout = layout;
            r.typeCheck = check;
            match(r);
            return r;
        } finally {
            lock.unlock();
        }
    }

    /** {@link PointToPoint#recycle}. */
    void recycle(RecvOp r) {
        if (!r.isComplete() || r.posted || r.pending || r.peer != null || r.registration != null
                || r.staging != null || r.chunksOutstanding != 0 || r.id != 0 || r.owner != owner) {
            return;
        }
        lock.lock();
        try {
            if (freeCount < free.length) {
                r.data = null; // drop the user's buffers now, not at the next reuse
                r.keepAlive = null;
                r.onDone = null;
                r.layout = null;
                free[freeCount++] = r;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Delivers the first unexpected message that matches {@code r}, or posts {@code r}. */
    void match(RecvOp r) {
        Unexpected u = queues.findUnexpected(r.context, r.source, r.tag);
        if (u != null) {
            queues.removeUnexpected(u);
            arrivals.deliverUnexpected(u, r);
        } else {
            queues.post(r);
        }
    }

    /** {@link PointToPoint#probe}. */
    Unexpected probe(int ctx, int source, int tag, boolean remove) {
        context.checkFatal();
        lock.lock();
        try {
            Unexpected u = queues.findUnexpected(ctx, source, tag);
            if (u == null) {
                context.progressLocked();
                u = queues.findUnexpected(ctx, source, tag);
            }
            if (u != null && remove) {
                queues.removeUnexpected(u);
            }
            return u;
        } finally {
            lock.unlock();
        }
    }

    /** {@link PointToPoint#receiveMatched(Unexpected, MemorySegment, Layout, Object, Runnable, TypeCheck)}. */
    RecvOp receiveMatched(Unexpected u, MemorySegment base, Layout layout, Object keepAlive,
                          Runnable onDone, TypeCheck check) {
        context.checkFatal();
        lock.lock();
        try {
            RecvOp r = new RecvOp(owner, u.context, u.source, u.tag, base, keepAlive);
            r.onDone = onDone;
            r.layout = layout;
            r.typeCheck = check;
            arrivals.deliverUnexpected(u, r);
            return r;
        } finally {
            lock.unlock();
        }
    }

    /** Cancels {@code r} if no message has matched it yet. */
    boolean cancel(RecvOp r) {
        lock.lock();
        try {
            if (!r.posted) {
                return false;
            }
            queues.unlink(r);
            r.markCancelled();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The pending queue's retry of a receive: its RPUT CTS, or its RGET reads. */
    boolean retry(RecvOp r) {
        boolean done = !r.ctsPending ? gets.postReads(r)
                : r.segments != null ? segmentReceiver.retryCts(r) : puts.retryCts(r);
        if (done) {
            r.pending = false;
        }
        return done;
    }
}
