package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
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
    /** Largest payload sent eagerly against the peer's credit ({@link EagerCredit}; 0: none). */
    final long creditedLimit;
    /** The peer's credit window ({@link Transport#eagerWindow()}); 0: none. */
    final long creditWindow;
    /** Sender: credited bytes that may still be sent to this peer. */
    long credit;
    /** Receiver: credited bytes taken from this peer and not given back yet. */
    long owed;
    /** Receiver: the receive matched by the eager message whose data a stream transport is
     *  reading into place ({@link EagerPlacement}), or null. */
    RecvOp placingReceive;
    /** Receiver: the staging buffer that message's data is read into, or null. */
    MemorySegment placingStage;
    /** The fragmented eager message arriving from this peer ({@link FragmentReceiver}). */
    final FragmentReceiver.Arrival fragments = new FragmentReceiver.Arrival();

    /**
     * @param configuredEagerLimit the core's eager limit; negative when it is the default (its
     *                             absolute value), which {@link Transport#eagerLimit()} replaces
     */
    PeerState(int world, Transport transport, long configuredEagerLimit, RendezvousPolicy policy,
              int configuredReadWindow, LayoutSchemes schemes) {
        this.world = world;
        this.transport = transport;
        this.endpoint = transport.endpoint(world);
        Capabilities caps = transport.capabilities();
        // negative: the core's default, which the transport's own limit (if any) replaces
        long wanted = configuredEagerLimit < 0 && transport.eagerLimit() > 0 ? transport.eagerLimit()
                : Math.abs(configuredEagerLimit);
        this.eagerLimit = Math.min(wanted, caps.maxEager() - WireHeader.BASE_SIZE);
        this.maxRdma = Math.max(1, caps.maxRdma());
        this.putFrom = policy.putFrom(caps);
        this.readWindow = Math.max(1, caps.readsInFlight() > 0
                ? Math.min(configuredReadWindow, caps.readsInFlight()) : configuredReadWindow);
        this.selection = new SelectionTable(caps, eagerLimit, putFrom, schemes);
        this.creditWindow = Math.max(0, transport.eagerWindow());
        this.creditedLimit = creditWindow == 0 ? 0
                : Math.min(creditWindow, caps.maxEager() - WireHeader.BASE_SIZE);
        this.credit = creditWindow;
    }
}
