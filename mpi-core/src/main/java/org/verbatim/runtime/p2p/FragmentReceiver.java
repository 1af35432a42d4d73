package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Profiler;
import org.verbatim.runtime.base.StagingPool;

/**
 * The receiving half of the fragmented eager protocol ({@link FragmentSender}). The first
 * fragment carries the envelope and is matched like an eager message; every fragment is unpacked
 * straight from the transport's record into the matched receive's layout (or copied into the
 * unexpected message's buffer until a receive matches it, then straight into that receive). A
 * sender's fragments are never interleaved with its other point-to-point messages, so one
 * {@link Arrival} per peer is the whole state: nothing is allocated per fragment.
 *
 * <p>Truncation: a receive smaller than the message takes its first bytes and ends with
 * MPI_ERR_TRUNCATE once the last fragment has arrived (the rest is dropped as it arrives).
 */
final class FragmentReceiver {
    /** The message in progress from one sender (reused for each of its messages). */
    static final class Arrival {
        boolean active;
        int source;
        int tag;
        long length;
        /** Message bytes arrived so far. */
        long offset;
        /** The matched receive, or null while the message is unexpected. */
        RecvOp receive;
        /** The bytes {@link #receive} takes (less than {@link #length} when truncated). */
        long accept;
        /** The unexpected message collecting the fragments until a receive matches it. */
        Unexpected unexpected;

        void clear() {
            active = false;
            receive = null;
            unexpected = null;
        }
    }

    private final ProtocolContext context;
    private final PointToPoint owner;
    private final MatchQueues queues;
    private final StagingPool pool;
    private final Profiler profiler;

    FragmentReceiver(ProtocolContext context, PointToPoint owner, MatchQueues queues) {
        this.context = context;
        this.owner = owner;
        this.queues = queues;
        this.pool = context.pool();
        this.profiler = context.profiler();
    }

    void onFirst(int sourceWorld, MemorySegment m, long at, long size) {
        PeerState p = owner.peer(sourceWorld);
        Arrival a = p.fragments;
        if (a.active) {
            throw context.fail("rank " + context.worldRank() + ": a new fragmented message from rank "
                    + sourceWorld + " before the last fragment of the previous one ("
                    + a.offset + " of " + a.length + " bytes)");
        }
        int ctx = WireHeader.context(m, at);
        int src = WireHeader.source(m, at);
        int tag = WireHeader.tag(m, at);
        long length = WireHeader.length(m, at);
        short signature = WireHeader.signature(m, at);
        a.active = true;
        a.source = src;
        a.tag = tag;
        a.length = length;
        a.offset = 0;
        RecvOp r = queues.takePosted(ctx, src, tag);
        if (r != null) {
            Arrivals.checkType(r, signature, length);
            attach(a, r);
        } else {
            Unexpected u = new Unexpected(ctx, src, tag, length, false, false, 0, 0, 0, p);
            u.signature = signature;
            u.fragmented = true;
            u.payload = pool.acquire(length);
            a.unexpected = u;
            queues.addUnexpected(u);
            profiler.unexpected();
        }
        take(a, m, at, size);
    }

    void onFragment(int sourceWorld, MemorySegment m, long at, long size) {
        Arrival a = owner.peer(sourceWorld).fragments;
        long offset = WireHeader.length(m, at);
        if (!a.active || offset != a.offset || WireHeader.request(m, at) != a.length) {
            throw context.fail("rank " + context.worldRank() + ": fragment at byte " + offset
                    + " of a " + WireHeader.request(m, at) + "-byte message from rank "
                    + sourceWorld + (a.active ? " where byte " + a.offset + " of " + a.length
                    + " was next" : " with no fragmented message in progress"));
        }
        take(a, m, at, size);
    }

    /**
     * The data of the fragment record at {@code at} ({@code size} bytes: header, slack, data;
     * the data {@link WireHeader#FLAGS} bytes after the header): into the receive or the buffer.
     */
    private void take(Arrival a, MemorySegment m, long at, long size) {
        int pad = WireHeader.flags(m, at) & 0xFF;
        long n = size - WireHeader.BASE_SIZE - WireHeader.FRAG_SLACK;
        if (n <= 0 || n > a.length - a.offset || pad > WireHeader.FRAG_MAX_PADDING) {
            throw context.fail("rank " + context.worldRank() + ": fragment of " + n + " bytes at "
                    + a.offset + " of a " + a.length + "-byte message (padding " + pad + ")");
        }
        long from = at + WireHeader.BASE_SIZE + pad;
        if (a.receive != null) {
            deliver(a.receive, m, from, a.offset, Math.min(n, a.accept - a.offset));
        } else {
            Unexpected u = a.unexpected;
            MemorySegment.copy(m, from, u.payload, a.offset, n);
            u.arrived = a.offset + n;
        }
        a.offset += n;
        if (a.offset == a.length) {
            RecvOp r = a.receive;
            long accept = a.accept;
            a.clear();
            if (r != null) {
                complete(r, a, accept);
            }
        }
    }

    /**
     * A receive matches {@code u}, a fragmented message still arriving or complete: the bytes
     * already here are delivered now, the rest straight from the records as they arrive.
     */
    void deliverUnexpected(Unexpected u, RecvOp r) {
        Arrival a = u.peer.fragments;
        long accept = Math.min(u.length, r.capacity());
        startDelivery(r);
        deliver(r, u.payload, 0, 0, Math.min(u.arrived, accept));
        pool.release(u.payload);
        u.payload = null;
        if (u.arrived == u.length) {
            r.fragmentCursor = null;
            r.finish(u.source, u.tag, accept, u.length > accept ? ErrorClass.ERR_TRUNCATE
                    : ErrorClass.SUCCESS);
            return;
        }
        if (a.unexpected != u) {
            throw context.fail("rank " + context.worldRank() + ": fragmented message from rank "
                    + u.peer.world + " incomplete but not in progress");
        }
        a.unexpected = null;
        a.receive = r;
        a.accept = accept;
    }

    private void attach(Arrival a, RecvOp r) {
        a.receive = r;
        a.accept = Math.min(a.length, r.capacity());
        startDelivery(r);
    }

    private static void startDelivery(RecvOp r) {
        r.fragmentCursor = r.layout != null ? r.layout.cursor() : null;
    }

    /** Message bytes {@code [position, position + n)} from {@code m} at {@code from} into {@code r}. */
    private static void deliver(RecvOp r, MemorySegment m, long from, long position, long n) {
        if (n <= 0) {
            return;
        }
        if (r.fragmentCursor != null) {
            r.fragmentCursor.unpack(m, from, r.data, n);
        } else {
            MemorySegment.copy(m, from, r.data, position, n);
        }
    }

    private static void complete(RecvOp r, Arrival a, long accept) {
        r.fragmentCursor = null;
        r.finish(a.source, a.tag, accept, a.length > accept ? ErrorClass.ERR_TRUNCATE
                : ErrorClass.SUCCESS);
    }
}
