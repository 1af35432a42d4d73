package org.verbatim.transport.ib;

import static org.verbatim.verbs.raw.verbs_h_constants.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.OperationLimits;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.ProfileCounter;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.verbs.CompletionQueue;
import org.verbatim.verbs.ConnectionParameters;
import org.verbatim.verbs.MemoryRegion;
import org.verbatim.verbs.ProtectionDomain;
import org.verbatim.verbs.QueuePair;
import org.verbatim.verbs.QueuePairConfig;
import org.verbatim.verbs.QueuePairType;
import org.verbatim.verbs.SharedReceiveQueue;
import org.verbatim.verbs.WorkCompletions;
import org.verbatim.verbs.raw.ibv_device_attr;

/**
 * MPI's InfiniBand / RoCE transport: one RC queue pair per peer that talks, eager messages over a
 * shared receive queue or per-connection buffers plus the adaptive RDMA fast path, RDMA read,
 * write and write-with-immediate, and a registration cache. See docs/transport-ib.md.
 *
 * <p>Connection set-up is on demand ({@link ConnectionManager}): at open every rank publishes
 * the address of one UD queue pair through the bootstrap; the first {@code endpoint(peer)}
 * creates the RC queue pair and exchanges QP number, PSN and port address with the peer over UD.
 * Eager buffers, the costly part, are on demand too (SRQ growth, fast path after N messages).
 */
public final class IbTransport implements Transport {
    private static final Logger LOG = LoggerFactory.getLogger(IbTransport.class);

    static final int CTRL_SHIFT = 28;
    static final int CTRL_CREDIT_SR = 1;
    static final int CTRL_CREDIT_RING = 2;
    static final int CTRL_RING_OFFER = 3;
    static final int CTRL_RING_START = 4;
    private static final int POLL_BATCH = 32;

    final IbConfiguration config;
    final CompletionHandler handler;
    final IbCounters counters = new IbCounters();
    final int maxInline;
    final MemorySegment inlineScratch;
    SendBuffers sendBuffers;

    private final int rank;
    private final int size;
    private final Arena arena = Arena.ofShared();
    private final PortSelection.Selected port;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final SharedReceiveQueue srq;
    private final ReceiveBuffers receiveBuffers;
    private final IbEndpoint[] endpoints;
    private final int[] qpnKeys;
    private final int[] qpnPeers;
    private int qpnCount;
    private final int depth;
    private final int qpInline;
    private final ConnectionManager connections;
    private int progressCalls;
    /** Receive-CQ polls in a row that found nothing (see {@link #receivesDue}). */
    private int emptyReceivePolls;
    /**
     * Signalled send work requests posted and not yet seen complete: while there are none the
     * send CQ has nothing to report but errors of flushed requests, so it is polled only every
     * {@link #SEND_CQ_IDLE_POLL} passes (a CQ poll is a downcall; two per pass were most of an
     * idle pass).
     */
    int signalledOutstanding;
    private static final int SEND_CQ_IDLE_POLL = 64;
    /**
     * SRQ buffers whose message has been delivered, to be posted again when a pass finds
     * nothing else to do (or once {@link #repostBatch} are waiting): reposting each buffer
     * before returning put a downcall between a message's arrival and the caller seeing it.
     */
    private final long[] reposts;
    private int repostCount;
    private final int repostBatch;
    private final WorkCompletions sendWc;
    private final WorkCompletions recvWc;
    private final RegistrationCache registrations;
    private final Capabilities capabilities;
    private final MemorySegment offerScratch;
    private final AsyncEvents asyncEvents;
    private FastPathRing[] rings = new FastPathRing[0];
    private int[] ringPeers = new int[0];
    private boolean controlsPending;
    private boolean closed;

    private IbTransport(TransportContext ctx, IbConfiguration config, PortSelection.Selected port) {
        this.config = config;
        this.handler = ctx.handler();
        this.rank = ctx.rank();
        this.size = ctx.size();
        this.port = port;
        var context = port.context();
        MemorySegment attr = context.queryDevice(arena);
        int maxQpWr = ibv_device_attr.max_qp_wr(attr);
        int maxSge = ibv_device_attr.max_sge(attr);
        int maxSrqWr = ibv_device_attr.max_srq_wr(attr);
        int maxCqe = ibv_device_attr.max_cqe(attr);
        this.pd = context.allocateProtectionDomain();
        this.depth = Math.min(config.sendQueueDepth, Integer.highestOneBit(Math.max(8, maxQpWr)));
        int peers = Math.max(1, size - 1);
        int recvEntries = config.channel.sharedReceiveQueue() ? config.srqMax : config.srBuffers * peers;
        this.repostBatch = Math.max(1, Math.min(8, config.srqSize / 4));
        this.reposts = new long[repostBatch];
        this.sendCq = context.createCompletionQueue(Math.min(maxCqe, depth * peers + 16), null);
        this.recvCq = context.createCompletionQueue(Math.min(maxCqe, recvEntries + 16), null);
        int bufferSize = config.eagerSize;
        this.receiveBuffers = new ReceiveBuffers(pd, arena, bufferSize);
        if (config.channel.sharedReceiveQueue()) {
            this.srq = pd.createSharedReceiveQueue(Math.min(config.srqMax, maxSrqWr), 1);
        } else {
            this.srq = null;
        }
        this.endpoints = new IbEndpoint[size];
        this.qpnKeys = new int[size];
        this.qpnPeers = new int[size];
        // One probe queue pair learns the inline size the device grants; connections come later.
        QueuePair probe = createQueuePair(depth, config.srBuffers, config.maxInline);
        this.qpInline = probe.maxInline();
        probe.close();
        this.maxInline = Math.min(qpInline, config.maxInline);
        this.inlineScratch = arena.allocate(Math.max(64, maxInline + FastPathDescriptor.FOOTER), 64);
        this.offerScratch = arena.allocate(64, 64);
        this.sendBuffers = new SendBuffers(pd, arena, config.sendBuffers,
                FastPathDescriptor.slotSize(config.eagerSize));
        counters.allocated(sendBuffers.bytes());
        if (srq != null) {
            int slab = receiveBuffers.addSlab(config.srqSize, -1);
            receiveBuffers.postAll(slab, srq, null);
            counters.allocated((long) config.srqSize * bufferSize);
            counters.srqBuffers = config.srqSize;
            srq.armLimit(config.srqLowWatermark);
        }
        this.sendWc = new WorkCompletions(arena, POLL_BATCH);
        this.recvWc = new WorkCompletions(arena, POLL_BATCH);
        this.registrations = new RegistrationCache(this::pin, config.regCacheSize);
        EnumSet<Capability> flags = EnumSet.of(Capability.SEND_RECV, Capability.RDMA_WRITE, Capability.RDMA_READ,
                Capability.WRITE_WITH_IMMEDIATE, Capability.IN_ORDER_PLACEMENT);
        if (srq != null) {
            flags.add(Capability.SHARED_RECEIVE_QUEUE);
        }
        long maxMsg = 1L << 30;
        this.capabilities = new Capabilities(flags,
                new OperationLimits(maxInline, config.eagerSize, 0, 2),
                new OperationLimits(maxInline, 0, maxMsg, 1), new OperationLimits(0, 0, maxMsg, 1),
                java.util.EnumSet.noneOf(org.verbatim.spi.AtomicOp.class), 1, 0);
        this.connections = new ConnectionManager(this, port, pd, arena, rank, size, config);
        this.asyncEvents = srq == null ? null : new AsyncEvents(context, this::onSrqLimit,
                "verbatim-ib-async-" + rank);
    }

    private QueuePair createQueuePair(int depth, int recvDepth, int requestedInline) {
        int inline = requestedInline;
        while (true) {
            try {
                return pd.createQueuePair(new QueuePairConfig(QueuePairType.RC, sendCq, recvCq, srq, depth,
                        recvDepth, 1, inline));
            } catch (RuntimeException e) {
                if (inline == 0) {
                    throw e;
                }
                inline /= 2;
            }
        }
    }

    /** Opens the transport on every rank (collective through the bootstrap). */
    static IbTransport open(TransportContext ctx, IbConfiguration config) throws TransportException {
        PortSelection.Selected port = PortSelection.open(config);
        IbTransport t;
        try {
            t = new IbTransport(ctx, config, port);
        } catch (RuntimeException e) {
            port.context().close();
            throw new TransportException("ib: setting up " + port.describe() + ": " + e.getMessage(), e);
        }
        try {
            t.connect(ctx);
        } catch (RuntimeException e) {
            t.close();
            throw new TransportException("ib: connecting queue pairs on " + port.describe() + ": "
                    + e.getMessage(), e);
        }
        LOG.debug("rank {}: ib on {}, {}, inline {}", ctx.rank(), port.describe(), config, t.maxInline);
        return t;
    }

    /** Publishes this rank's UD address; queue pairs connect later, on first use. */
    private void connect(TransportContext ctx) {
        connections.publish(ctx.bootstrap());
        ctx.bootstrap().barrier();
    }

    // ------------------------------------------------------------------ connections

    IbEndpoint endpointOrNull(int peer) {
        return endpoints[peer];
    }

    /** The endpoint for {@code peer}, creating its RC queue pair (INIT) if there is none yet. */
    IbEndpoint endpointOrCreate(int peer) {
        IbEndpoint ep = endpoints[peer];
        if (ep != null) {
            return ep;
        }
        QueuePair qp = createQueuePair(depth, config.srBuffers, qpInline);
        qp.toInit(port.port(), IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ, 0);
        ep = new IbEndpoint(this, peer, qp, arena, depth);
        if (srq == null) {
            int slab = receiveBuffers.addSlab(config.srBuffers, peer);
            receiveBuffers.postAll(slab, null, qp);
            counters.allocated((long) config.srBuffers * receiveBuffers.bufferSize());
        }
        qpnKeys[qpnCount] = qp.qpNum();
        qpnPeers[qpnCount++] = peer;
        counters.queuePairs++;
        endpoints[peer] = ep;
        return ep;
    }

    /** Moves {@code ep}'s queue pair to RTR and RTS towards the peer's queue pair {@code remoteQpn}. */
    void establish(IbEndpoint ep, int remoteQpn, int remotePsn, int lid, byte[] gid, int mtu, int localPsn) {
        int pathMtu = Math.min(mtu, port.attributes().activeMtu());
        int gidIndex = port.roce() || gid != null && lid == 0 ? port.gidIndex() : -1;
        var params = new ConnectionParameters(port.port(), pathMtu, remoteQpn, lid, gidIndex >= 0 ? gid : null,
                gidIndex, remotePsn, localPsn);
        ep.qp.toRtr(params);
        ep.qp.toRts(params);
        ep.remoteQpn = remoteQpn;
    }

    /** Both sides of {@code ep}'s connection can receive: posts may go out. */
    void ready(IbEndpoint ep) {
        ep.connecting = false;
        ep.blocked = ep.failed;
        LOG.debug("rank {}: connected to rank {} (QP {} -> {})", rank, ep.peer, ep.qp.qpNum(), ep.remoteQpn);
    }

    void connectionFailed(int peer, String reason) {
        IbEndpoint ep = endpoints[peer];
        if (ep == null || ep.failed) {
            return;
        }
        ep.failed = true;
        ep.blocked = true;
        handler.onPeerFailure(peer, reason);
    }

    /** The connection manager (tests). */
    ConnectionManager connections() {
        return connections;
    }

    // ------------------------------------------------------------------ SPI

    @Override
    public String name() {
        return IbTransportProvider.NAME;
    }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    @Override
    public boolean reaches(int peer) {
        return peer != rank && peer >= 0 && peer < size;
    }

    @Override
    public Endpoint endpoint(int peer) {
        if (!reaches(peer)) {
            throw new IllegalArgumentException("ib does not reach rank " + peer);
        }
        IbEndpoint ep = endpoints[peer];
        if (ep == null) {
            ep = endpointOrCreate(peer);
            connections.connect(ep);
        }
        return ep;
    }

    @Override
    public MemoryRegistration register(MemorySegment segment, int access) {
        return registrations.register(segment);
    }

    private RegistrationCache.Pinned pin(MemorySegment segment) {
        MemoryRegion mr = pd.register(segment, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE
                | IBV_ACCESS_REMOTE_READ);
        return new RegistrationCache.Pinned() {
            @Override
            public int lkey() {
                return mr.lkey();
            }

            @Override
            public int rkey() {
                return mr.rkey();
            }

            @Override
            public void unpin() {
                mr.close();
            }
        };
    }

    int lkeyOrMinusOne(MemorySegment local) {
        return registrations.lkey(local.address(), local.byteSize());
    }

    /** Registration cache counters: hits, misses, evictions, invalidations, pinned bytes. */
    public long[] registrationCacheCounters() {
        return new long[] {registrations.hits(), registrations.misses(), registrations.evictions(),
                registrations.invalidations(), registrations.pinnedBytes()};
    }

    /** The profiler counters of this transport. */
    public IbCounters counters() {
        return counters;
    }

    /** The device and port in use, in words. */
    public String describePort() {
        return port.describe();
    }

    // ------------------------------------------------------------------ progress

    @Override
    public int progress() {
        int work = 0;
        int calls = ++progressCalls;
        if (connections.busy() || (calls & 15) == 0) {
            work += connections.poll();
        }
        if (receivesDue(calls)) {
            int n = pollReceives();
            emptyReceivePolls = n > 0 ? 0 : Math.min(emptyReceivePolls + 1, QUIET_RECEIVE_POLLS);
            work += n;
        }
        if (signalledOutstanding > 0 || calls % SEND_CQ_IDLE_POLL == 0) {
            work += pollSends();
        }
        FastPathRing[] r = rings;
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
                    returnRingCredits(endpoints[ringPeers[i]]);
                }
            }
        }
        if (controlsPending) {
            controlsPending = false;
            for (IbEndpoint ep : endpoints) {
                if (ep != null) {
                    flushControls(ep);
                }
            }
        }
        if (repostCount > 0 && (work == 0 || repostCount >= repostBatch)) {
            flushReposts();
        }
        return work;
    }

    /**
     * Whether this pass polls the receive CQ. Every pass, except while fast-path rings are being
     * polled and the CQ has stayed empty for {@link #QUIET_RECEIVE_POLLS} polls: then one pass in
     * {@code recv-poll-interval}, so a fast-path ping-pong spends its passes on the rings' footers
     * instead of on a verbs call that finds nothing (MVAPICH polls its RDMA buffers first, too).
     * A receive on the CQ restores every pass.
     */
    private boolean receivesDue(int calls) {
        return rings.length == 0 || emptyReceivePolls < QUIET_RECEIVE_POLLS
                || calls % config.recvPollInterval == 0;
    }

    private static final int QUIET_RECEIVE_POLLS = 64;

    private void flushReposts() {
        for (int i = 0; i < repostCount; i++) {
            receiveBuffers.post(reposts[i], srq, null);
        }
        repostCount = 0;
    }

    private int pollReceives() {
        int n = recvCq.poll(recvWc);
        if (n <= 0) {
            return 0;
        }
        for (int i = 0; i < n; i++) {
            long id = recvWc.wrId(i);
            int peer = peerOf(recvWc.qpNum(i));
            int status = recvWc.status(i);
            IbEndpoint ep = peer < 0 ? null : endpoints[peer];
            if (status != IBV_WC_SUCCESS) {
                if (ep != null && !closed) {
                    fail(ep, "receive", status);
                }
                continue;
            }
            if (ep.connecting) {
                connections.trafficFrom(ep);
            }
            boolean data = false;
            if (recvWc.opcode(i) == IBV_WC_RECV_RDMA_WITH_IMM) {
                handler.onImmediate(peer, recvWc.immediate(i));
                data = true;
            } else if ((recvWc.flags(i) & IBV_WC_WITH_IMM) != 0) {
                control(ep, recvWc.immediate(i), receiveBuffers.slab(id), receiveBuffers.offset(id));
            } else {
                counters.messagesReceived++;
                handler.onReceive(peer, receiveBuffers.slab(id), receiveBuffers.offset(id), recvWc.byteLength(i));
                data = true;
                ep.messagesIn++;
                if (config.channel.fastPath() && ep.inbound == null && ep.messagesIn >= config.fastPathThreshold
                        && counters.fastPathPeers < config.fastPathPeers) {
                    offerRing(ep);
                }
            }
            if (srq != null && repostCount < reposts.length) {
                reposts[repostCount++] = id;
            } else {
                receiveBuffers.post(id, srq, ep.qp);
            }
            if (data && ep.sr != null) {
                ep.sr.consumed();
                if (ep.sr.returnDue()) {
                    flushControls(ep);
                }
            }
        }
        return n;
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
            IbEndpoint ep = endpoints[peer];
            int status = sendWc.status(i);
            if (status != IBV_WC_SUCCESS) {
                fail(ep, "send", status);
                continue;
            }
            work += ep.completed(sendWc.wrId(i));
        }
        return work;
    }

    private int peerOf(int qpn) {
        for (int i = 0, n = qpnCount; i < n; i++) {
            if (qpnKeys[i] == qpn) {
                return qpnPeers[i];
            }
        }
        return -1;
    }

    private void control(IbEndpoint ep, int immediate, MemorySegment buffer, long offset) {
        int type = immediate >>> CTRL_SHIFT;
        int value = immediate & ((1 << CTRL_SHIFT) - 1);
        switch (type) {
            case CTRL_CREDIT_SR -> ep.sr.grant(value);
            case CTRL_CREDIT_RING -> ep.ringCredit(value);
            case CTRL_RING_OFFER -> ep.decodeOffer(buffer, offset);
            case CTRL_RING_START -> {
                ep.inboundStarted = true;
                addRing(ep);
            }
            default -> LOG.warn("ib: unknown control message {} from rank {}", type, ep.peer);
        }
    }

    /** Offers {@code ep}'s peer a dedicated RDMA ring (receiver-driven adaptive fast path). */
    private void offerRing(IbEndpoint ep) {
        ep.inbound = new FastPathRing(pd, arena, config.fastPathSlots, config.eagerSize);
        counters.fastPathPeers++;
        counters.allocated(ep.inbound.bytes());
        ep.offerPending = true;
        flushControls(ep);
    }

    private void addRing(IbEndpoint ep) {
        int n = rings.length;
        FastPathRing[] r = java.util.Arrays.copyOf(rings, n + 1);
        int[] p = java.util.Arrays.copyOf(ringPeers, n + 1);
        r[n] = ep.inbound;
        p[n] = ep.peer;
        ringPeers = p;
        rings = r;
    }

    private void returnRingCredits(IbEndpoint ep) {
        int n = ep.inbound.credits.pendingReturn();
        if (n > 0 && ep.sendControl(CTRL_CREDIT_RING, n, null) == PostStatus.OK) {
            ep.inbound.credits.takeReturn();
            counters.creditMessages++;
        } else if (n > 0) {
            controlsPending = true;
        }
    }

    /** Sends what control messages {@code ep} owes its peer (offer, credit returns), as far as it can. */
    void flushControls(IbEndpoint ep) {
        if (ep.offerPending) {
            IbEndpoint.encodeOffer(offerScratch, ep.inbound);
            if (ep.sendControl(CTRL_RING_OFFER, 0, offerScratch.asSlice(0, IbEndpoint.OFFER_LENGTH))
                    == PostStatus.OK) {
                ep.offerPending = false;
            } else {
                controlsPending = true;
            }
        }
        if (ep.sr != null && ep.sr.pendingReturn() > 0 && ep.sr.returnDue()) {
            if (ep.sendControl(CTRL_CREDIT_SR, ep.sr.pendingReturn(), null) == PostStatus.OK) {
                ep.sr.takeReturn();
                counters.creditMessages++;
            } else {
                controlsPending = true;
            }
        }
        if (ep.inbound != null && ep.inbound.credits.returnDue()) {
            returnRingCredits(ep);
        }
    }

    int postFailed(IbEndpoint ep, int errno) {
        if (errno != 12) { // ENOMEM: queue full, retry later
            LOG.debug("ib: post to rank {} failed, errno {}", ep.peer, errno);
        }
        counters.retries++;
        return PostStatus.RETRY;
    }

    private void fail(IbEndpoint ep, String what, int status) {
        if (ep.failed) {
            return;
        }
        ep.failed = true;
        ep.blocked = true;
        handler.onPeerFailure(ep.peer, "ib: " + what + " work request to rank " + ep.peer + " failed with "
                + "status " + status + " (" + statusName(status) + ") on " + port.describe());
    }

    private static String statusName(int status) {
        return switch (status) {
            case 4 -> "local protection error";
            case 5 -> "flushed: queue pair in error";
            case 9 -> "remote invalid request";
            case 10 -> "remote access error";
            case 12 -> "transport retry counter exceeded: peer unreachable or gone";
            case 13 -> "RNR retry counter exceeded";
            default -> "ibv_wc_status " + status;
        };
    }

    /** Called by the async-event thread: the SRQ ran low while this process was not keeping up. */
    private void onSrqLimit() {
        counters.srqLimitEvents++;
        int total = receiveBuffers.total();
        int add = Math.min(config.srqSize, config.srqMax - total);
        if (add > 0) {
            int slab = receiveBuffers.addSlab(add, -1);
            receiveBuffers.postAll(slab, srq, null);
            synchronized (counters) {
                counters.allocated((long) add * receiveBuffers.bufferSize());
            }
            counters.srqBuffers = total + add;
        }
        if (total + add < config.srqMax) {
            srq.armLimit(config.srqLowWatermark);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (asyncEvents != null && !asyncEvents.stop()) {
            LOG.warn("ib: the async-event thread of {} did not stop; leaving the device open",
                    port.describe());
            return;
        }
        try {
            registrations.clear();
        } catch (RuntimeException e) {
            LOG.debug("ib: releasing registrations: {}", e.toString());
        }
        port.context().close();
        arena.close();
    }

    /** The profiler counters (verbatim.core.profile), combined over the ranks at finalize. */
    @Override
    public List<ProfileCounter> profileCounters() {
        return List.of(
                ProfileCounter.sumAndMax("communication memory", "KiB", counters.communicationMemory >> 10),
                ProfileCounter.sumAndMax("peak communication memory", "KiB", counters.peakCommunicationMemory >> 10),
                ProfileCounter.sumAndMax("queue pairs", "", counters.queuePairs),
                ProfileCounter.sum("connection requests", counters.connectRequests),
                ProfileCounter.sum("connection resends", counters.connectResends),
                ProfileCounter.sumAndMax("fast-path peers", "", counters.fastPathPeers),
                ProfileCounter.sum("SRQ low-watermark events", counters.srqLimitEvents),
                ProfileCounter.max("SRQ buffers", counters.srqBuffers),
                ProfileCounter.sum("sent", counters.messagesSent),
                ProfileCounter.sum("received", counters.messagesReceived),
                ProfileCounter.sum("received on the fast path", counters.fastPathMessagesReceived),
                ProfileCounter.sum("retries", counters.retries),
                ProfileCounter.sum("registration cache hits", registrations.hits()),
                ProfileCounter.sum("misses", registrations.misses()),
                ProfileCounter.sum("evictions", registrations.evictions()),
                ProfileCounter.sum("invalidations", registrations.invalidations()));
    }

    /** The counters in one line (tests and logs). */
    public String profileLine() {
        return String.format("[verbatim ib] rank %d on %s: channel %s, communication memory %d KiB (peak %d KiB),"
                        + " queue pairs %d (connection requests %d, resends %d), fast-path peers %d, SRQ low-watermark events %d, SRQ buffers %d, sent %d,"
                        + " received %d (fast path %d), credit messages %d, retries %d, registration cache hits %d misses %d"
                        + " evictions %d invalidations %d",
                rank, port.describe(), config.channel.configName(), counters.communicationMemory >> 10,
                counters.peakCommunicationMemory >> 10, counters.queuePairs, counters.connectRequests,
                counters.connectResends, counters.fastPathPeers, counters.srqLimitEvents,
                counters.srqBuffers, counters.messagesSent, counters.messagesReceived,
                counters.fastPathMessagesReceived, counters.creditMessages, counters.retries, registrations.hits(),
                registrations.misses(),
                registrations.evictions(), registrations.invalidations());
    }

    @Override
    public String toString() {
        return "ib[rank " + rank + ", " + port.describe() + ", " + config.channel.configName() + "]";
    }
}
