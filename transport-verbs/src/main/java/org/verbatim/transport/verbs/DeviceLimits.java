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
 * @param maxSgeRd        scatter entries of an RDMA read's local sink ({@code max_sge_rd}; 1 on
 *                        iWARP, whose read request names one sink buffer; 0 when the device does
 *                        not say, taken as {@code maxSge})
 * @param maxSrqWr        work requests in a shared receive queue
 * @param maxCqe          entries of a completion queue
 * @param atomicCap       {@code enum ibv_atomic_cap}: IBV_ATOMIC_NONE (0), _HCA (1), _GLOB (2)
 * @param maxQpRdAtom     RDMA reads and atomics a queue pair serves at once as responder
 * @param maxQpInitRdAtom RDMA reads and atomics a queue pair has outstanding as initiator
 * @param vendorId        {@code vendor_id}: the IEEE OUI of the adapter's maker, or a software
 *                        device's own value ({@link #RXE_VENDOR_ID})
 */
public record DeviceLimits(int maxQpWr, int maxSge, int maxSgeRd, int maxSrqWr, int maxCqe, int atomicCap, int maxQpRdAtom,
                           int maxQpInitRdAtom, int vendorId) {
    /** Soft-RoCE's {@code vendor_id} ({@code RXE_VENDOR_ID} in the kernel's rxe_param.h). */
    public static final int RXE_VENDOR_ID = 0xFFFFFF;
    /** Soft-iWARP's {@code vendor_id} ({@code SIW_VENDOR_ID} in the kernel's siw.h: "bmt"). */
    public static final int SIW_VENDOR_ID = 0x626d74;

    /** Queries {@code context}. */
    public static DeviceLimits query(Context context) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = context.queryDevice(a);
            return new DeviceLimits(ibv_device_attr.max_qp_wr(attr), ibv_device_attr.max_sge(attr),
                    ibv_device_attr.max_sge_rd(attr),
                    ibv_device_attr.max_srq_wr(attr), ibv_device_attr.max_cqe(attr),
                    ibv_device_attr.atomic_cap(attr), ibv_device_attr.max_qp_rd_atom(attr),
                    ibv_device_attr.max_qp_init_rd_atom(attr), ibv_device_attr.vendor_id(attr));
        }
    }

    /** Scatter entries of an RDMA read's sink: {@code max_sge_rd}, or {@code maxSge} when it says 0. */
    public int readSinkEntries() {
        return maxSgeRd > 0 ? Math.min(maxSgeRd, maxSge) : maxSge;
    }

    /** True when the device runs remote atomics (atomic_cap is not IBV_ATOMIC_NONE). */
    public boolean atomics() {
        return atomicCap != verbs_h_constants.IBV_ATOMIC_NONE;
    }

    /**
     * True on Soft-RoCE, whose responder runs an RDMA read request later, as a tasklet, where it
     * runs a write inside the initiator's post ({@code rxe_resp_queue_pkt} in Linux 6.1): reads
     * are the slower operation there ({@link org.verbatim.spi.Capability#RDMA_READ_DEFERRED}).
     */
    public boolean readsDeferred() {
        return vendorId == RXE_VENDOR_ID;
    }

    /**
     * True when a request posted to a queue pair in the error state comes back flushed, as verbs
     * specifies. Not on Soft-iWARP (Linux 6.1): moving a queue pair to error flushes what its
     * send queue holds at once, but a request posted afterwards stays in the user-mapped queue
     * without a completion (the doorbell's flush has no work request to flush).
     */
    public boolean flushesPostsAfterError() {
        return vendorId != SIW_VENDOR_ID;
    }

    /**
     * True when the device answers a zero-length RDMA read with a zero-length response. Not on
     * Soft-iWARP (Linux 6.1): a read request the responder queues because it is still sending
     * (another read's response, its own sends) becomes its send work request later
     * ({@code siw_activate_tx}), and for an empty one the previous request's first entry is left
     * in place, so the response carries that request's bytes. The initiator finds a response of
     * the wrong length, completes the read with a general error and ends the connection
     * ("rresp len: 777 != 0", 3 of 16 runs of the conformance suite's read test).
     */
    public boolean zeroLengthReadsAnswered() {
        return vendorId != SIW_VENDOR_ID;
    }

    /**
     * True when a zero-length RDMA read that is retransmitted after its first execution (its
     * response lost or late: the requester's ACK timeout fired) is answered again. Not on
     * Soft-RoCE (Linux 6.1): the responder replays a duplicate read by looking its memory region
     * up again by the request's remote key ({@code rxe_recheck_mr} in rxe_resp.c's
     * {@code read_reply}), and a zero-length read carries key 0, which names no region: the
     * duplicate is refused with a remote access error NAK and the responder's queue pair goes to
     * error. A flush (a zero-length read) behind RDMA writes then ends the connection whenever
     * the requester retransmits it (a long loop of lock epochs with RDMA in the TCG guest, where
     * the responder often stalls past the ACK timeout). A read with a valid key replays fine.
     */
    public boolean zeroLengthReadsReplayed() {
        return vendorId != RXE_VENDOR_ID;
    }

    /**
     * Whether zero-length reads must go out as one-byte reads of a byte the peer registered
     * ({@link ReadTargets}): where the device answers them wrongly, or refuses them retransmitted.
     */
    public boolean zeroLengthReadsNeedTarget() {
        return !zeroLengthReadsAnswered() || !zeroLengthReadsReplayed();
    }

    /**
     * RDMA reads (and atomics) one queue pair keeps outstanding towards a peer with the same
     * device: what this side may initiate and the peer may serve, at least 1.
     */
    public int readsInFlight() {
        return Math.max(1, Math.min(maxQpInitRdAtom, maxQpRdAtom));
    }
}
