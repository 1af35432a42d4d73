package org.verbatim.runtime.p2p;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.EngineLock;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.Profiler;
import org.verbatim.runtime.base.RequestTable;
import org.verbatim.runtime.base.StagingPool;
import org.verbatim.runtime.ext.Dispatch;
import org.verbatim.spi.EagerClaim;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.Transport;

/**
 * MPI point-to-point: eager and rendezvous (RGET, RPUT) protocols and matching, reached by the
 * {@code mpi} package and the collectives, and reaching the runtime only through its
 * {@link ProtocolContext}. Registers its message kinds and RPUT's immediate bit with the
 * runtime's {@link Dispatch} when built.
 *
 * <p>Message data is one contiguous segment (heap or native) or a {@link Layout} over a base;
 * the peer's {@link SelectionTable} says which protocol carries which class and size.
 *
 * <p>Everything runs under the runtime's lock (a real lock only at MPI_THREAD_MULTIPLE).
 */
public final class PointToPoint implements AutoCloseable {
    public static final int ANY_SOURCE = -1;
    public static final int ANY_TAG = -1;

    private final ProtocolContext context;
    private final EngineLock lock;
    private final Dispatch dispatch;
    private final RequestTable table;
    private final StagingPool pool;
    private final Profiler profiler;
    private final PeerState[] peers;
    private final long eagerLimit;
    private final int readWindow;
    private final RendezvousPolicy rendezvousPolicy;
    private final LayoutSchemes schemes;
    private final boolean protoInfo;
    private final boolean multiThreaded;
    private final MatchQueues queues = new MatchQueues();
    private final PutRendezvous puts;
    private final GetRendezvous gets;
    private final ControlMessages controls;
    private final SegmentSender segmentSender;
    private final SegmentReceiver segmentReceiver;
    private final FragmentSender fragmentSender;
    private final FragmentReceiver fragmentReceiver;
    private final Arrivals arrivals;
    private final Arena arena = Arena.ofShared();
    /** Header scratch: used only under the lock, so one is enough. */
    private final MemorySegment header = arena.allocate(WireHeader.RTS_SIZE, 8);
    private final MemorySegment baseHeader = header.asSlice(0, WireHeader.BASE_SIZE);
    private final MemorySegment rtsHeader = header.asSlice(0, WireHeader.RTS_SIZE);
    private final MemorySegment empty = MemorySegment.ofArray(new byte[0]);
    private final EagerClaim claim = new EagerClaim();
    private final RecvOp scratchReceive;

    /** The datatype schemes' configuration. */
    LayoutSchemes schemes() {
        return schemes;
    }

    public PointToPoint(ProtocolContext context, int worldSize, long eagerLimit, int readWindow,
                        RendezvousPolicy rendezvous, boolean protoInfo, boolean multiThreaded) {
        this(context, worldSize, eagerLimit, readWindow, rendezvous, LayoutSchemes.auto(),
                protoInfo, multiThreaded);
    }

    public PointToPoint(ProtocolContext context, int worldSize, long eagerLimit, int readWindow,
                        RendezvousPolicy rendezvous, LayoutSchemes schemes, boolean protoInfo,
                        boolean multiThreaded) {
        this.schemes = schemes;
        this.context = context;
        this.lock = context.lock();
        this.dispatch = context.dispatch();
        this.table = context.table();
        this.pool = context.pool();
        this.profiler = context.profiler();
        this.peers = new PeerState[worldSize];
        this.eagerLimit = eagerLimit;
        this.readWindow = Math.max(1, readWindow);
        this.rendezvousPolicy = rendezvous;
        this.protoInfo = protoInfo;
        this.multiThreaded = multiThreaded;
        this.puts = new PutRendezvous(context, this, readWindow);
        this.gets = new GetRendezvous(context, this);
        this.controls = new ControlMessages(dispatch);
        this.segmentSender = new SegmentSender(context, this, schemes);
        this.segmentReceiver = new SegmentReceiver(context, this, schemes);
        this.scratchReceive = new RecvOp(this, 0, 0, 0, null, null);
        this.arrivals = new Arrivals(context, this, queues);
        this.fragmentSender = new FragmentSender(context);
        this.fragmentReceiver = new FragmentReceiver(context, this, queues);
        dispatch.registerKind(WireHeader.EAGER, "p2p eager", arrivals::onEager);
        dispatch.registerKind(WireHeader.RTS, "p2p rendezvous", arrivals::onRts);
        dispatch.registerKind(WireHeader.FRAG_FIRST, "p2p eager fragments",
                fragmentReceiver::onFirst);
        dispatch.registerKind(WireHeader.FRAG, "p2p eager fragments",
                fragmentReceiver::onFragment);
        dispatch.registerKind(WireHeader.FIN, "p2p rendezvous", arrivals::onFin);
        dispatch.registerKind(WireHeader.SYNC_ACK, "p2p synchronous send", arrivals::onFin);
        dispatch.registerKind(WireHeader.CTS, "p2p RPUT", puts::onCts);
        dispatch.registerKind(WireHeader.PUT_FIN, "p2p RPUT", (src, m, at, len) ->
                puts.onPutFin(src, WireHeader.request(m, at), WireHeader.flags(m, at)));
        dispatch.registerImmediates(PutRendezvous.IMMEDIATE_MARK, PutRendezvous.IMMEDIATE_MARK,
                "p2p RPUT", puts::onImmediate);
        dispatch.registerKind(SegmentWire.SEG_CTS, "p2p segments", segmentSender::onCts);
        dispatch.registerKind(SegmentWire.SEG_ACK, "p2p segments", segmentSender::onAck);
        dispatch.registerKind(SegmentWire.SEG_DONE, "p2p segments",
                segmentReceiver::onSegmentDone);
        dispatch.registerImmediates(SegmentWire.IMMEDIATE_MARK, SegmentWire.IMMEDIATE_MASK,
                "p2p segments", segmentReceiver::onImmediate);
    }

    PutRendezvous puts() {
        return puts;
    }

    GetRendezvous gets() {
        return gets;
    }

    SegmentSender segmentSender() {
        return segmentSender;
    }

    SegmentReceiver segmentReceiver() {
        return segmentReceiver;
    }

    FragmentReceiver fragmentReceiver() {
        return fragmentReceiver;
    }

    /**
     * Free segments of the pack and unpack pools (datatype schemes bc-spup, rwg-up): every
     * message gives back what it took, so at rest these are the pools' sizes.
     */
    public int[] segmentPoolsAvailable() {
        lock.lock();
        try {
            return new int[] {segmentSender.poolAvailable(), segmentReceiver.poolAvailable()};
        } finally {
            lock.unlock();
        }
    }

    /** Deregisters the datatype pools; call before the transports close. */
    public void releasePools() {
        lock.lock();
        try {
            segmentSender.releasePool();
            segmentReceiver.releasePool();
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ peers

    PeerState peer(int world) {
        PeerState p = peers[world];
        return p != null ? p : connect(world);
    }

    private PeerState connect(int world) {
        Transport t = context.transportFor(world);
        PeerState p = new PeerState(world, t, eagerLimit, rendezvousPolicy, readWindow, schemes);
        peers[world] = p;
        if (protoInfo) {
            System.err.print(describe(p));
        }
        return p;
    }

    /** The protocol selection for one peer, as verbatim.core.proto-info prints it. */
    String describe(PeerState p) {
        var caps = p.transport.capabilities();
        return "verbatim: rank " + context.worldRank() + " -> rank " + p.world + ": transport "
                + p.transport.name() + ", eager <= " + p.eagerLimit + " B, RDMA in chunks of "
                + p.maxRdma + " B, " + p.readWindow + " reads in flight"
                + (caps.hasNativeRdmaRead() ? "" : " (read emulated or absent)")
                + (caps.hasNativeRdmaWrite() ? "" : " (write emulated or absent)")
                + ", flags " + caps.flags() + "\n"
                + p.selection.describe("verbatim:   ");
    }

    /** The name of the transport used for {@code world} (connecting if needed). */
    public String transportFor(int world) {
        lock.lock();
        try {
            return peer(world).transport.name();
        } finally {
            lock.unlock();
        }
    }

    /** The selection table for {@code world} as text (connecting if needed). */
    public String selectionFor(int world) {
        lock.lock();
        try {
            return describe(peer(world));
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ send side

    /**
     * Starts a send of {@code data} (exactly the message bytes) to world rank {@code dest}.
     * {@code myCommRank} and {@code context} identify the sender and communicator for matching.
     */
    public SendOp send(int context, int myCommRank, int dest, int tag, MemorySegment data,
                       Object keepAlive, Mode mode) {
        return send(context, myCommRank, dest, tag, data, null, keepAlive, mode);
    }

    /**
     * Starts a send of the message laid out by {@code layout} over {@code base} ({@code layout}
     * null: {@code base} is exactly the message bytes).
     */
    public SendOp send(int ctx, int myCommRank, int dest, int tag, MemorySegment base,
                       Layout layout, Object keepAlive, Mode mode) {
        return send(ctx, myCommRank, dest, tag, base, layout, keepAlive, mode, (short) 0);
    }

    /**
     * As {@link #send(int, int, int, int, MemorySegment, Layout, Object, Mode)}, the header
     * carrying {@code signature}, the code of the sender's type signature
     * ({@code verbatim.core.check-types}; 0: unchecked).
     */
    public SendOp send(int ctx, int myCommRank, int dest, int tag, MemorySegment base,
                       Layout layout, Object keepAlive, Mode mode, short signature) {
        context.checkFatal();
        lock.lock();
        try {
            PeerState p = peer(dest);
            MemorySegment data = base;
            long size = layout == null ? base.byteSize() : layout.size();
            SelectionTable.DataClass dc = layout != null ? SelectionTable.DataClass.LAYOUT
                    : base.isNative() ? SelectionTable.DataClass.CONTIGUOUS_NATIVE
                    : SelectionTable.DataClass.CONTIGUOUS_HEAP;
            SelectionTable.Protocol proto = layout == null ? p.selection.select(dc, size)
                    : p.selection.selectLayout(size, layout, base.isNative(),
                    mode == Mode.SYNCHRONOUS);
            MemorySegment packed = null;
            boolean fromBlocks = false; // multi-w, bc-spup, rwg-up: the sender walks the layout
            if (proto == SelectionTable.Protocol.EAGER_FRAGMENTS) {
                return sendFragments(p, ctx, myCommRank, dest, tag, base, layout, keepAlive,
                        signature, size);
            }
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
                        SendOp s = new SendOp(this, p, ctx, myCommRank, tag, empty, keepAlive,
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
            SendOp s = new SendOp(this, p, ctx, myCommRank, tag, data, keepAlive,
                    mode == Mode.SYNCHRONOUS);
            s.signature = signature;
            s.protocol = proto;
            s.rendezvous = proto.rendezvous();
            if (fromBlocks) {
                s.layout = layout;
                s.messageBytes = size;
                s.statusBytesOverride(size);
                if (proto.segments()) {
                    s.segments = new SegmentSend(proto == SelectionTable.Protocol.RPUT_SEGMENTS_GATHERED);
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
                makePending(s);
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
        SendOp s = new SendOp(this, p, ctx, myCommRank, tag, base, keepAlive, false);
        s.signature = signature;
        s.protocol = SelectionTable.Protocol.EAGER_FRAGMENTS;
        s.layout = layout;
        s.messageBytes = size;
        s.statusBytesOverride(size);
        s.fragmentCursor = layout.cursor();
        profiler.messageSent(size);
        if (dispatch.pendingFor(dest) > 0 || !fragmentSender.post(s)) {
            makePending(s);
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

    /**
     * The blocking send's fast path: an eager message the transport takes at once needs no
     * request object. Returns false when the general path must be taken (rendezvous, a queue
     * to this peer, or no room now).
     */
    public boolean sendNow(int ctx, int myCommRank, int dest, int tag, MemorySegment data) {
        context.checkFatal();
        lock.lock();
        try {
            PeerState p = peers[dest];
            if (p == null) {
                p = connect(dest);
            }
            long len = data.byteSize();
            if (len > p.eagerLimit || dispatch.pendingFor(dest) > 0) {
                return false;
            }
            WireHeader.write(header, WireHeader.EAGER, (byte) 0, ctx, myCommRank, tag, len, 0);
            if (p.endpoint.send(baseHeader, data) != PostStatus.OK) {
                return false;
            }
            profiler.messageSent(len);
            return true;
        } finally {
            lock.unlock();
        }
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
                WireHeader.writeRemote(header, s.registration.address(), s.registration.remoteKey());
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
        WireHeader.write(header, WireHeader.EAGER, s.synchronous ? WireHeader.FLAG_SYNC : 0,
                s.context, s.myCommRank, s.tag, s.data.byteSize(), s.id);
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
    boolean retrySend(SendOp s) {
        // The flag stays set during the call, so a refusal inside does not queue it twice.
        boolean done = s.phase != SendOp.Phase.WRITING ? tryPost(s)
                : s.segments != null ? segmentSender.post(s) : puts.postWrites(s);
        if (done) {
            s.pending = false;
        }
        return done;
    }

    /** The pending queue's retry of a receive: its RPUT CTS, or its RGET reads. */
    boolean retryReceive(RecvOp r) {
        boolean done = !r.ctsPending ? gets.postReads(r)
                : r.segments != null ? segmentReceiver.retryCts(r) : puts.retryCts(r);
        if (done) {
            r.pending = false;
        }
        return done;
    }

    /** Queues {@code s} for retry once (its own flag guards against a second entry). */
    void makePending(SendOp s) {
        if (!s.pending) {
            s.pending = true;
            dispatch.pending(s);
        }
    }

    void makePending(RecvOp r) {
        if (!r.pending) {
            r.pending = true;
            dispatch.pending(r);
        }
    }

    /** Sends a control message (FIN, SYNC_ACK, PUT_FIN), or queues it if refused for now. */
    void sendControl(PeerState p, byte kind, int flags, long id) {
        controls.send(p, kind, flags, id);
    }

    /** As {@link #sendControl(PeerState, byte, int, long)} with a LENGTH field (segments). */
    void sendControl(PeerState p, byte kind, int flags, long id, long length) {
        controls.send(p, kind, flags, id, length);
    }

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

    // ------------------------------------------------------------------ receive side

    /** Posts a receive into {@code data} (exactly the buffer's bytes). */
    public RecvOp receive(int ctx, int source, int tag, MemorySegment data, Object keepAlive,
                          Runnable onDone) {
        return receive(ctx, source, tag, data, null, keepAlive, onDone);
    }

    /** Posts a receive into the blocks of {@code layout} over {@code base} (null: contiguous). */
    public RecvOp receive(int ctx, int source, int tag, MemorySegment base, Layout layout,
                          Object keepAlive, Runnable onDone) {
        return receive(ctx, source, tag, base, layout, keepAlive, onDone, null);
    }

    /** As {@link #receive(int, int, int, MemorySegment, Layout, Object, Runnable)}, checking the
     *  sender's type signature against {@code check} (verbatim.core.check-types; null: not). */
    public RecvOp receive(int ctx, int source, int tag, MemorySegment base, Layout layout,
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
                r = new RecvOp(this, ctx, source, tag, base, keepAlive);
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

    /** Receives handed back by {@link #recycle}, reused by {@link #receive}. */
    private final RecvOp[] free = new RecvOp[64];
    private int freeCount;

    /**
     * Takes back a receive whose completion its only owner (an MPI request) has just consumed,
     * so that a window of nonblocking receives allocates no operation objects once warm. Only
     * one that ended as an eager delivery (or was cancelled) qualifies: nothing in the runtime
     * refers to it any more, unlike a rendezvous, whose transfer may still report to it.
     */
    public void recycle(RecvOp r) {
        if (!r.isComplete() || r.posted || r.pending || r.peer != null || r.registration != null
                || r.staging != null || r.chunksOutstanding != 0 || r.id != 0 || r.owner != this) {
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

    private void match(RecvOp r) {
        Unexpected u = queues.findUnexpected(r.context, r.source, r.tag);
        if (u != null) {
            queues.removeUnexpected(u);
            arrivals.deliverUnexpected(u, r);
        } else {
            queues.post(r);
        }
    }

    /**
     * A receive that the caller waits for at once (blocking MPI_Recv). Below
     * MPI_THREAD_MULTIPLE only one thread calls MPI at a time, so one receive object is reused;
     * it must not be kept after the wait.
     */
    public RecvOp receiveBlocking(int ctx, int source, int tag, MemorySegment data,
                                  Object keepAlive, Runnable onDone) {
        if (multiThreaded) {
            return receive(ctx, source, tag, data, keepAlive, onDone);
        }
        context.checkFatal();
        RecvOp r = scratchReceive;
        queues.unlink(r); // left posted only if a previous wait ended with an error
        if (r.id != 0) {
            table.remove(r.id);
        }
        r.reinit(ctx, source, tag, data, keepAlive, onDone);
        r.id = 0;
        match(r);
        return r;
    }

    /** MPI_Iprobe: the first matching unexpected message, or null; with remove, dequeues it. */
    public Unexpected probe(int ctx, int source, int tag, boolean remove) {
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

    /** Receives a message taken by a matched probe. */
    public RecvOp receiveMatched(Unexpected u, MemorySegment data, Object keepAlive,
                                 Runnable onDone) {
        return receiveMatched(u, data, null, keepAlive, onDone);
    }

    /** Receives a message taken by a matched probe into {@code layout} over {@code base} (null: contiguous). */
    public RecvOp receiveMatched(Unexpected u, MemorySegment base, Layout layout,
                                 Object keepAlive, Runnable onDone) {
        return receiveMatched(u, base, layout, keepAlive, onDone, null);
    }

    /** As {@link #receiveMatched(Unexpected, MemorySegment, Layout, Object, Runnable)}, with the
     *  type check of verbatim.core.check-types (null: none). */
    public RecvOp receiveMatched(Unexpected u, MemorySegment base, Layout layout,
                                 Object keepAlive, Runnable onDone, TypeCheck check) {
        context.checkFatal();
        lock.lock();
        try {
            RecvOp r = new RecvOp(this, u.context, u.source, u.tag, base, keepAlive);
            r.onDone = onDone;
            r.layout = layout;
            r.typeCheck = check;
            arrivals.deliverUnexpected(u, r);
            return r;
        } finally {
            lock.unlock();
        }
    }

    boolean cancelReceive(RecvOp r) {
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

    /**
     * This process's point-to-point operations on communicator context {@code context} that are
     * not complete, in words (MPI_Comm_disconnect): receives posted and not matched yet
     * ({@code unmatched} true), or also the matched ones and sends whose transfer has not ended.
     */
    public java.util.List<String> openOn(int context, boolean unmatchedOnly) {
        java.util.List<String> out = new java.util.ArrayList<>();
        lock.lock();
        try {
            queues.forEachPosted(r -> {
                if (r.context == context && !r.isComplete()) {
                    out.add("a receive (source " + r.source + ", tag " + r.tag + ") that no message matched");
                }
            });
            if (!unmatchedOnly) {
                table.forEach(o -> {
                    if (o instanceof SendOp s && s.context == context && !s.isComplete()) {
                        out.add("a send (tag " + s.tag + ") whose transfer has not ended");
                    } else if (o instanceof RecvOp r && r.context == context && !r.isComplete() && !r.posted) {
                        out.add("a receive (source " + r.source + ", tag " + r.tag + ") still receiving");
                    }
                });
            }
        } finally {
            lock.unlock();
        }
        return out;
    }

    /** Requests in flight (sends waiting for FIN/ACK, rendezvous reads). */
    public int inFlight() {
        return table.inFlight();
    }

    public long unexpectedTotal() {
        return queues.unexpectedTotal();
    }

    @Override
    public void close() {
        segmentSender.close();
        segmentReceiver.close();
        fragmentSender.close();
        puts.close();
        controls.close();
        arena.close();
    }
}
