package org.verbatim.transport.ib;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.ProfileCounter;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.transport.verbs.DeviceLimits;
import org.verbatim.transport.verbs.VerbsCounters;
import org.verbatim.transport.verbs.VerbsEndpoint;
import org.verbatim.transport.verbs.VerbsEngine;
import org.verbatim.verbs.ConnectionParameters;
import org.verbatim.verbs.QueuePair;

/**
 * MPI's InfiniBand / RoCE transport: one RC queue pair per peer that talks, on the shared verbs
 * data path ({@link VerbsEngine}: eager messages over a shared receive queue or per-connection
 * buffers plus the adaptive RDMA fast path, RDMA read, write and write-with-immediate, the
 * registration cache). This class adds what is particular to InfiniBand and RoCE: the device and
 * port ({@link PortSelection}) and on-demand connections over UD ({@link ConnectionManager}).
 * See docs/transport-ib.md.
 *
 * <p>Connection set-up is on demand: at open every rank publishes the address of one UD queue
 * pair through the bootstrap; the first {@code endpoint(peer)} creates the RC queue pair and
 * exchanges QP number, PSN and port address with the peer over UD. Eager buffers, the costly
 * part, are on demand too (SRQ growth, fast path after N messages).
 */
public final class IbTransport implements Transport {
    private static final Logger LOG = LoggerFactory.getLogger(IbTransport.class);

    private final int rank;
    private final int size;
    private final PortSelection.Selected port;
    private final IbConfiguration config;
    private final VerbsEngine engine;
    private final ConnectionManager connections;
    private int progressCalls;

    private IbTransport(TransportContext ctx, IbConfiguration config, PortSelection.Selected port) {
        this.rank = ctx.rank();
        this.size = ctx.size();
        this.port = port;
        this.config = config;
        var context = port.context();
        // InfiniBand and RoCE place an RDMA write's bytes in order: the fast path may poll footers.
        this.engine = new VerbsEngine(context, DeviceLimits.query(context), config.verbs, ctx.handler(), rank,
                size, true, port.describe());
        this.connections = new ConnectionManager(this, port, engine.protectionDomain(), engine.arena(), rank,
                size, config);
        engine.onFirstTraffic(connections::trafficFrom);
        engine.onDrained(connections::drained);
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
            t.connections.publish(ctx.bootstrap());
            ctx.bootstrap().barrier();
        } catch (RuntimeException e) {
            t.close();
            throw new TransportException("ib: connecting queue pairs on " + port.describe() + ": "
                    + e.getMessage(), e);
        }
        LOG.debug("rank {}: ib on {}, {}, inline {}", ctx.rank(), port.describe(), config,
                t.capabilities().maxInline());
        return t;
    }

    // ------------------------------------------------------------------ connections

    VerbsEndpoint endpointOrNull(int peer) {
        return engine.endpoint(peer);
    }

    /** The endpoint for {@code peer}, creating its RC queue pair (INIT) if there is none yet. */
    VerbsEndpoint endpointOrCreate(int peer) {
        VerbsEndpoint ep = engine.endpoint(peer);
        if (ep != null) {
            return ep;
        }
        QueuePair qp = engine.createQueuePair();
        qp.toInit(port.port(), engine.queuePairAccess(), 0);
        return engine.addEndpoint(peer, qp);
    }

    /** RESET to INIT again, for a queue pair re-established after an error. */
    void toInit(VerbsEndpoint ep) {
        ep.queuePair().toInit(port.port(), engine.queuePairAccess(), 0);
    }

    /** The data path (the connection manager's view of endpoint recovery). */
    VerbsEngine engine() {
        return engine;
    }

    /**
     * Moves {@code ep}'s queue pair to RTR and RTS towards the peer's queue pair {@code remoteQpn},
     * with as many RDMA reads and atomics outstanding as both devices allow ({@code peerReadsIn}:
     * what the peer serves).
     */
    void establish(VerbsEndpoint ep, int remoteQpn, int remotePsn, int lid, byte[] gid, int mtu, int localPsn,
                   int peerReadsIn) {
        int pathMtu = Math.min(mtu, port.attributes().activeMtu());
        int gidIndex = port.roce() || gid != null && lid == 0 ? port.gidIndex() : -1;
        var params = new ConnectionParameters(port.port(), pathMtu, remoteQpn, lid, gidIndex >= 0 ? gid : null,
                gidIndex, remotePsn, localPsn, engine.readsOut(peerReadsIn), engine.readsIn());
        ep.queuePair().toRtr(params);
        ep.queuePair().toRts(params);
        ep.remoteQpn(remoteQpn);
    }

    /** RDMA reads and atomics this side's queue pairs serve at once (told to peers). */
    int readsIn() {
        return engine.readsIn();
    }

    /** Both sides of {@code ep}'s connection can receive: posts may go out. */
    void ready(VerbsEndpoint ep) {
        engine.ready(ep);
    }

    void connectionFailed(int peer, String reason) {
        engine.connectionFailed(peer, reason);
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
        return engine.capabilities();
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
        VerbsEndpoint ep = engine.endpoint(peer);
        if (ep == null) {
            ep = endpointOrCreate(peer);
            connections.connect(ep);
        }
        return ep;
    }

    @Override
    public MemoryRegistration register(MemorySegment segment, int access) {
        return engine.register(segment, access);
    }

    /**
     * Polls the connection datagrams (every pass while a connection is being set up, else one in
     * 16: a request from a new peer waits at most that long), then the data path.
     */
    @Override
    public int progress() {
        int work = 0;
        if (connections.busy() || (++progressCalls & 15) == 0) {
            work += connections.poll();
        }
        return work + engine.progress();
    }

    /** Registration cache counters: hits, misses, evictions, invalidations, pinned bytes. */
    public long[] registrationCacheCounters() {
        return engine.registrationCacheCounters();
    }

    /** The profiler counters of this transport. */
    public VerbsCounters counters() {
        return engine.counters();
    }

    /** The device and port in use, in words. */
    public String describePort() {
        return port.describe();
    }

    @Override
    public void close() {
        engine.close();
    }

    /** The profiler counters (verbatim.core.profile), combined over the ranks at finalize. */
    @Override
    public long communicationMemory() {
        return engine.counters().communicationMemory();
    }

    @Override
    public List<ProfileCounter> profileCounters() {
        return engine.profileCounters();
    }

    /** The counters in one line (tests and logs). */
    public String profileLine() {
        return engine.profileLine(IbTransportProvider.NAME);
    }

    @Override
    public String toString() {
        return "ib[rank " + rank + ", " + port.describe() + ", " + config.channel().configName() + "]";
    }
}
