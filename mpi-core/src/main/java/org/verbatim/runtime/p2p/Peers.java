package org.verbatim.runtime.p2p;

import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Transport;

/**
 * The point-to-point state of each peer ({@link PeerState}: its transport and protocol choices),
 * made the first time a message goes to or comes from that peer, and the selection table printed
 * for it ({@code verbatim.core.proto-info}). The hot paths index {@link #byWorld} themselves and
 * call {@link #connect} only when the entry is still empty. Runs under the runtime's lock.
 */
final class Peers {
    private final ProtocolContext context;
    /** By world rank; null until {@link #connect}. */
    final PeerState[] byWorld;
    private final long eagerLimit;
    private final int readWindow;
    private final RendezvousPolicy rendezvousPolicy;
    private final LayoutSchemes schemes;
    private final boolean protoInfo;

    Peers(ProtocolContext context, int worldSize, long eagerLimit, int readWindow,
          RendezvousPolicy rendezvousPolicy, LayoutSchemes schemes, boolean protoInfo) {
        this.context = context;
        this.byWorld = new PeerState[worldSize];
        this.eagerLimit = eagerLimit;
        this.readWindow = Math.max(1, readWindow);
        this.rendezvousPolicy = rendezvousPolicy;
        this.schemes = schemes;
        this.protoInfo = protoInfo;
    }

    /** The state of {@code world}, made now if it is not yet. */
    PeerState get(int world) {
        PeerState p = byWorld[world];
        return p != null ? p : connect(world);
    }

    /** Makes the state of {@code world}: its transport, limits and selection table. */
    PeerState connect(int world) {
        Transport t = context.transportFor(world);
        PeerState p = new PeerState(world, t, eagerLimit, rendezvousPolicy, readWindow, schemes);
        byWorld[world] = p;
        if (protoInfo) {
            System.err.print(describe(p));
        }
        return p;
    }

    /** The protocol selection for one peer, as verbatim.core.proto-info prints it. */
    String describe(PeerState p) {
        Capabilities caps = p.transport.capabilities();
        return "verbatim: rank " + context.worldRank() + " -> rank " + p.world + ": transport "
                + p.transport.name() + ", eager <= " + p.eagerLimit + " B"
                + (p.creditWindow > 0 ? " (<= " + p.creditedLimit + " B within a window of "
                        + p.creditWindow + " B)" : "") + ", RDMA in chunks of "
                + p.maxRdma + " B, " + p.readWindow + " reads in flight"
                + (caps.hasNativeRdmaRead() ? "" : " (read emulated or absent)")
                + (caps.hasNativeRdmaWrite() ? "" : " (write emulated or absent)")
                + ", flags " + caps.flags() + "\n"
                + p.selection.describe("verbatim:   ");
    }
}
