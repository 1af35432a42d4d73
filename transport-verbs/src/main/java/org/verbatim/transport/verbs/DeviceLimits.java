package org.verbatim.transport.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.Context;
import org.verbatim.verbs.raw.ibv_device_attr;
import org.verbatim.verbs.raw.verbs_h_constants;

/**
 * What {@code ibv_query_device} says about a device that the verbs layer sizes itself by.
 *
 * @param maxQpWr         work requests per queue
 * @param maxSge          scatter/gather entries per work request
 * @param maxSrqWr        work requests in a shared receive queue
 * @param maxCqe          entries of a completion queue
 * @param atomicCap       {@code enum ibv_atomic_cap}: IBV_ATOMIC_NONE (0), _HCA (1), _GLOB (2)
 * @param maxQpRdAtom     RDMA reads and atomics a queue pair serves at once as responder
 * @param maxQpInitRdAtom RDMA reads and atomics a queue pair has outstanding as initiator
 */
public record DeviceLimits(int maxQpWr, int maxSge, int maxSrqWr, int maxCqe, int atomicCap, int maxQpRdAtom,
                           int maxQpInitRdAtom) {

    /** Queries {@code context}. */
    public static DeviceLimits query(Context context) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = context.queryDevice(a);
            return new DeviceLimits(ibv_device_attr.max_qp_wr(attr), ibv_device_attr.max_sge(attr),
                    ibv_device_attr.max_srq_wr(attr), ibv_device_attr.max_cqe(attr),
                    ibv_device_attr.atomic_cap(attr), ibv_device_attr.max_qp_rd_atom(attr),
                    ibv_device_attr.max_qp_init_rd_atom(attr));
        }
    }

    /** True when the device runs remote atomics (atomic_cap is not IBV_ATOMIC_NONE). */
    public boolean atomics() {
        return atomicCap != verbs_h_constants.IBV_ATOMIC_NONE;
    }

    /**
     * RDMA reads (and atomics) one queue pair keeps outstanding towards a peer with the same
     * device: what this side may initiate and the peer may serve, at least 1.
     */
    public int readsInFlight() {
        return Math.max(1, Math.min(maxQpInitRdAtom, maxQpRdAtom));
    }
}
