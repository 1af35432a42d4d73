package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.EngineLock;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.base.Profiler;
import org.verbatim.runtime.base.RequestTable;
import org.verbatim.runtime.base.StagingPool;
import org.verbatim.runtime.ext.Dispatch;
import org.verbatim.spi.EagerClaim;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;

/**
 * Starting a send, for {@link PointToPoint}: the protocol the peer's {@link SelectionTable} picks
 * for the message's data class and size (a layout packed once, packed straight into a claimed
 * eager slot, or walked block by block by the rendezvous schemes), the rendezvous set-up (staging
 * or registration, then the RTS), and the pending queue's retry of a post the transport refused.
 * The blocking send's eager fast path is {@link PointToPoint#sendNow}. Everything runs under the
 * runtime's lock; one header scratch (PointToPoint's) serves every post.
 */
final class SendPath {
    private final ProtocolContext context;
    private final PointToPoint owner;
    private final EngineLock lock;
    private final Dispatch dispatch;
    private final RequestTable table;
    private final StagingPool pool;
    private final Profiler profiler;
    private final Peers peers;
    /** {@link Peers#byWorld}, indexed here without a call. */
    private final PeerState[] byWorld;
    private final PutRendezvous puts;
    private final SegmentSender segmentSender;
    private final FragmentSender fragmentSender;
    /** Header scratch ({@link WireHeader#RTS_SIZE} bytes), used only under the lock. */
    private final MemorySegment header;
    /** {@link #header}'s address ({@link PointToPoint}'s scratch, never freed while in use). */
    private final long headerAddress;
    private final MemorySegment baseHeader;
    private final MemorySegment rtsHeader;
    private final MemorySegment empty = MemorySegment.ofArray(new byte[0]);
    private final EagerClaim claim = new EagerClaim();

    SendPath(ProtocolContext context, PointToPoint owner, Peers peers, PutRendezvous puts,
             SegmentSender segmentSender, FragmentSender fragmentSender, MemorySegment header) {
        this.context = context;
        this.owner = owner;
        this.lock = context.lock();
        this.dispatch = context.dispatch();
        this.table = context.table();
        this.pool = context.pool();
        this.profiler = context.profiler();
        this.peers = peers;
        this.byWorld = peers.byWorld;
        this.puts = puts;
        this.segmentSender = segmentSender;
        this.fragmentSender = fragmentSender;
        this.header = header;
        this.headerAddress = header.address();
        this.baseHeader = header.asSlice(0, WireHeader.BASE_SIZE);
        this.rtsHeader = header.asSlice(0, WireHeader.RTS_SIZE);
    }

    /** {@link PointToPoint#send(int, int, int, int, MemorySegment, Layout, Object, Mode, short)}. */
    SendOp send(int ctx, int myCommRank, int dest, int tag, MemorySegment base, Layout layout,
                Object keepAlive, Mode mode, short signature) {
        context.checkFatal();
        lock.lock();
        try {
            PeerState p = byWorld[dest];
            if (p == null) {
                p = peers.connect(dest);
            }
            MemorySegment data = base;
            long size = layout == null ? base.byteSize() : layout.size();
            SelectionTable.DataClass dc = layout != null ? SelectionTable.DataClass.LAYOUT
                    : base.isNative() ? SelectionTable.DataClass.CONTIGUOUS_NATIVE
                    : SelectionTable.DataClass.CONTIGUOUS_HEAP;
            SelectionTable.Protocol proto = layout == null ? p.selection.select(dc, size)
                    : p.selection.selectLayout(size, layout, base.isNative(),
                    mode == Mode.SYNCHRONOUS);
            boolean credited = false;
            if (layout == null && proto.rendezvous() && size <= p.creditedLimit && size > p.credit) {
                // out of credit: the peer's CREDIT may have arrived (a window of large sends
                // outruns the quarters coming back); one poll of its transport, never a wait
                p.transport.progress();
            }
            if (layout == null && proto.rendezvous() && EagerCredit.take(p, size)) {
                proto = SelectionTable.Protocol.EAGER_COPY; // within the peer's eager window
                credited = true;
            }
            if (proto == SelectionTable.Protocol.EAGER_FRAGMENTS) {
                return sendFragments(p, ctx, myCommRank, dest, tag, base, layout, keepAlive,
                        signature, size);
            }
            MemorySegment packed = null;
            boolean fromBlocks = false; // multi-w, bc-spup, rwg-up: the sender walks the layout
            if (layout != null) {
                fromBlocks = proto == SelectionTable.Protocol.RPUT_LAYOUT || proto.segments();
                if (proto == SelectionTable.Protocol.RPUT_LAYOUT
                        || proto == SelectionTable.Protocol.RPUT_SEGMENTS_GATHERED) {
                    // multi-w, rwg-up: no packing; the writes go out from the blocks
                    data = base.asSlice(0, layout.extent());
                } else if (!fromBlocks) {
                    // Generic scheme: pack once, then the contiguous protocols. A claimed eager
                    // slot packs in place when nothing is queued ahead of it.
                    if (proto == SelectionTable.Protocol.EAGER_PACK_CLAIM && signature == 0
                            && dispatch.pendingFor(dest) == 0 && mode != Mode.SYNCHRONOUS
                            && sendClaimed(p, ctx, myCommRank, tag, base, layout, size)) {
                        SendOp s = new SendOp(owner, p, ctx, myCommRank, tag, empty, keepAlive,
                                false);
                        s.statusBytesOverride(size);
                        s.protocol = proto;
                        s.finish();
                        return s;
                    }
                    packed = pool.acquire(Math.max(1, size)).asSlice(0, size);
                    layout.pack(base, 0, size, packed, 0);
                    data = packed;
                } // bc-spup: packs segment by segment once the receiver's slots are in
            }
            SendOp s = new SendOp(owner, p, ctx, myCommRank, tag, data, keepAlive,
                    mode == Mode.SYNCHRONOUS);
            s.signature = signature;
            s.protocol = proto;
            s.rendezvous = proto.rendezvous();
            s.credited = credited;
            if (fromBlocks) {
                s.layout = layout;
                s.messageBytes = size;
                s.statusBytesOverride(size);
                if (proto.segments()) {
                    s.segments = new SegmentSend(
                            proto == SelectionTable.Protocol.RPUT_SEGMENTS_GATHERED);
                }
            }
            profiler.messageSent(size);
            if (s.rendezvous) {
                if (proto == SelectionTable.Protocol.NONE) {
                    throw context.fail("rank " + context.worldRank() + ": no rendezvous protocol"
                            + " to rank " + dest + " over " + p.transport.name()
                            + " (no RDMA read or write) for " + size + " bytes");
                }
                s.staging = packed;
                prepareRendezvous(s);
            } else if (packed != null) {
                s.staging = packed; // released once posted (eager copies out at post)
            }
            if (dispatch.pendingFor(dest) > 0 || !tryPost(s)) {
                owner.makePending(s);
            }
            return s;
        } finally {
            lock.unlock();
        }
    }

    /** A layout in eager fragments ({@link FragmentSender}): complete once the last is out. */
    private SendOp sendFragments(PeerState p, int ctx, int myCommRank, int dest, int tag,
                                 MemorySegment base, Layout layout, Object keepAlive,
                                 short signature, long size) {
        SendOp s = new SendOp(owner, p, ctx, myCommRank, tag, base, keepAlive, false);
        s.signature = signature;
        s.protocol = SelectionTable.Protocol.EAGER_FRAGMENTS;
        s.layout = layout;
        s.messageBytes = size;
        s.statusBytesOverride(size);
        s.fragmentCursor = layout.cursor();
        profiler.messageSent(size);
        if (dispatch.pendingFor(dest) > 0 || !fragmentSender.post(s)) {
            owner.makePending(s);
        }
        return s;
    }

    private boolean sendClaimed(PeerState p, int ctx, int myCommRank, int tag, MemorySegment base,
                                Layout layout, long size) {
        int total = (int) (WireHeader.BASE_SIZE + size);
        if (p.endpoint.claim(total, claim) != PostStatus.OK) {
            return false;
        }
        MemorySegment slot = claim.buffer();
        long at = claim.offset();
        WireHeader.write(header, WireHeader.EAGER, (byte) 0, ctx, myCommRank, tag, size, 0);
        MemorySegment.copy(baseHeader, 0, slot, at, WireHeader.BASE_SIZE);
        layout.pack(base, 0, size, slot, at + WireHeader.BASE_SIZE);
        claim.commit();
        profiler.messageSent(size);
        return true;
    }

    private void prepareRendezvous(SendOp s) {
        if (s.protocol == SelectionTable.Protocol.RPUT_SEGMENTS_PACKED) {
            s.id = table.add(s); // packs into its pools: the user memory is not registered
            s.put = true;
            return;
        }
        MemorySegment src = s.data;
        if (!src.isNative()) {
            s.staging = pool.acquire(src.byteSize());
            MemorySegment.copy(src, 0, s.staging, 0, src.byteSize());
            src = s.staging;
        }
        s.registration = s.peer.transport.register(src);
        s.id = table.add(s);
        s.put = s.protocol.put();
    }

    /** Tries to hand the send to the transport; false if it must wait (RETRY). */
    private boolean tryPost(SendOp s) {
        PeerState p = s.peer;
        if (s.protocol == SelectionTable.Protocol.EAGER_FRAGMENTS) {
            return fragmentSender.post(s);
        }
        int status;
        if (s.rendezvous) {
            int flags = s.put ? WireHeader.FLAG_RPUT : 0;
            if (s.segments != null) {
                flags |= WireHeader.FLAG_SEGMENTS;
            }
            WireHeader.write(header, WireHeader.RTS, (byte) flags, s.context,
                    s.myCommRank, s.tag, s.messageBytes, s.id);
            if (s.registration != null) {
                WireHeader.writeRemote(header, s.registration.address(),
                        s.registration.remoteKey());
            } else {
                WireHeader.writeRemote(header, 0, 0);
            }
            if (s.signature != 0) {
                WireHeader.writeSignature(header, s.signature);
            }
            status = p.endpoint.send(rtsHeader, empty);
            if (status == PostStatus.OK) {
                s.phase = s.put ? SendOp.Phase.WAIT_CTS : SendOp.Phase.WAIT_FIN;
            }
            return status == PostStatus.OK;
        }
        if (s.synchronous && s.id == 0) {
            s.id = table.add(s);
        }
        WireHeader.writeAt(headerAddress, s.credited ? WireHeader.EAGER_CREDITED : WireHeader.EAGER,
                s.synchronous ? WireHeader.FLAG_SYNC : 0, s.context, s.myCommRank, s.tag,
                s.data.byteSize(), s.id);
        if (s.signature != 0) {
            WireHeader.writeSignature(header, s.signature);
        }
        status = p.endpoint.send(baseHeader, s.data);
        if (status != PostStatus.OK) {
            return false;
        }
        if (s.staging != null) {
            pool.release(s.staging);
            s.staging = null;
        }
        if (s.synchronous) {
            s.phase = SendOp.Phase.WAIT_ACK;
        } else {
            s.finish();
        }
        return true;
    }

    /** The pending queue's retry of a send: its post, or its RPUT writes. */
    boolean retry(SendOp s) {
        // The flag stays set during the call, so a refusal inside does not queue it twice.
        boolean done = s.phase != SendOp.Phase.WRITING ? tryPost(s)
                : s.segments != null ? segmentSender.post(s) : puts.postWrites(s);
        if (done) {
            s.pending = false;
        }
        return done;
    }

    /** Gives back what a rendezvous send holds (registration, staging) once it has ended. */
    void releaseRendezvous(SendOp s) {
        if (s.registration != null) {
            MemoryRegistration reg = s.registration;
            s.registration = null;
            reg.close();
        }
        if (s.staging != null) {
            pool.release(s.staging);
            s.staging = null;
        }
    }
}
