package org.verbatim.transport.iwarp;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.transport.verbs.DeviceLimits;
import org.verbatim.transport.verbs.VerbsEndpoint;
import org.verbatim.transport.verbs.VerbsEngine;
import org.verbatim.transport.verbs.VerbsTransport;

/**
 * MPI's iWARP transport: RC queue pairs connected through the RDMA connection manager
 * ({@link CmConnections}: lower rank listens, higher rank connects, a hidden first message from
 * the client), on the shared verbs data path ({@link VerbsEngine}) with iWARP's semantics: no
 * immediate data (control messages in band, no WRITE_WITH_IMMEDIATE, so the rendezvous and
 * one-sided operations close with a message), no in-order placement (the RDMA fast path only
 * when switched on), read sinks registered for remote write. See docs/transport-iwarp.md.
 */
public final class IwarpTransport extends VerbsTransport {
    private static final Logger LOG = LoggerFactory.getLogger(IwarpTransport.class);
    /**
     * Progress passes per look at the RDMA CM events while no connection is being set up: each
     * look is a poll(2) on the event channel, a system call (one in 16 passes cost the 8 B
     * ping-pong over siw0 a system call per message under the test guest's emulation).
     */
    private static final int IDLE_CONNECTION_POLLS = 256;

    private final IwarpDevice device;
    private final IwarpConfiguration config;
    private final CmConnections connections;

    private IwarpTransport(TransportContext ctx, IwarpConfiguration config, IwarpDevice device) {
        var context = device.context();
        super(ctx.rank(), ctx.size(), new VerbsEngine(context, DeviceLimits.query(context), config.verbs,
                ctx.handler(), ctx.rank(), ctx.size(), config.semantics(), device.describe()),
                IDLE_CONNECTION_POLLS);
        this.device = device;
        this.config = config;
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
    protected int port() {
        return 1;
    }

    @Override
    protected void connect(VerbsEndpoint ep) {
        connections.start(ep.peer());
    }

    @Override
    protected boolean connecting() {
        return connections.busy();
    }

    @Override
    protected int pollConnections() {
        return connections.poll();
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
    public String toString() {
        return "iwarp[rank " + rank + ", " + describeDevice() + ", " + config.verbs.channel().configName() + "]";
    }
}
