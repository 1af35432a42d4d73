package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.RequestTable;
import org.verbatim.runtime.base.StagingPool;
import org.verbatim.spi.Access;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.IoVector;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;

/**
 * The sender's side of the segment schemes (see {@link SegmentWire}). bc-spup packs segment j
 * into a segment of its pre-registered pack pool (a dynamic buffer, registered for that segment
 * alone, when the pool is empty) and writes it into the receiver's slot; while that write is in
 * flight the next segment is packed. rwg-up packs nothing: it gathers each segment from the
 * registered user blocks, up to the transport's gather-list length per write (single writes
 * without WRITE_GATHER). The last write of a segment carries the receiver's immediate, or is
 * followed by a SEG_DONE once it has completed. A slot is reused only after the receiver's
 * SEG_ACK for the segment before.
 */
final class SegmentSender implements AutoCloseable {
    /** What posting a segment did: all of it, stopped by the window, refused by the transport. */
    private static final int POSTED = 0;
    private static final int WAIT = 1;
    private static final int REFUSED = 2;
    /** Most entries of one gather write (Linux's IOV_MAX; the transport's limit may be lower). */
    private static final int GATHER_ENTRIES = 1024;

    private final ProtocolContext context;
    private final PointToPoint owner;
    private final RequestTable table;
    private final StagingPool staging;
    private final SegmentPool packPool;
    /** Gather list of one write; filled and posted under the lock. */
    private final IoVector gather = new IoVector(GATHER_ENTRIES);

    SegmentSender(ProtocolContext context, PointToPoint owner, LayoutSchemes schemes) {
        this.context = context;
        this.owner = owner;
        this.table = context.table();
        this.staging = context.pool();
        this.packPool = new SegmentPool(schemes.poolBytes(), schemes.segmentBytes(),
                Access.LOCAL_WRITE);
    }

    /** Pack-pool segments free now. */
    int poolAvailable() {
        return packPool.available();
    }

    /** The receiver's SEG_CTS: its slots; start writing. */
    void onCts(int source, MemorySegment m, long at, long length) {
        long id = WireHeader.request(m, at);
        if (!(table.get(id) instanceof SendOp s) || s.segments == null
                || s.phase != SendOp.Phase.WAIT_CTS) {
            throw context.fail("rank " + context.worldRank() + ": SEG_CTS from rank " + source
                    + " names no segmented send in progress");
        }
        SegmentSend g = s.segments;
        long accepted = WireHeader.length(m, at);
        g.segment = WireHeader.address(m, at);
        long slots = WireHeader.remoteKey(m, at);
        g.immediateBase = WireHeader.tag(m, at);
        g.receiverRequest = WireHeader.receiverRequest(m, at);
        long pairs = slots == 0 ? 1 : slots;
        if (accepted <= 0 || accepted > s.messageBytes || g.segment <= 0 || slots < 0
                || slots > SegmentWire.MAX_SLOTS
                || length != WireHeader.CTS_SIZE + pairs * SegmentWire.PAIR_SIZE
                || (g.immediateBase != 0
                    && !s.peer.transport.capabilities().has(Capability.WRITE_WITH_IMMEDIATE))) {
            throw context.fail("rank " + context.worldRank() + ": malformed SEG_CTS from rank "
                    + source + " (" + accepted + " bytes, segment " + g.segment + ", " + slots
                    + " slots, " + length + " bytes long)");
        }
        g.slots = (int) slots;
        for (int i = 0; i < pairs; i++) {
            long p = at + WireHeader.CTS_SIZE + (long) i * SegmentWire.PAIR_SIZE;
            g.slotAddress[i] = m.get(WireHeader.LONG, p);
            g.slotKey[i] = m.get(WireHeader.LONG, p + 8);
            g.slotNext[i] = i;
        }
        g.total = accepted;
        g.count = Math.toIntExact((accepted + g.segment - 1) / g.segment);
        if (g.gather) {
            g.local = new BlockCursor(s.layout, 0);
        }
        s.phase = SendOp.Phase.WRITING;
        post(s);
    }

    /** SEG_ACK: the receiver has unpacked segment LENGTH; its slot takes the next one. */
    void onAck(int source, MemorySegment m, long at, long length) {
        long id = WireHeader.request(m, at);
        long j = WireHeader.length(m, at);
        if (!(table.get(id) instanceof SendOp s) || s.segments == null || s.segments.direct()
                || j < 0 || j >= s.segments.count
                || s.segments.slotNext[(int) (j % s.segments.slots)] != j) {
            throw context.fail("rank " + context.worldRank() + ": SEG_ACK from rank " + source
                    + " for segment " + j + " names no segment in flight");
        }
        SegmentSend g = s.segments;
        g.slotNext[(int) (j % g.slots)] = (int) j + g.slots;
        if (g.error == 0) {
            post(s);
        }
    }

    /** Posts what the window and the slots allow; false (and pending) when one was refused. */
    boolean post(SendOp s) {
        SegmentSend g = s.segments;
        PeerState p = s.peer;
        while (g.next < g.count && g.error == 0 && g.inFlight < SegmentSend.WINDOW) {
            int j = g.next;
            int slot = g.direct() ? 0 : j % g.slots;
            if (!g.direct() && g.slotNext[slot] != j) {
                return true; // the receiver's SEG_ACK frees the slot
            }
            long to = g.direct() ? g.slotAddress[0] + j * g.segment : g.slotAddress[slot];
            int immediate = g.immediateBase == 0 ? 0
                    : SegmentWire.immediate(g.immediateBase, g.direct() ? 0 : slot);
            int st = g.gather ? postGathered(s, g, p, j, to, g.slotKey[slot], immediate)
                    : postPacked(s, g, p, j, to, g.slotKey[slot], immediate);
            if (st == WAIT) {
                return true; // a completion posts the rest
            }
            if (st == REFUSED) {
                owner.makePending(s);
                return false;
            }
        }
        return true;
    }

    /** bc-spup: packs segment {@code j} (unless packed before a refusal) and writes it. */
    private int postPacked(SendOp s, SegmentSend g, PeerState p, int j, long to, long key,
                           int immediate) {
        if (g.packedInFlight >= SegmentSend.PACK_WINDOW) {
            return WAIT;
        }
        long len = g.length(j);
        if (g.ready == null) {
            int index = len <= packPool.segmentBytes() ? packPool.take() : SegmentPool.NONE;
            if (index != SegmentPool.NONE) {
                g.ready = packPool.registration(p.transport).segment()
                        .asSlice(index * packPool.segmentBytes(), len);
                g.readyPool = index;
            } else {
                // pack pool empty: a dynamic buffer, registered for this segment alone
                MemorySegment dynamic = staging.acquire(len);
                g.readyRegistration = p.transport.register(dynamic,
                        Access.LOCAL_WRITE);
                g.ready = g.readyRegistration.segment();
                g.readyPool = SegmentPool.NONE;
            }
            s.layout.pack(s.data, j * g.segment, len, g.ready, 0);
        }
        int st = immediate != 0 ? p.endpoint.writeWithImmediate(g.ready, to, key, immediate, s.id)
                : p.endpoint.write(g.ready, to, key, s.id);
        if (st != PostStatus.OK) {
            return REFUSED;
        }
        g.push(g.ready, g.readyPool, g.readyRegistration, j);
        g.ready = null;
        g.readyPool = SegmentPool.NONE;
        g.readyRegistration = null;
        g.next++;
        return POSTED;
    }

    /** rwg-up: gathers the rest of segment {@code j} from the blocks, one list per write. */
    private int postGathered(SendOp s, SegmentSend g, PeerState p, int j, long to, long key,
                             int immediate) {
        Capabilities caps = p.transport.capabilities();
        int entries = caps.has(Capability.WRITE_GATHER)
                ? Math.max(1, Math.min(GATHER_ENTRIES, caps.put().maxIov())) : 1;
        long len = g.length(j);
        MemorySegment source = s.registration.segment();
        BlockCursor local = g.local;
        while (g.posted < len) {
            if (g.inFlight >= SegmentSend.WINDOW) {
                return WAIT;
            }
            local.mark();
            gather.clear();
            long piece = 0;
            long room = Math.min(len - g.posted, p.maxRdma);
            while (piece < room && gather.count() < entries) {
                long c = Math.min(local.leftInBlock(), room - piece);
                gather.add(source, local.position(), c);
                local.advance(c);
                piece += c;
            }
            boolean last = g.posted + piece == len;
            long at = to + g.posted;
            int imm = last ? immediate : 0;
            int st;
            if (gather.count() == 1) {
                MemorySegment one = source.asSlice(gather.offset(0), piece);
                st = imm != 0 ? p.endpoint.writeWithImmediate(one, at, key, imm, s.id)
                        : p.endpoint.write(one, at, key, s.id);
            } else {
                st = imm != 0 ? p.endpoint.writeGatherWithImmediate(gather, at, key, imm, s.id)
                        : p.endpoint.writeGather(gather, at, key, s.id);
            }
            gather.clear();
            if (st != PostStatus.OK) {
                local.reset();
                return REFUSED;
            }
            g.push(null, SegmentPool.NONE, null, last ? j : -1);
            g.posted += piece;
        }
        g.posted = 0;
        g.next++;
        return POSTED;
    }

    /** One write of {@code s} completed locally with {@code status}. */
    void onWriteComplete(SendOp s, int status) {
        SegmentSend g = s.segments;
        int at = g.pop();
        MemorySegment buffer = g.flightBuffer[at];
        if (buffer != null) {
            if (g.flightPool[at] != SegmentPool.NONE) {
                packPool.give(g.flightPool[at]);
            } else {
                MemoryRegistration reg = g.flightRegistration[at];
                reg.close();
                staging.release(reg.segment());
            }
            g.flightBuffer[at] = null;
            g.flightRegistration[at] = null;
        }
        if (status != CompletionStatus.OK && g.error == 0) {
            g.error = status;
        }
        int finished = g.flightSegment[at];
        if (g.error == 0 && finished >= 0 && g.immediateBase == 0) {
            owner.sendControl(s.peer, SegmentWire.SEG_DONE, 0, g.receiverRequest, finished);
        }
        if (g.error == 0 && g.next < g.count) {
            post(s);
        }
        if (g.inFlight == 0 && (g.error != 0 || g.next == g.count)) {
            finish(s);
        }
    }

    private void finish(SendOp s) {
        SegmentSend g = s.segments;
        table.remove(s.id);
        if (g.ready != null) {
            // packed, never posted (a write failed before it went out)
            if (g.readyPool != SegmentPool.NONE) {
                packPool.give(g.readyPool);
            } else {
                g.readyRegistration.close();
                staging.release(g.readyRegistration.segment());
            }
            g.ready = null;
        }
        boolean failed = g.error != 0;
        if (failed) {
            owner.sendControl(s.peer, SegmentWire.SEG_DONE, WireHeader.FLAG_ERROR,
                    g.receiverRequest, 0);
        }
        s.segments = null;
        owner.releaseRendezvous(s);
        if (failed) {
            s.fail(ErrorClass.ERR_OTHER);
        } else {
            s.finish();
        }
    }

    /** Deregisters the pool; before the transports close. */
    void releasePool() {
        packPool.close();
    }

    @Override
    public void close() {
        packPool.close();
    }
}
