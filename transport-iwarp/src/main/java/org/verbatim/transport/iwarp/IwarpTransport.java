package org.verbatim.transport.iwarp;

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
import org.verbatim.verbs.QueuePair;

/**
 * MPI's iWARP transport: RC queue pairs connected through the RDMA connection manager
 * ({@link CmConnections}: lower rank listens, higher rank connects, a hidden first message from
 * the client), on the shared verbs data path ({@link VerbsEngine}) with iWARP's semantics: no
 * immediate data (control messages in band, no WRITE_WITH_IMMEDIATE, so the rendezvous and
 * one-sided operations close with a message), no in-order placement (the RDMA fast path only
 * when switched on), read sinks registered for remote write. See docs/transport-iwarp.md.
 */
public final class IwarpTransport implements Transport {
    private static final Logger LOG = LoggerFactory.getLogger(IwarpTransport.class);

    private final int rank;
    private final int size;
    private final IwarpDevice device;
    private final IwarpConfiguration config;
    private final VerbsEngine engine;
    private final CmConnections connections;
    private int progressCalls;

    private IwarpTransport(TransportContext ctx, IwarpConfiguration config, IwarpDevice device) {
        this.rank = ctx.rank();
        this.size = ctx.size();
        this.device = device;
        this.config = config;
        var context = device.context();
        this.engine = new VerbsEngine(context, DeviceLimits.query(context), config.verbs, ctx.handler(), rank,
                size, config.semantics(), device.describe());
        CmConnections c;
        try {
            c = new CmConnections(this, engine, device, rank, size, config);
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
        this.connections = c;
        engine.onFirstTraffic(connections::trafficFrom);
        engine.onFirstMessage(connections::firstMessageFrom);
        engine.onDrained(connections::drained);
    }

    /** Opens the transport on every rank (collective through the bootstrap). */
    static IwarpTransport open(TransportContext ctx, IwarpConfiguration config) throws TransportException {
        IwarpDevice device = IwarpDevice.open(config);
        IwarpTransport t;
        try {
            t = new IwarpTransport(ctx, config, device);
        } catch (RuntimeException e) {
            device.context().close();
            throw new TransportException("iwarp: setting up " + device.describe() + ": " + e.getMessage(), e);
        }
        try {
            t.connections.publish(ctx.bootstrap());
            ctx.bootstrap().barrier();
            if (config.allAtOnce) {
                String failure = t.connections.connectAll(t.size);
                if (failure != null) {
                    throw new TransportException(failure);
                }
                ctx.bootstrap().barrier();
            }
        } catch (TransportException e) {
            t.close();
            throw e;
        } catch (RuntimeException e) {
            t.close();
            throw new TransportException("iwarp: connecting on " + device.describe() + ": " + e.getMessage(), e);
        }
        LOG.debug("rank {}: iwarp on {} listening on port {}, {}", ctx.rank(), device.describe(),
                t.connections.listening().getPort(), config);
        return t;
    }

    /** The endpoint of {@code peer}, creating its queue pair (INIT) if there is none yet. */
    VerbsEndpoint endpointOrCreate(int peer) {
        VerbsEndpoint ep = engine.endpoint(peer);
        if (ep != null) {
            return ep;
        }
        QueuePair qp = engine.createQueuePair();
        qp.toInit(1, engine.queuePairAccess(), 0);
        return engine.addEndpoint(peer, qp);
    }

    /** The connection manager (tests). */
    CmConnections connections() {
        return connections;
    }

    // ------------------------------------------------------------------ SPI

    @Override
    public String name() {
        return IwarpTransportProvider.NAME;
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
            throw new IllegalArgumentException("iwarp does not reach rank " + peer);
        }
        VerbsEndpoint ep = engine.endpoint(peer);
        if (ep == null) {
            ep = endpointOrCreate(peer);
            connections.start(peer);
        }
        return ep;
    }

    @Override
    public MemoryRegistration register(MemorySegment segment, int access) {
        return engine.register(segment, access);
    }

    /**
     * Polls the connection events (every pass while a connection is being set up, else one in
     * 16: a connect request from a new peer waits at most that long), then the data path.
     */
    @Override
    public int progress() {
        int work = 0;
        if (connections.busy() || (++progressCalls & 15) == 0) {
            work += connections.poll();
        }
        return work + engine.progress();
    }

    /** The profiler counters of this transport. */
    public VerbsCounters counters() {
        return engine.counters();
    }

    /** The device and address in use, in words. */
    public String describeDevice() {
        return device.describe() + " port " + connections.listening().getPort();
    }

    /** Destroys the RDMA CM ids first (they hold the queue pairs), then the data path and the device. */
    @Override
    public void close() {
        try {
            connections.close();
        } finally {
            engine.close();
        }
    }

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
        return engine.profileLine(IwarpTransportProvider.NAME);
    }

    @Override
    public String toString() {
        return "iwarp[rank " + rank + ", " + describeDevice() + ", " + config.verbs.channel().configName() + "]";
    }
}
