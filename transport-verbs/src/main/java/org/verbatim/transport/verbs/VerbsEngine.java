package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.spi.Access;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.ProfileCounter;
import org.verbatim.verbs.CompletionQueue;
import org.verbatim.verbs.Context;
import org.verbatim.verbs.ProtectionDomain;
import org.verbatim.verbs.QueuePair;
import org.verbatim.verbs.QueuePairConfig;
import org.verbatim.verbs.QueuePairType;
import org.verbatim.verbs.SharedReceiveQueue;
import org.verbatim.verbs.WorkCompletions;

/**
 * The data path of a verbs transport, without its connection management: completion queues,
 * the eager channels (shared receive queue or per-connection buffers, the adaptive RDMA fast path
 * where the device places data in order), send buffers, the registration cache, one
 * {@link VerbsEndpoint} per connected peer and the progress loop over all of them.
 *
 * <p>A transport (ib, iwarp) opens the device, builds an engine on it, creates RC queue pairs
 * with {@link #createQueuePair()} (or through the RDMA CM with {@link #queuePairConfig}), connects
 * them its own way, hands each to {@link #addEndpoint}, and calls {@link #ready} once both sides
 * can receive. Until then posts on the endpoint return RETRY.
 *
 * <p>Runs on the progressing thread (under the runtime's progress lock); only the SRQ refill runs
 * on the async-event thread.
 */
public final class VerbsEngine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(VerbsEngine.class);
    static final int POLL_BATCH = 32;
    /**
     * While no signalled send work request is outstanding the send CQ has nothing to report but
     * errors of flushed requests, so it is polled only every this many passes (a CQ poll is a
     * downcall; two per pass were most of an idle pass).
     */
    private static final int SEND_CQ_IDLE_POLL = 64;
    /**
     * Gather entries asked for per send work request, at most: each costs 16 bytes in every
     * send queue slot of every queue pair, and datatype layouts with more blocks go through
     * several requests (or a list post) anyway.
     */
    private static final int MAX_IOV = 16;
    /** Requests chained into one list post, at most. */
    private static final int MAX_LIST_POST = 32;

    final VerbsOptions options;
    final CompletionHandler handler;
    final VerbsCounters counters = new VerbsCounters();
    final int maxInline;
    final MemorySegment inlineScratch;
    final SendBuffers sendBuffers;
    final Arena arena = Arena.ofShared();
    final ProtectionDomain pd;
    final EagerControl control;
    /** Signalled send work requests posted and not yet seen complete. */
    int signalledOutstanding;
    /** Entries of one gather or scatter list (the queue pairs' granted send SGEs). */
    final int maxIov;
    /** Entries of an RDMA read's scatter list: {@code maxIov}, at most the device's {@code max_sge_rd}. */
    final int maxReadIov;
    /**
     * Every RDMA read carries exactly one sink entry, a zero-length one included: the device's
     * read request names one sink buffer ({@code max_sge_rd} 1, iWARP's RDMAP). Soft-iWARP takes
     * the first entry of a read's send-queue slot whatever {@code num_sge} says, so a read posted
     * without entries (a flush) would send what that slot held before: a stale length and key.
     */
    final boolean oneReadSink;
    /**
     * Where zero-length reads go as one-byte reads ({@link DeviceLimits#zeroLengthReadsNeedTarget}),
     * else null.
     */
    final ReadTargets readTargets;
    /**
     * A request posted to a queue pair in error comes back flushed ({@link
     * DeviceLimits#flushesPostsAfterError}): the drain after an error can post a marker.
     */
    final boolean markerAfterError;
    /**
     * Later requests may complete ahead of an RDMA read or atomic (writes not acknowledged:
     * iWARP), so only its own completion retires one ({@link OutstandingRequests}).
     */
    final boolean readsCompleteOutOfOrder;
    /** Work requests chained into one list post. */
    final int maxListPost;
    /** The device runs remote atomics. */
    final boolean atomics;
    /** RDMA reads and atomics a queue pair keeps outstanding / serves (this device). */
    private final int readsOut;
    private final int readsIn;
    final String where;
    /** Control messages travel as a word ahead of every send (no immediate data: iWARP). */
    final boolean inBand;
    /** The {@link Access} rights the local buffer of an RDMA read needs. */
    final int readSinkAccess;
    /** Largest eager message (the eager size less the in-band word, if any). */
    final int maxEager;
    /** Completions decided without the device (a misaligned atomic), delivered at the next progress. */
    private final LateCompletions late;

    private final Context context;
    final int rank;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final ReceivePoller receives;
    final SharedReceiveQueue srq;
    final ReceiveBuffers receiveBuffers;
    final VerbsEndpoint[] endpoints;
    private final int[] qpnKeys;
    private final int[] qpnPeers;
    private int qpnCount;
    private final int depth;
    private final int qpInline;
    /** Gather entries asked for per send work request. */
    private final int qpSge;
    Consumer<VerbsEndpoint> firstTraffic = ep -> { };
    Consumer<VerbsEndpoint> firstMessage = ep -> { };
    private final EndpointRecovery recovery;
    private int progressCalls;
    private final WorkCompletions sendWc;
    private final Registrations registrations;
    private final Capabilities capabilities;
    private final AsyncEvents asyncEvents;
    boolean closed;

    /**
     * Builds the data path on an open device.
     *
     * @param context           the device; the engine owns it from here and closes it
     * @param limits            what the device allows ({@link DeviceLimits#query})
     * @param options           eager channel and sizes
     * @param handler           where messages and completions go
     * @param rank              this process's world rank
     * @param size              world size
     * @param inOrderPlacement  the device places an RDMA write's bytes in address order (InfiniBand,
     *                          RoCE; not iWARP): needed by the RDMA fast path, advertised as
     *                          {@link Capability#IN_ORDER_PLACEMENT}
     * @param where             the device and port in words, for error messages
     */
    public VerbsEngine(Context context, DeviceLimits limits, VerbsOptions options, CompletionHandler handler,
                       int rank, int size, boolean inOrderPlacement, String where) {
        this(context, limits, options, handler, rank, size,
                DeviceSemantics.INFINIBAND.assumingInOrderPlacement(inOrderPlacement), where);
    }

    /**
     * Builds the data path on an open device whose {@link DeviceSemantics} are {@code semantics}
     * (what it promises beyond the verbs calls: placement order, immediate data, read sinks).
     *
     * @param context   the device; the engine owns it from here and closes it
     * @param limits    what the device allows ({@link DeviceLimits#query})
     * @param options   eager channel and sizes
     * @param handler   where messages and completions go
     * @param rank      this process's world rank
     * @param size      world size
     * @param semantics what the device family promises
     * @param where     the device and address in words, for error messages
     */
    public VerbsEngine(Context context, DeviceLimits limits, VerbsOptions options, CompletionHandler handler,
                       int rank, int size, DeviceSemantics semantics, String where) {
        boolean inOrderPlacement = semantics.inOrderPlacement();
        this.inBand = !semantics.immediateData();
        this.readsCompleteOutOfOrder = !semantics.writesAcknowledged();
        this.readSinkAccess = Access.LOCAL_WRITE | (semantics.readSinkRemoteWrite() ? Access.REMOTE_WRITE : 0);
        this.maxEager = options.eagerSize() - (inBand ? InBandControl.WORD : 0);
        if (options.channel().fastPath() && !inOrderPlacement) {
            throw new IllegalArgumentException("eager channel " + options.channel().configName()
                    + " needs in-order placement of RDMA writes, which " + where + " does not give");
        }
        this.context = context;
        this.options = options;
        this.handler = handler;
        this.late = new LateCompletions(handler);
        this.recovery = new EndpointRecovery(this);
        this.rank = rank;
        this.where = where;
        this.pd = context.allocateProtectionDomain();
        this.depth = Math.min(options.sendQueueDepth(), Integer.highestOneBit(Math.max(8, limits.maxQpWr())));
        int peers = Math.max(1, size - 1);
        int recvEntries = options.channel().sharedReceiveQueue() ? options.srqMax() : options.srBuffers() * peers;
        this.sendCq = context.createCompletionQueue(Math.min(limits.maxCqe(), depth * peers + 16), null);
        this.recvCq = context.createCompletionQueue(Math.min(limits.maxCqe(), recvEntries + 16), null);
        int bufferSize = options.eagerSize();
        this.receiveBuffers = new ReceiveBuffers(pd, arena, bufferSize);
        this.srq = options.channel().sharedReceiveQueue()
                ? pd.createSharedReceiveQueue(Math.min(options.srqMax(), limits.maxSrqWr()), 1) : null;
        this.endpoints = new VerbsEndpoint[size];
        this.qpnKeys = new int[size];
        this.qpnPeers = new int[size];
        this.atomics = limits.atomics();
        this.readsOut = Math.min(255, Math.max(1, limits.maxQpInitRdAtom()));
        this.readsIn = Math.min(255, Math.max(1, limits.maxQpRdAtom()));
        // One probe queue pair learns the inline size and gather entries the device grants;
        // connections come later.
        this.qpSge = Math.max(1, Math.min(MAX_IOV, limits.maxSge()));
        QueuePair probe = createQueuePair(options.maxInline());
        this.qpInline = probe.maxInline();
        this.maxIov = Math.max(1, Math.min(qpSge, probe.maxSendSge()));
        probe.close();
        this.maxReadIov = Math.max(1, Math.min(maxIov, limits.readSinkEntries()));
        this.oneReadSink = limits.readSinkEntries() == 1;
        this.readTargets = limits.zeroLengthReadsNeedTarget() ? new ReadTargets(pd, arena, size) : null;
        this.markerAfterError = limits.flushesPostsAfterError();
        this.maxListPost = Math.max(1, Math.min(MAX_LIST_POST, depth / 2));
        this.maxInline = Math.min(qpInline, options.maxInline());
        this.inlineScratch = arena.allocate(Math.max(64, maxInline + FastPathDescriptor.FOOTER), 64);
        this.control = new EagerControl(this, arena);
        this.sendBuffers = new SendBuffers(pd, arena, options.sendBuffers(),
                FastPathDescriptor.slotSize(options.eagerSize()));
        counters.allocated(sendBuffers.bytes());
        if (srq != null) {
            int slab = receiveBuffers.addSlab(options.srqSize(), -1);
            receiveBuffers.postAll(slab, srq, null);
            counters.allocated((long) options.srqSize() * bufferSize);
            counters.srqBuffers = options.srqSize();
            srq.armLimit(options.srqLowWatermark());
        }
        this.sendWc = new WorkCompletions(arena, POLL_BATCH);
        this.receives = new ReceivePoller(this, recvCq, new WorkCompletions(arena, POLL_BATCH),
                Math.max(1, Math.min(8, options.srqSize() / 4)));
        this.registrations = new Registrations(pd, atomics, options.regCacheSize(), where);
        this.capabilities = VerbsCapabilities.of(maxInline, maxEager, maxIov, maxReadIov, atomics,
                Math.min(readsOut, readsIn), maxListPost, inOrderPlacement, !inBand, srq != null,
                limits.readsDeferred(), options.rdmaChunk(), semantics.writesAcknowledged());
        this.asyncEvents = srq == null ? null : new AsyncEvents(context, this::onSrqLimit,
                "verbatim-verbs-async-" + rank);
    }

    // ------------------------------------------------------------------ queue pairs and endpoints

    /**
     * How an RC queue pair of this engine is created: its CQs, the SRQ (or a private receive
     * queue of {@code sr-buffers}), the send queue depth, the gather entries of the gather and
     * scatter lists, {@code inline} bytes. For transports that create queue pairs through the
     * RDMA CM ({@code rdma_create_qp}).
     */
    public QueuePairConfig queuePairConfig(int inline) {
        return new QueuePairConfig(QueuePairType.RC, sendCq, recvCq, srq, depth, options.srBuffers(), qpSge, inline);
    }

    /** {@link #queuePairConfig(int)} with the inline size the device granted the probe queue pair. */
    public QueuePairConfig queuePairConfig() {
        return queuePairConfig(qpInline);
    }

    /**
     * Sends the connection's first message, a control message the runtime never sees: for
     * devices whose connection counts as up only once the connecting side has sent (iWARP's
     * MPA). Call right after {@link #ready} on the connecting side, before anything else is
     * posted; the accepting side may send one back as its answer. Returns a {@link PostStatus}:
     * RETRY when it cannot be posted now (the caller posts it again later).
     */
    public int sendFirstMessage(VerbsEndpoint ep) {
        int status = ep.sendControl(EagerControl.FIRST, 0, null);
        if (status == PostStatus.OK) {
            counters.firstMessages++;
        }
        return status;
    }

    /** A new RC queue pair (RESET) with the inline size the device granted the probe. */
    public QueuePair createQueuePair() {
        return createQueuePair(qpInline);
    }

    private QueuePair createQueuePair(int requestedInline) {
        int inline = requestedInline;
        while (true) {
            try {
                return pd.createQueuePair(queuePairConfig(inline));
            } catch (RuntimeException e) {
                if (inline == 0) {
                    throw e;
                }
                inline /= 2;
            }
        }
    }

    /** The {@code IBV_ACCESS_*} flags a queue pair of this engine gets at INIT. */
    public int queuePairAccess() {
        return IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ
                | (atomics ? IBV_ACCESS_REMOTE_ATOMIC : 0);
    }

    /**
     * RDMA reads and atomics this side's queue pairs serve at once ({@code max_dest_rd_atomic}
     * at RTR): the device's {@code max_qp_rd_atom}. A transport tells the peer, whose
     * {@link #readsOut} must not exceed it.
     */
    public int readsIn() {
        return readsIn;
    }

    /**
     * RDMA reads and atomics a queue pair of this side keeps outstanding towards a peer that
     * serves {@code peerReadsIn} ({@code max_rd_atomic} at RTS): the device's
     * {@code max_qp_init_rd_atom}, at most the peer's.
     */
    public int readsOut(int peerReadsIn) {
        return Math.max(1, Math.min(readsOut, peerReadsIn));
    }

    /** Bytes {@link #putReadTarget} adds to a connection's private data. */
    public static final int READ_TARGET_BYTES = 12;

    /**
     * Puts the address and key of the byte peers read for a zero-length read ({@link ReadTargets};
     * zeros on devices that answer zero-length reads) into a connection's private data.
     */
    public void putReadTarget(ByteBuffer into) {
        into.putLong(readTargets == null ? 0 : readTargets.address())
                .putInt(readTargets == null ? 0 : readTargets.remoteKey());
    }

    /** Takes {@code peer}'s byte for zero-length reads from its connection's private data. */
    public void peerReadTarget(int peer, ByteBuffer from) {
        long address = from.getLong();
        int key = from.getInt();
        if (readTargets != null && address != 0) {
            readTargets.peer(peer, address, key);
        }
    }

    /** The protection domain of every registration and queue pair of this engine. */
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    /** Native memory that lives as long as the engine (for the transport's own buffers). */
    public Arena arena() {
        return arena;
    }

    /** The endpoint of {@code peer}, or null when there is none yet. */
    public VerbsEndpoint endpoint(int peer) {
        return endpoints[peer];
    }

    /**
     * Makes {@code qp} (an RC queue pair of this engine, already at INIT) the connection to
     * {@code peer}: posts its per-connection receive buffers (ardma-sr) and returns the endpoint,
     * which refuses posts until {@link #ready}.
     */
    public VerbsEndpoint addEndpoint(int peer, QueuePair qp) {
        if (endpoints[peer] != null) {
            throw new IllegalStateException("rank " + peer + " already has an endpoint");
        }
        VerbsEndpoint ep = new VerbsEndpoint(this, peer, qp, arena, depth);
        if (srq == null) {
            ep.slab = receiveBuffers.addSlab(options.srBuffers(), peer);
            ep.receivesPosted = options.srBuffers() - receiveBuffers.postAll(ep.slab, null, qp);
            counters.allocated((long) options.srBuffers() * receiveBuffers.bufferSize());
        }
        qpnKeys[qpnCount] = qp.qpNum();
        qpnPeers[qpnCount++] = peer;
        counters.queuePairs++;
        endpoints[peer] = ep;
        return ep;
    }

    /** Both sides of {@code ep}'s connection can receive: posts may go out. */
    public void ready(VerbsEndpoint ep) {
        ep.connecting = false;
        ep.recovering = false;
        if (!ep.failed && ep.requests.replays.pending() > 0 && !ep.postReplays()) {
            failWith(ep, "ib: one-sided requests to rank " + ep.peer + " on " + where + " could not be posted"
                    + " again after the connection was re-established");
        }
        ep.blocked = ep.failed;
        LOG.debug("rank {}: connected to rank {} (QP {} -> {})", rank, ep.peer, ep.qp.qpNum(), ep.remoteQpn);
    }

    // ------------------------------------------------------------------ recovery

    /**
     * Starts re-establishing {@code ep}'s connection after its queue pair went to error (see
     * {@link EndpointRecovery#recover}); the drained listener ({@link #onDrained}) continues.
     */
    public void recover(VerbsEndpoint ep) {
        recovery.recover(ep);
    }

    /** True while {@code ep} waits for its queue pair to drain. */
    public boolean draining(VerbsEndpoint ep) {
        return ep.draining;
    }

    /** True from {@link #recover} until the connection is {@link #ready} again. */
    public boolean recovering(VerbsEndpoint ep) {
        return ep.recovering;
    }

    /**
     * Sets what happens once a recovering endpoint's queue pair has drained: the transport resets
     * it, brings it to INIT, calls {@link #reopen}, and connects it again.
     */
    public void onDrained(Consumer<VerbsEndpoint> listener) {
        recovery.drained = listener;
    }

    /**
     * Gives {@code ep}, whose connection is not up (never yet, or recovering after its drain), the
     * queue pair {@code qp} (at INIT) in place of its current one: a queue pair that was connected,
     * or whose connection attempt failed, cannot be connected again on Soft-iWARP (EINVAL), so the
     * RDMA CM makes each attempt with a fresh one. The old queue pair goes to error and stays
     * open, unmapped, until the engine closes (its flushed receives still name its number, which
     * a destroyed queue pair's successor could be given); the per-connection receive buffers are
     * posted on the new one.
     */
    public void replaceQueuePair(VerbsEndpoint ep, QueuePair qp) {
        if (!ep.connecting && !ep.recovering) {
            throw new IllegalStateException("rank " + ep.peer + ": the queue pair of a connection that is up"
                    + " is not replaced");
        }
        QueuePair old = ep.qp;
        for (int i = 0; i < qpnCount; i++) {
            if (qpnKeys[i] == old.qpNum() && qpnPeers[i] == ep.peer) {
                qpnKeys[i] = qp.qpNum();
            }
        }
        try {
            old.toError();
        } catch (RuntimeException e) {
            LOG.debug("rank {}: the replaced queue pair {} to rank {} did not go to error: {}", rank,
                    old.qpNum(), ep.peer, e.toString());
        }
        ep.qp = qp;
        ep.remoteQpn = 0;
        if (srq == null) {
            ep.receivesPosted = options.srBuffers() - receiveBuffers.postAll(ep.slab, null, qp);
        }
    }

    /** {@code ep}'s queue pair is at INIT again: posts its per-connection receive buffers anew. */
    public void reopen(VerbsEndpoint ep) {
        if (srq == null) {
            ep.receivesPosted = options.srBuffers() - receiveBuffers.postAll(ep.slab, null, ep.qp);
        }
    }

    /** The connection to {@code peer} could not be set up: the peer is reported failed. */
    public void connectionFailed(int peer, String reason) {
        VerbsEndpoint ep = endpoints[peer];
        if (ep == null || ep.failed) {
            return;
        }
        failWith(ep, reason);
    }

    // ------------------------------------------------------------------ registration

    /**
     * Registers native memory through the cache (see {@link Registrations}) with the
     * {@link Access} rights in {@code access}.
     */
    public MemoryRegistration register(MemorySegment segment, int access) {
        return registrations.register(segment, access);
    }

    /** The {@code IBV_ACCESS_*} flags of {@link Access} rights on this device. */
    public int ibvAccess(int access) {
        return Registrations.ibvAccess(access, atomics);
    }

    int lkeyOrMinusOne(MemorySegment local, int needed) {
        return registrations.lkey(local.address(), local.byteSize(), needed);
    }

    int lkeyOrMinusOne(long address, long length, int needed) {
        return registrations.lkey(address, length, needed);
    }

    /** Registration cache counters: hits, misses, evictions, invalidations, pinned bytes. */
    public long[] registrationCacheCounters() {
        return registrations.counters();
    }

    // ------------------------------------------------------------------ state

    /** The capability record of the data path. */
    public Capabilities capabilities() {
        return capabilities;
    }

    /** The profiler counters. */
    public VerbsCounters counters() {
        return counters;
    }

    /** The settings in force. */
    public VerbsOptions options() {
        return options;
    }

    // ------------------------------------------------------------------ progress

    /**
     * Polls the completion queues and fast-path rings, delivers what arrived, sends owed control
     * messages and reposts receive buffers. Returns the work done.
     */
    public int progress() {
        int work = 0;
        if (late.pending()) {
            work += late.deliver();
        }
        if (recovery.drainingCount > 0) {
            work += recovery.drain(endpoints);
        }
        int calls = ++progressCalls;
        if (receives.due(calls)) {
            work += receives.poll();
        }
        if (signalledOutstanding > 0 || recovery.drainingCount > 0 || calls % SEND_CQ_IDLE_POLL == 0) {
            work += pollSends();
        }
        FastPathRing[] r = control.rings;
        int[] ringPeers = control.ringPeers;
        for (int i = 0; i < r.length; i++) {
            int n = r[i].poll(ringPeers[i], handler);
            if (n > 0) {
                int granted = r[i].takeGranted();
                if (granted > 0) {
                    endpoints[ringPeers[i]].ringCredit(granted);
                }
                work += n;
                counters.messagesReceived += n;
                counters.fastPathMessagesReceived += n;
                if (r[i].credits.returnDue()) {
                    control.returnRingCredits(endpoints[ringPeers[i]]);
                }
            }
        }
        if (control.pending) {
            control.pending = false;
            for (VerbsEndpoint ep : endpoints) {
                if (ep != null) {
                    control.flush(ep);
                }
            }
        }
        receives.repostIfDue(work);
        return work;
    }

    private int pollSends() {
        int n = sendCq.poll(sendWc);
        if (n <= 0) {
            return 0;
        }
        signalledOutstanding = Math.max(0, signalledOutstanding - n);
        int work = 0;
        for (int i = 0; i < n; i++) {
            int peer = peerOf(sendWc.qpNum(i));
            if (peer < 0) {
                continue;
            }
            VerbsEndpoint ep = endpoints[peer];
            int status = sendWc.status(i);
            if (status != IBV_WC_SUCCESS) {
                work += recovery.failedSend(ep, sendWc.wrId(i), status);
                continue;
            }
            work += ep.completed(sendWc.wrId(i));
        }
        return work;
    }

    int peerOf(int qpn) {
        for (int i = 0, n = qpnCount; i < n; i++) {
            if (qpnKeys[i] == qpn) {
                return qpnPeers[i];
            }
        }
        return -1;
    }

    /** Completes {@code wrId} with {@code status} at the next progress, without the device. */
    void completeLater(long wrId, int status) {
        late.add(wrId, status);
    }

    int postFailed(VerbsEndpoint ep, int errno) {
        if (errno != 12) { // ENOMEM: queue full, retry later
            LOG.debug("verbs: post to rank {} failed, errno {}", ep.peer, errno);
        }
        counters.retries++;
        return PostStatus.RETRY;
    }

    void fail(VerbsEndpoint ep, String what, int status) {
        failWith(ep, "ib: " + what + " work request to rank " + ep.peer + " failed with "
                + "status " + status + " (" + CompletionStatuses.describe(status) + ") on " + where);
    }

    void failWith(VerbsEndpoint ep, String reason) {
        if (ep.failed) {
            return;
        }
        ep.failed = true;
        ep.blocked = true;
        if (ep.draining) {
            ep.draining = false;
            recovery.drainingCount--;
        }
        ReplayLog replays = ep.requests.replays;
        while (replays.pending() > 0) {
            if (replays.hold() != null) {
                replays.hold().close();
            }
            handler.onComplete(replays.userId(), CompletionStatus.PEER_GONE);
            replays.pop();
        }
        handler.onPeerFailure(ep.peer, reason);
    }

    /** Called by the async-event thread: the SRQ ran low while this process was not keeping up. */
    private void onSrqLimit() {
        counters.srqLimitEvents++;
        int total = receiveBuffers.total();
        int add = Math.min(options.srqSize(), options.srqMax() - total);
        if (add > 0) {
            int slab = receiveBuffers.addSlab(add, -1);
            receiveBuffers.postAll(slab, srq, null);
            synchronized (counters) {
                counters.allocated((long) add * receiveBuffers.bufferSize());
            }
            counters.srqBuffers = total + add;
        }
        if (total + add < options.srqMax()) {
            srq.armLimit(options.srqLowWatermark());
        }
    }

    /** Sets what happens on the first message from a peer whose connection is still being set up. */
    public void onFirstTraffic(Consumer<VerbsEndpoint> listener) {
        this.firstTraffic = listener;
    }

    /**
     * Sets what happens when a hidden first message ({@link #sendFirstMessage}) arrives, after
     * {@link #onFirstTraffic}'s listener if it was the connection's first traffic.
     */
    public void onFirstMessage(Consumer<VerbsEndpoint> listener) {
        this.firstMessage = listener;
    }

    /**
     * Stops the async-event thread, unpins every registration and closes the device and the
     * engine's memory. If the thread does not stop, the device is left open (closing it under a
     * thread inside a verbs call would crash the process).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (asyncEvents != null && !asyncEvents.stop()) {
            LOG.warn("verbs: the async-event thread of {} did not stop; leaving the device open", where);
            return;
        }
        try {
            registrations.clear();
        } catch (RuntimeException e) {
            LOG.debug("verbs: releasing registrations: {}", e.toString());
        }
        context.close();
        arena.close();
    }


    /** The profiler counters (verbatim.core.profile), combined over the ranks at finalize. */
    public List<ProfileCounter> profileCounters() {
        return counters.profileCounters(registrations);
    }

    /** The counters in one line (tests and logs), as {@code [verbatim <name>] rank ...}. */
    public String profileLine(String name) {
        return counters.line(name, rank, where, options.channel(), registrations);
    }
}
