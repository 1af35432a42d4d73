package org.verbatim.runtime.p2p;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.RequestTable;
import org.verbatim.runtime.base.StagingPool;
import org.verbatim.spi.Access;
import org.verbatim.spi.Capability;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;

/**
 * The receiver's side of the segment schemes (bc-spup and rwg-up share it; see
 * {@link SegmentWire} for the exchange): grants slots of its pre-registered unpack pool (a
 * dynamic buffer when the pool has too few free; its own buffer when that is contiguous native
 * memory), and unpacks each segment as soon as its signal arrives, so unpacking overlaps the
 * sender's packing and the transfer of the next segments.
 */
final class SegmentReceiver implements AutoCloseable {
    private final ProtocolContext context;
    private final PointToPoint owner;
    private final RequestTable table;
    private final StagingPool staging;
    private final SegmentPool unpackPool;
    private final LayoutSchemes schemes;
    private final Arena arena = Arena.ofShared();
    /** SEG_CTS scratch (header and the most pairs), used only under the lock. */
    private final MemorySegment cts = arena.allocate(
            WireHeader.CTS_SIZE + (long) SegmentWire.MAX_SLOTS * SegmentWire.PAIR_SIZE, 8);

    SegmentReceiver(ProtocolContext context, PointToPoint owner, LayoutSchemes schemes) {
        this.context = context;
        this.owner = owner;
        this.table = context.table();
        this.staging = context.pool();
        this.schemes = schemes;
        this.unpackPool = new SegmentPool(schemes.poolBytes(), schemes.segmentBytes(),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE);
    }

    /** Unpack-pool segments free now (tests check that every message gives its slots back). */
    int poolAvailable() {
        return unpackPool.available();
    }

    /** A matched RTS asking for segments: grant slots and answer with a SEG_CTS. */
    void start(RecvOp r, PeerState p, int src, int tag, long length, long senderRequest) {
        if (!p.transport.capabilities().has(Capability.RDMA_WRITE)) {
            throw context.fail("rank " + context.worldRank() + ": transport " + p.transport.name()
                    + " offers no RDMA write for the segments of rank " + p.world);
        }
        long n = r.matchRendezvous(p, src, tag, length, senderRequest);
        if (n == 0) {
            owner.sendControl(p, WireHeader.FIN, 0, senderRequest);
            r.finish(src, tag, 0, r.error());
            return;
        }
        SegmentReceive g = new SegmentReceive();
        g.total = n;
        g.segment = Math.min(Math.min(schemes.segmentFor(n), unpackPool.segmentBytes()),
                p.maxRdma);
        g.count = Math.toIntExact((n + g.segment - 1) / g.segment);
        if (!r.needsStaging()) {
            // the receive buffer is contiguous native memory: segments land in place
            g.slots = 0;
            g.registration = p.transport.register(r.data.asSlice(0, n),
                    Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            g.slotAddress[0] = g.registration.address();
            g.slotKey[0] = g.registration.remoteKey();
        } else {
            grantSlots(g, p);
        }
        r.segments = g;
        r.id = table.add(r);
        g.immediateBase = p.transport.capabilities().has(Capability.WRITE_WITH_IMMEDIATE)
                ? SegmentWire.immediateBase(r.id) : 0;
        r.ctsPending = true;
        retryCts(r);
    }

    /** Pool slots, as many as the message and the CTS take; a dynamic buffer if too few. */
    private void grantSlots(SegmentReceive g, PeerState p) {
        int fit = (int) Math.min(SegmentWire.MAX_SLOTS,
                (p.transport.capabilities().maxEager() - WireHeader.CTS_SIZE) / SegmentWire.PAIR_SIZE);
        int want = Math.max(1, Math.min(g.count, fit));
        int got = 0;
        while (got < want) {
            int i = unpackPool.take();
            if (i == SegmentPool.NONE) {
                break;
            }
            g.poolIndex[got++] = i;
        }
        if (got < Math.min(want, 2)) {
            // pool exhausted: a dynamic buffer for this message, registered for it alone
            for (int s = 0; s < got; s++) {
                unpackPool.give(g.poolIndex[s]);
            }
            want = Math.min(want, 4);
            g.dynamic = staging.acquire(want * g.segment);
            g.registration = p.transport.register(g.dynamic,
                    Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            for (int s = 0; s < want; s++) {
                g.poolIndex[s] = SegmentPool.NONE;
                g.slotMemory[s] = g.dynamic.asSlice(s * g.segment, g.segment);
                g.slotAddress[s] = g.registration.address() + s * g.segment;
                g.slotKey[s] = g.registration.remoteKey();
                g.slotNext[s] = s;
            }
            g.slots = want;
            return;
        }
        MemoryRegistration reg = unpackPool.registration(p.transport);
        for (int s = 0; s < got; s++) {
            g.slotMemory[s] = unpackPool.segment(g.poolIndex[s]);
            g.slotAddress[s] = unpackPool.address(p.transport, g.poolIndex[s]);
            g.slotKey[s] = reg.remoteKey();
            g.slotNext[s] = s;
        }
        g.slots = got;
    }

    /** Posts the SEG_CTS of {@code r}; false (and pending) when refused for now. */
    boolean retryCts(RecvOp r) {
        SegmentReceive g = r.segments;
        WireHeader.write(cts, SegmentWire.SEG_CTS, (byte) 0, 0, 0, g.immediateBase, g.total,
                r.senderRequest);
        WireHeader.writeRemote(cts, g.segment, g.slots);
        WireHeader.writeReceiverRequest(cts, r.id);
        int pairs = g.direct() ? 1 : g.slots;
        for (int s = 0; s < pairs; s++) {
            long at = WireHeader.CTS_SIZE + (long) s * SegmentWire.PAIR_SIZE;
            cts.set(WireHeader.LONG, at, g.slotAddress[s]);
            cts.set(WireHeader.LONG, at + 8, g.slotKey[s]);
        }
        long size = WireHeader.CTS_SIZE + (long) pairs * SegmentWire.PAIR_SIZE;
        if (r.peer.endpoint.send(cts.asSlice(0, WireHeader.CTS_SIZE),
                cts.asSlice(WireHeader.CTS_SIZE, size - WireHeader.CTS_SIZE)) == PostStatus.OK) {
            r.ctsPending = false;
            return true;
        }
        owner.makePending(r);
        return false;
    }

    /** A write-with-immediate of a segment landed; true if it was one. */
    boolean onImmediate(int source, int immediate) {
        long id = table.currentId(SegmentWire.requestSlotOf(immediate));
        int slot = SegmentWire.slotOf(immediate);
        if (id < 0 || !(table.get(id) instanceof RecvOp r) || r.segments == null || r.ctsPending
                || SegmentWire.immediateBase(id) != r.segments.immediateBase
                || (r.segments.direct() ? slot != 0 : slot >= r.segments.slots)) {
            throw context.fail("rank " + context.worldRank() + ": segment immediate 0x"
                    + Integer.toHexString(immediate) + " from rank " + source
                    + " names no segmented receive in progress");
        }
        landed(r, slot);
        return true;
    }

    /** SEG_DONE: segment LENGTH of receive REQUEST is in its slot (or, flagged, the send failed). */
    void onSegmentDone(int source, MemorySegment m, long at, long size) {
        long id = WireHeader.request(m, at);
        long j = WireHeader.length(m, at);
        if (!(table.get(id) instanceof RecvOp r) || r.segments == null || r.ctsPending) {
            throw context.fail("rank " + context.worldRank() + ": SEG_DONE from rank " + source
                    + " names no segmented receive in progress");
        }
        SegmentReceive g = r.segments;
        if ((WireHeader.flags(m, at) & WireHeader.FLAG_ERROR) != 0) {
            end(r, true);
            return;
        }
        int slot = g.direct() ? 0 : (int) (j % g.slots);
        if (j < 0 || j >= g.count || (!g.direct() && g.slotNext[slot] != j)) {
            throw context.fail("rank " + context.worldRank() + ": SEG_DONE from rank " + source
                    + " for segment " + j + ", which is not the one its slot expects");
        }
        landed(r, slot);
    }

    /** The next segment of {@code slot} is in place: unpack it, free the slot, maybe finish. */
    private void landed(RecvOp r, int slot) {
        SegmentReceive g = r.segments;
        if (!g.direct()) {
            int j = g.slotNext[slot];
            if (j >= g.count) {
                throw context.fail("rank " + context.worldRank() + ": a segment beyond the "
                        + g.count + " of the message landed in slot " + slot);
            }
            long from = j * g.segment;
            long len = g.length(j);
            if (r.layout != null) {
                r.layout.unpack(g.slotMemory[slot], 0, len, r.data, from);
            } else {
                MemorySegment.copy(g.slotMemory[slot], 0, r.data, from, len);
            }
            g.slotNext[slot] = j + g.slots;
            if (j + g.slots < g.count) {
                owner.sendControl(r.peer, SegmentWire.SEG_ACK, 0, r.senderRequest, j);
            }
        }
        if (++g.done == g.count) {
            end(r, false);
        }
    }

    private void end(RecvOp r, boolean failed) {
        SegmentReceive g = r.segments;
        table.remove(r.id);
        if (!g.direct()) {
            for (int s = 0; s < g.slots; s++) {
                if (g.poolIndex[s] != SegmentPool.NONE) {
                    unpackPool.give(g.poolIndex[s]);
                }
                g.slotMemory[s] = null;
            }
        }
        if (g.registration != null) {
            g.registration.close();
            g.registration = null;
        }
        if (g.dynamic != null) {
            staging.release(g.dynamic);
            g.dynamic = null;
        }
        r.segments = null;
        r.finish(r.source(), r.tag(), failed ? 0 : g.total,
                failed ? ErrorClass.ERR_OTHER : r.error());
    }

    /** Deregisters the pool; before the transports close. */
    void releasePool() {
        unpackPool.close();
    }

    @Override
    public void close() {
        unpackPool.close();
        arena.close();
    }
}
