package org.verbatim.transport.shm;

import org.verbatim.spi.AtomicOp;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.OperationLimits;

/**
 * What shm advertises, with cross-memory attach and without it (see {@code docs/transport-shm.md}).
 *
 * <pre>
 *                          CMA                          no CMA (emulated)
 *  RDMA write/read         native, by the CPU           RDMA_*_EMULATED, through the inboxes
 *  gather/scatter          one process_vm_*v, 64 iov    packed into/out of chunks, 64 iov
 *  list post               runs in one call, 64         one by one (no LIST_POST)
 *  atomics                 ATOMICS_EMULATED (active messages; direct on shared segments)
 *  flush, eager claim      both                         both
 * </pre>
 */
final class ShmCapabilities {
    /** Largest RDMA transfer: far beyond any registration, so in effect unlimited. */
    static final long MAX_RDMA = 1L << 40;

    private ShmCapabilities() {
    }

    static Capabilities of(ShmConfiguration config, boolean cma) {
        Capabilities.Builder b = Capabilities.builder()
                .flag(Capability.SEND_RECV, Capability.SHARED_RECEIVE_QUEUE,
                        Capability.RDMA_WRITE, Capability.RDMA_READ,
                        Capability.WRITE_WITH_IMMEDIATE, Capability.IN_ORDER_PLACEMENT,
                        Capability.WRITE_GATHER, Capability.READ_SCATTER, Capability.FLUSH,
                        Capability.EAGER_CLAIM, Capability.ATOMICS, Capability.ATOMICS_EMULATED)
                .atomics(AtomicOp.FETCH_AND_ADD, AtomicOp.COMPARE_AND_SWAP)
                .send(new OperationLimits(0, config.eagerSize(), 0, 2))
                .readsInFlight(config.maxRdmaOps());
        if (cma) {
            OperationLimits rdma = new OperationLimits(0, 0, MAX_RDMA, CrossMemoryAttach.MAX_IOV);
            b.flag(Capability.RDMA_BY_CPU, Capability.LIST_POST).put(rdma).get(rdma)
                    .maxListPost(CrossMemoryAttach.MAX_LIST);
        } else {
            OperationLimits rdma = new OperationLimits(0, MAX_RDMA, 0, CrossMemoryAttach.MAX_IOV);
            b.flag(Capability.RDMA_WRITE_EMULATED, Capability.RDMA_READ_EMULATED).put(rdma).get(rdma);
        }
        return b.build();
    }
}
