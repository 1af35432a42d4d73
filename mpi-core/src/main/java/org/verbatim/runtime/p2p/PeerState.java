package org.verbatim.runtime.p2p;

import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.Transport;

/** What the point-to-point protocols know about one peer: its transport and protocol choices. */
final class PeerState {
    final int world;
    final Transport transport;
    final Endpoint endpoint;
    /** Largest payload sent eagerly (the rest goes by rendezvous). */
    final long eagerLimit;
    /** Largest single RDMA operation. */
    final long maxRdma;
    /** Smallest message sent by RPUT ({@link RendezvousPolicy#NEVER}: always RGET). */
    final long putFrom;
    /** Reads this endpoint may have in flight: the configured window within the transport's. */
    final int readWindow;
    final SelectionTable selection;

    PeerState(int world, Transport transport, long configuredEagerLimit, RendezvousPolicy policy,
              int configuredReadWindow, LayoutSchemes schemes) {
        this.world = world;
        this.transport = transport;
        this.endpoint = transport.endpoint(world);
        Capabilities caps = transport.capabilities();
        this.eagerLimit = Math.min(configuredEagerLimit, caps.maxEager() - WireHeader.BASE_SIZE);
        this.maxRdma = Math.max(1, caps.maxRdma());
        this.putFrom = policy.putFrom(caps);
        this.readWindow = Math.max(1, caps.readsInFlight() > 0
                ? Math.min(configuredReadWindow, caps.readsInFlight()) : configuredReadWindow);
        this.selection = new SelectionTable(caps, eagerLimit, putFrom, schemes);
    }
}
