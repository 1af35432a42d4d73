package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.StagingPool;
import org.verbatim.runtime.ext.PlacementHandler;

/**
 * Large eager messages ({@link WireHeader#EAGER}, {@link WireHeader#EAGER_CREDITED}) received
 * straight into place by a stream transport (tcp), so that its per-connection receive buffer
 * never grows to the size of a frame.
 *
 * <p>When a message's header has arrived it is matched at once: a posted receive whose buffer is
 * contiguous and large enough (native memory or a byte[]) gets the payload read from the
 * socket into that buffer; any other posted receive (truncation, a datatype's layout, another primitive array) and a message no
 * receive waits for get a staging buffer from the pool, exactly the payload's size, which is
 * what an unexpected eager message is copied into anyway. When the rest has arrived
 * ({@link #placed}) the receive completes (the staged payload delivered and truncation
 * reported), or the message joins the unexpected queue with its staged payload, unless a receive
 * posted meanwhile takes it. Nothing else from that peer is delivered in between, so matching
 * order holds; the matched receive is out of the posted queue, so it cannot be cancelled once
 * its data is arriving. What a credited message takes is given back as for any credited
 * message ({@link EagerCredit}). Runs under the runtime's lock.
 */
final class EagerPlacement implements PlacementHandler {
    private final PointToPoint owner;
    private final MatchQueues queues;
    private final StagingPool pool;
    private final ProtocolContext context;
    private long placedDirect;
    private long placedStaged;

    EagerPlacement(ProtocolContext context, PointToPoint owner, MatchQueues queues) {
        this.context = context;
        this.owner = owner;
        this.queues = queues;
        this.pool = context.pool();
    }

    /** Messages whose payload went straight into the receive's buffer (tests). */
    long placedDirect() {
        return placedDirect;
    }

    /** Messages whose payload went into a staging buffer (tests). */
    long placedStaged() {
        return placedStaged;
    }

    @Override
    public MemorySegment placement(int sourceWorld, MemorySegment head, long at, long headLength,
                                   long length) {
        if (headLength < WireHeader.BASE_SIZE) {
            return null;
        }
        long len = WireHeader.length(head, at);
        PeerState p = owner.peer(sourceWorld);
        if (len <= 0 || len != length - WireHeader.BASE_SIZE || p == null
                || p.placingStage != null || p.placingReceive != null) {
            return null; // a malformed header fails on the ordinary path
        }
        long first = WireHeader.first(head, at);
        long sourceTag = WireHeader.sourceTag(head, at);
        RecvOp r = queues.takePosted(WireHeader.contextOf(first), WireHeader.sourceOf(sourceTag),
                WireHeader.tagOf(sourceTag));
        if (r != null) {
            Arrivals.checkType(r, WireHeader.signatureOf(first), len);
            p.placingReceive = r;
            MemorySegment d = r.data;
            // a stream reads into direct memory or a byte[] (a ByteBuffer can wrap only those)
            if (r.layout == null && !d.isReadOnly() && len <= d.byteSize()
                    && (d.isNative() || d.heapBase().orElse(null) instanceof byte[])
                    && d.scope().isAlive()) {
                placedDirect++;
                return d.asSlice(0, len);
            }
        }
        placedStaged++;
        p.placingStage = pool.acquire(len);
        return p.placingStage;
    }

    @Override
    public void placed(int sourceWorld, MemorySegment m, long at, long length) {
        PeerState p = owner.peer(sourceWorld);
        RecvOp r = p.placingReceive;
        MemorySegment stage = p.placingStage;
        p.placingReceive = null;
        p.placingStage = null;
        long first = WireHeader.first(m, at);
        long sourceTag = WireHeader.sourceTag(m, at);
        int ctx = WireHeader.contextOf(first);
        int src = WireHeader.sourceOf(sourceTag);
        int tag = WireHeader.tagOf(sourceTag);
        long len = WireHeader.length(m, at);
        boolean sync = (WireHeader.flagsOf(first) & WireHeader.FLAG_SYNC) != 0;
        boolean credited = WireHeader.kind(m, at) == WireHeader.EAGER_CREDITED;
        if (r == null) {
            r = queues.takePosted(ctx, src, tag); // posted while the data was arriving
            if (r != null) {
                Arrivals.checkType(r, WireHeader.signatureOf(first), len);
            }
        }
        if (r == null) {
            Unexpected u = new Unexpected(ctx, src, tag, len, false, sync, WireHeader.request(m, at),
                    0, 0, p);
            u.signature = WireHeader.signatureOf(first);
            u.payload = stage;
            u.credited = credited;
            queues.addUnexpected(u);
            context.profiler().unexpected();
            return;
        }
        long n = Math.min(len, r.capacity());
        if (stage != null) {
            r.deliver(stage, 0, n);
            pool.release(stage);
        }
        if (sync) {
            owner.sendControl(p, WireHeader.SYNC_ACK, 0, WireHeader.request(m, at));
        }
        if (credited) {
            owner.credit().taken(p, len);
        }
        r.finish(src, tag, n, len > n ? ErrorClass.ERR_TRUNCATE : ErrorClass.SUCCESS);
    }
}
