package org.verbatim.runtime;

import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.Transport;

/**
 * Everything the runtime keeps per peer: the transport chosen for it (the one dispatch point),
 * its endpoint, the protocol selection made once from the transport's capabilities, and the
 * sends and control messages waiting for the transport to accept them (in send order).
 */
final class PeerState {
    /** How large messages travel to this peer. */
    enum Rendezvous { RGET, NONE }

    final int world;
    final Transport transport;
    final Endpoint endpoint;
    /** Largest payload sent eagerly (the rest goes by rendezvous). */
    final long eagerLimit;
    /** Largest single RDMA operation. */
    final long maxRdma;
    final Rendezvous rendezvous;
    /** Smallest message sent by RPUT ({@link RendezvousPolicy#NEVER}: always RGET). */
    final long putFrom;

    SendOp queuedHead;
    SendOp queuedTail;
    /** Control replies (FIN / SYNC_ACK) refused with RETRY: kind and request id pairs. */
    byte[] pendingKinds = new byte[8];
    long[] pendingIds = new long[8];
    int pendingCount;

    PeerState(int world, Transport transport, long configuredEagerLimit, RendezvousPolicy policy) {
        this.world = world;
        this.transport = transport;
        this.endpoint = transport.endpoint(world);
        Capabilities caps = transport.capabilities();
        this.eagerLimit = Math.min(configuredEagerLimit, caps.maxEager() - WireHeader.BASE_SIZE);
        this.maxRdma = Math.max(1, caps.maxRdma());
        this.rendezvous = caps.has(Capability.RDMA_READ) ? Rendezvous.RGET : Rendezvous.NONE;
        this.putFrom = policy.putFrom(caps);
    }

    boolean hasQueued() {
        return queuedHead != null;
    }

    void enqueue(SendOp s) {
        s.nextQueued = null;
        if (queuedTail == null) {
            queuedHead = s;
        } else {
            queuedTail.nextQueued = s;
        }
        queuedTail = s;
    }

    SendOp dequeue() {
        SendOp s = queuedHead;
        if (s != null) {
            queuedHead = s.nextQueued;
            if (queuedHead == null) {
                queuedTail = null;
            }
            s.nextQueued = null;
        }
        return s;
    }

    void addPendingControl(byte kind, long id) {
        if (pendingCount == pendingKinds.length) {
            pendingKinds = java.util.Arrays.copyOf(pendingKinds, pendingCount * 2);
            pendingIds = java.util.Arrays.copyOf(pendingIds, pendingCount * 2);
        }
        pendingKinds[pendingCount] = kind;
        pendingIds[pendingCount] = id;
        pendingCount++;
    }
}
