package org.verbatim.runtime.p2p;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.runtime.base.EngineLock;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.base.Profiler;
import org.verbatim.runtime.base.RequestTable;
import org.verbatim.runtime.ext.Dispatch;
import org.verbatim.spi.PostStatus;

/**
 * MPI point-to-point: eager and rendezvous (RGET, RPUT) protocols and matching, reached by the
 * {@code mpi} package and the collectives, and reaching the runtime only through its
 * {@link ProtocolContext}. Builds its parts and registers their message kinds and RPUT's
 * immediate bit with the runtime's {@link Dispatch}: {@link SendPath} starts sends (the protocol
 * choice), {@link ReceivePath} posts receives and probes, {@link Arrivals} matches what comes in
 * against {@link MatchQueues}, {@link Peers} keeps each peer's protocol choices, and the
 * rendezvous protocols ({@link GetRendezvous}, {@link PutRendezvous}, {@link SegmentSender},
 * {@link SegmentReceiver}) move the large messages.
 *
 * <p>Message data is one contiguous segment (heap or native) or a {@link Layout} over a base;
 * the peer's {@link SelectionTable} says which protocol carries which class and size.
 *
 * <p>The blocking send's and receive's fast paths ({@link #sendNow}, {@link #receiveBlocking}:
 * the small-message ping-pong) are done here rather than delegated: a small method that the JIT
 * compiled on its own with its callee inlined counts as "already compiled into a big method" and
 * is then no longer inlined into its callers, which would put one call more on that path.
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
    private final Profiler profiler;
    private final LayoutSchemes schemes;
    private final Peers peers;
    /** {@link Peers#byWorld}, indexed here without a call. */
    private final PeerState[] byWorld;
    private final MatchQueues queues = new MatchQueues();
    private final PutRendezvous puts;
    private final GetRendezvous gets;
    private final EagerCredit credit;
    private final EagerPlacement placement;
    private final ControlMessages controls;
    private final SegmentSender segmentSender;
    private final SegmentReceiver segmentReceiver;
    private final FragmentSender fragmentSender;
    private final FragmentReceiver fragmentReceiver;
    private final SendPath sends;
    private final ReceivePath receives;
    private final boolean multiThreaded;
    /** The blocking receive's one object below MPI_THREAD_MULTIPLE. */
    private final RecvOp scratchReceive;
    /**
     * Header scratch of every post (also {@link SendPath}'s): used only under the lock. Its
     * memory is the automatic arena's, freed only once this object is unreachable, so the
     * blocking send may write it by address ({@link WireHeader#writeAt}) without a check,
     * even on a call that races MPI_Finalize.
     */
    private final MemorySegment header = Arena.ofAuto().allocate(WireHeader.RTS_SIZE, 8);
    private final long headerAddress = header.address();
    private final MemorySegment baseHeader = header.asSlice(0, WireHeader.BASE_SIZE);

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
        this.profiler = context.profiler();
        this.multiThreaded = multiThreaded;
        this.peers = new Peers(context, worldSize, eagerLimit, readWindow, rendezvous, schemes,
                protoInfo);
        this.byWorld = peers.byWorld;
        this.puts = new PutRendezvous(context, this, readWindow);
        this.gets = new GetRendezvous(context, this);
        this.controls = new ControlMessages(dispatch);
        this.segmentSender = new SegmentSender(context, this, schemes);
        this.segmentReceiver = new SegmentReceiver(context, this, schemes);
        this.credit = new EagerCredit(context, this);
        Arrivals arrivals = new Arrivals(context, this, queues);
        this.fragmentSender = new FragmentSender(context);
        this.fragmentReceiver = new FragmentReceiver(context, this, queues);
        this.sends = new SendPath(context, this, peers, puts, segmentSender, fragmentSender,
                header);
        this.receives = new ReceivePath(context, this, queues, arrivals, puts, gets,
                segmentReceiver);
        this.scratchReceive = new RecvOp(this, 0, 0, 0, null, null);
        dispatch.registerKind(WireHeader.EAGER, "p2p eager", arrivals::onEager);
        dispatch.registerKind(WireHeader.EAGER_CREDITED, "p2p eager", arrivals::onCreditedEager);
        dispatch.preferKind(WireHeader.EAGER);
        this.placement = new EagerPlacement(context, this, queues);
        dispatch.registerPlacement(WireHeader.EAGER, placement);
        dispatch.registerPlacement(WireHeader.EAGER_CREDITED, placement);
        dispatch.registerKind(WireHeader.RTS, "p2p rendezvous", arrivals::onRts);
        dispatch.registerKind(WireHeader.FRAG_FIRST, "p2p eager fragments",
                fragmentReceiver::onFirst);
        dispatch.registerKind(WireHeader.FRAG, "p2p eager fragments",
                fragmentReceiver::onFragment);
        dispatch.registerKind(WireHeader.FIN, "p2p rendezvous", arrivals::onFin);
        dispatch.registerKind(WireHeader.CREDIT, "p2p eager credit", credit::onCredit);
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

    // ------------------------------------------------------------------ the protocol parts

    /** The datatype schemes' configuration. */
    LayoutSchemes schemes() {
        return schemes;
    }

    /** Large eager messages received straight into place by a stream transport. */
    EagerPlacement placement() {
        return placement;
    }

    EagerCredit credit() {
        return credit;
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

    /** The state of peer {@code world}, made on first use. */
    PeerState peer(int world) {
        return peers.get(world);
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

    /** The pending queue's retry of a send ({@link SendPath#retry}). */
    boolean retrySend(SendOp s) {
        return sends.retry(s);
    }

    /** The pending queue's retry of a receive ({@link ReceivePath#retry}). */
    boolean retryReceive(RecvOp r) {
        return receives.retry(r);
    }

    boolean cancelReceive(RecvOp r) {
        return receives.cancel(r);
    }

    void releaseRendezvous(SendOp s) {
        sends.releaseRendezvous(s);
    }

    /** Sends a control message (FIN, SYNC_ACK, PUT_FIN), or queues it if refused for now. */
    void sendControl(PeerState p, byte kind, int flags, long id) {
        controls.send(p, kind, flags, id);
    }

    /** As {@link #sendControl(PeerState, byte, int, long)} with a LENGTH field (segments). */
    void sendControl(PeerState p, byte kind, int flags, long id, long length) {
        controls.send(p, kind, flags, id, length);
    }

    // ------------------------------------------------------------------ send side

    /**
     * Starts a send of {@code data} (exactly the message bytes) to world rank {@code dest}.
     * {@code myCommRank} and {@code context} identify the sender and communicator for matching.
     */
    public SendOp send(int context, int myCommRank, int dest, int tag, MemorySegment data,
                       Object keepAlive, Mode mode) {
        return sends.send(context, myCommRank, dest, tag, data, null, keepAlive, mode, (short) 0);
    }

    /**
     * Starts a send of the message laid out by {@code layout} over {@code base} ({@code layout}
     * null: {@code base} is exactly the message bytes).
     */
    public SendOp send(int ctx, int myCommRank, int dest, int tag, MemorySegment base,
                       Layout layout, Object keepAlive, Mode mode) {
        return sends.send(ctx, myCommRank, dest, tag, base, layout, keepAlive, mode, (short) 0);
    }

    /**
     * As {@link #send(int, int, int, int, MemorySegment, Layout, Object, Mode)}, the header
     * carrying {@code signature}, the code of the sender's type signature
     * ({@code verbatim.core.check-types}; 0: unchecked).
     */
    public SendOp send(int ctx, int myCommRank, int dest, int tag, MemorySegment base,
                       Layout layout, Object keepAlive, Mode mode, short signature) {
        return sends.send(ctx, myCommRank, dest, tag, base, layout, keepAlive, mode, signature);
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
            PeerState p = byWorld[dest];
            if (p == null) {
                p = peers.connect(dest);
            }
            long len = data.byteSize();
            if (len > p.eagerLimit || dispatch.pendingFor(dest) > 0) {
                return false;
            }
            WireHeader.writeAt(headerAddress, WireHeader.EAGER, (byte) 0, ctx, myCommRank, tag,
                    len, 0);
            if (p.endpoint.send(baseHeader, data) != PostStatus.OK) {
                return false;
            }
            profiler.messageSent(len);
            return true;
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ receive side

    /** Posts a receive into {@code data} (exactly the buffer's bytes). */
    public RecvOp receive(int ctx, int source, int tag, MemorySegment data, Object keepAlive,
                          Runnable onDone) {
        return receives.receive(ctx, source, tag, data, null, keepAlive, onDone, null);
    }

    /** Posts a receive into the blocks of {@code layout} over {@code base} (null: contiguous). */
    public RecvOp receive(int ctx, int source, int tag, MemorySegment base, Layout layout,
                          Object keepAlive, Runnable onDone) {
        return receives.receive(ctx, source, tag, base, layout, keepAlive, onDone, null);
    }

    /** As {@link #receive(int, int, int, MemorySegment, Layout, Object, Runnable)}, checking the
     *  sender's type signature against {@code check} (verbatim.core.check-types; null: not). */
    public RecvOp receive(int ctx, int source, int tag, MemorySegment base, Layout layout,
                          Object keepAlive, Runnable onDone, TypeCheck check) {
        return receives.receive(ctx, source, tag, base, layout, keepAlive, onDone, check);
    }

    /**
     * Takes back a receive whose completion its only owner (an MPI request) has just consumed,
     * so that a window of nonblocking receives allocates no operation objects once warm. Only
     * one that ended as an eager delivery (or was cancelled) qualifies: nothing in the runtime
     * refers to it any more, unlike a rendezvous, whose transfer may still report to it.
     */
    public void recycle(RecvOp r) {
        receives.recycle(r);
    }

    /**
     * A receive that the caller waits for at once (blocking MPI_Recv). Below
     * MPI_THREAD_MULTIPLE only one thread calls MPI at a time, so one receive object is reused;
     * it must not be kept after the wait.
     */
    public RecvOp receiveBlocking(int ctx, int source, int tag, MemorySegment data,
                                  Object keepAlive, Runnable onDone) {
        if (multiThreaded) {
            return receives.receive(ctx, source, tag, data, null, keepAlive, onDone, null);
        }
        context.checkFatal();
        RecvOp r = scratchReceive;
        queues.unlink(r); // left posted only if a previous wait ended with an error
        if (r.id != 0) {
            table.remove(r.id);
        }
        r.reinit(ctx, source, tag, data, keepAlive, onDone);
        r.id = 0;
        receives.match(r);
        return r;
    }

    /** MPI_Iprobe: the first matching unexpected message, or null; with remove, dequeues it. */
    public Unexpected probe(int ctx, int source, int tag, boolean remove) {
        return receives.probe(ctx, source, tag, remove);
    }

    /** Receives a message taken by a matched probe. */
    public RecvOp receiveMatched(Unexpected u, MemorySegment data, Object keepAlive,
                                 Runnable onDone) {
        return receives.receiveMatched(u, data, null, keepAlive, onDone, null);
    }

    /** Receives a message taken by a matched probe into {@code layout} over {@code base} (null: contiguous). */
    public RecvOp receiveMatched(Unexpected u, MemorySegment base, Layout layout,
                                 Object keepAlive, Runnable onDone) {
        return receives.receiveMatched(u, base, layout, keepAlive, onDone, null);
    }

    /** As {@link #receiveMatched(Unexpected, MemorySegment, Layout, Object, Runnable)}, with the
     *  type check of verbatim.core.check-types (null: none). */
    public RecvOp receiveMatched(Unexpected u, MemorySegment base, Layout layout,
                                 Object keepAlive, Runnable onDone, TypeCheck check) {
        return receives.receiveMatched(u, base, layout, keepAlive, onDone, check);
    }

    // ------------------------------------------------------------------ state and diagnostics

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

    /** The name of the transport used for {@code world} (connecting if needed). */
    public String transportFor(int world) {
        lock.lock();
        try {
            return peers.get(world).transport.name();
        } finally {
            lock.unlock();
        }
    }

    /** The selection table for {@code world} as text (connecting if needed). */
    public String selectionFor(int world) {
        lock.lock();
        try {
            return peers.describe(peers.get(world));
        } finally {
            lock.unlock();
        }
    }

    /**
     * This process's point-to-point operations on communicator context {@code context} that are
     * not complete, in words (MPI_Comm_disconnect): receives posted and not matched yet
     * ({@code unmatched} true), or also the matched ones and sends whose transfer has not ended.
     */
    public List<String> openOn(int context, boolean unmatchedOnly) {
        List<String> out = new ArrayList<>();
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
    }
}
