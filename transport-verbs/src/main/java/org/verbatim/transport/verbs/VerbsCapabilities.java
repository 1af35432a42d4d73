package org.verbatim.transport.verbs;

import java.util.EnumSet;
import org.verbatim.spi.AtomicOp;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.OperationLimits;

/** The capability record of a verbs data path, from what the device and its queue pairs grant. */
final class VerbsCapabilities {
    /** Largest single RDMA read or write the engine posts (one work request). */
    static final long MAX_RDMA = 1L << 30;

    private VerbsCapabilities() {
    }

    /**
     * @param maxInline        inline bytes the queue pairs granted (and the configuration allows)
     * @param eagerSize        largest eager message
     * @param maxIov           gather entries the queue pairs granted
     * @param maxReadIov       scatter entries of an RDMA read's sink (at most the device's
     *                         {@code max_sge_rd}: 1 on iWARP, so no READ_SCATTER there)
     * @param atomics          the device runs remote atomics
     * @param readsInFlight    RDMA reads and atomics one endpoint keeps outstanding
     * @param maxListPost      requests chained into one post
     * @param inOrderPlacement an RDMA write's bytes land in address order (not on iWARP)
     * @param immediateData    writes carry immediate data (not on iWARP): WRITE_WITH_IMMEDIATE
     * @param sharedReceive    eager messages land in a shared receive queue
     * @param readsDeferred    the device serves RDMA reads later than writes (Soft-RoCE)
     * @param rdmaChunk        largest single RDMA operation to advertise (0: {@link #MAX_RDMA})
     * @param writesAcknowledged a write completes once the target acknowledged it, so a refused
     *                         one is reported (not on iWARP: REMOTE_ACCESS_ERRORS_UNREPORTED)
     */
    static Capabilities of(int maxInline, int eagerSize, int maxIov, int maxReadIov, boolean atomics, int readsInFlight,
                           int maxListPost, boolean inOrderPlacement, boolean immediateData, boolean sharedReceive,
                           boolean readsDeferred, int rdmaChunk, boolean writesAcknowledged) {
        long maxRdma = rdmaChunk > 0 ? Math.min(rdmaChunk, MAX_RDMA) : MAX_RDMA;
        EnumSet<Capability> flags = EnumSet.of(Capability.SEND_RECV, Capability.RDMA_WRITE, Capability.RDMA_READ,
                Capability.LIST_POST, Capability.FLUSH);
        if (immediateData) {
            flags.add(Capability.WRITE_WITH_IMMEDIATE);
        }
        if (maxIov >= 2) {
            flags.add(Capability.WRITE_GATHER);
        }
        if (maxReadIov >= 2) {
            flags.add(Capability.READ_SCATTER);
        }
        if (inOrderPlacement) {
            flags.add(Capability.IN_ORDER_PLACEMENT);
        }
        if (sharedReceive) {
            flags.add(Capability.SHARED_RECEIVE_QUEUE);
        }
        if (!writesAcknowledged) {
            flags.add(Capability.REMOTE_ACCESS_ERRORS_UNREPORTED);
        }
        if (readsDeferred) {
            flags.add(Capability.RDMA_READ_DEFERRED);
        }
        EnumSet<AtomicOp> atomicOps = EnumSet.noneOf(AtomicOp.class);
        if (atomics) {
            flags.add(Capability.ATOMICS);
            atomicOps.add(AtomicOp.FETCH_AND_ADD);
            atomicOps.add(AtomicOp.COMPARE_AND_SWAP);
        }
        return new Capabilities(flags,
                new OperationLimits(maxInline, eagerSize, 0, 2),
                new OperationLimits(maxInline, 0, maxRdma, maxIov), new OperationLimits(0, 0, maxRdma, maxReadIov),
                atomicOps, readsInFlight, maxListPost);
    }
}
