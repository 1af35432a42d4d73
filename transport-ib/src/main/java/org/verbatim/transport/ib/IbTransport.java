package org.verbatim.transport.ib;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.transport.verbs.DeviceLimits;
import org.verbatim.transport.verbs.VerbsEndpoint;
import org.verbatim.transport.verbs.VerbsEngine;
import org.verbatim.transport.verbs.VerbsTransport;
import org.verbatim.verbs.ConnectionParameters;

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
public final class IbTransport extends VerbsTransport {
    private static final Logger LOG = LoggerFactory.getLogger(IbTransport.class);

    private final PortSelection.Selected port;
    private final IbConfiguration config;
    private final ConnectionManager connections;

    private IbTransport(TransportContext ctx, IbConfiguration config, PortSelection.Selected port) {
        var context = port.context();
        // InfiniBand and RoCE place an RDMA write's bytes in order: the fast path may poll footers.
        super(ctx.rank(), ctx.size(), new VerbsEngine(context, DeviceLimits.query(context), config.verbs,
                ctx.handler(), ctx.rank(), ctx.size(), true, port.describe()));
        this.port = port;
        this.config = config;
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
    protected int port() {
        return port.port();
    }

    @Override
    protected void connect(VerbsEndpoint ep) {
        connections.connect(ep);
    }

    @Override
    protected boolean connecting() {
        return connections.busy();
    }

    @Override
    protected int pollConnections() {
        return connections.poll();
    }

    /** The device and port in use, in words. */
    public String describePort() {
        return port.describe();
    }

    @Override
    public void close() {
        engine.close();
    }

    @Override
    public String toString() {
        return "ib[rank " + rank + ", " + port.describe() + ", " + config.channel().configName() + "]";
    }
}
