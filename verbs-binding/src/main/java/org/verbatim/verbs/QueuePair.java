package org.verbatim.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.verbs.ops.ContextOps;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.ibv_ah_attr;
import org.verbatim.verbs.raw.ibv_global_route;
import org.verbatim.verbs.raw.ibv_qp;
import org.verbatim.verbs.raw.ibv_qp_attr;
import org.verbatim.verbs.raw.ibv_qp_cap;
import org.verbatim.verbs.raw.ibv_qp_init_attr;
import org.verbatim.verbs.raw.rdma_cm_id;
import org.verbatim.verbs.raw.rdma_cma_h;
import org.verbatim.verbs.raw.verbs_h;

/**
 * A queue pair ({@code ibv_create_qp}, or {@code rdma_create_qp} on a {@link CmId}), RC or UD,
 * with the RESET to INIT to RTR to RTS transitions and posting of pre-built requests, alone or
 * chained, through the context's cached ops.
 */
public final class QueuePair extends NativeResource {

    /**
     * RC timers and retries. The local ACK timeout is 4.096 us * 2^TIMEOUT: 18 is about 1.07 s
     * (UCX's default is 1 s, Open MPI's openib 2^20). 14 (67 ms, perftest's) made a stalled
     * responder (a TCG guest, a descheduled process) look like a lost packet: the requester
     * retransmitted reads and atomics, and Soft-RoCE's handling of the duplicates ended the
     * connection or never completed the request (a long loop of lock epochs with RDMA over rxe:
     * 43 retransmissions and 22 duplicates, then the queue pair in error; with 18 none of either
     * and the loop ran to its end). What ended it: a retransmitted flush (a zero-length read),
     * which Soft-RoCE refuses (transport-verbs' {@code DeviceLimits.zeroLengthReadsReplayed}).
     *
     * <p>RETRY_COUNT is 6, not the 3-bit field's 7: Soft-RoCE (Linux 6.1, rxe_comp.c) never
     * counts a retry down from 7, so there 7 retransmits forever, and a request the responder
     * will never answer (its queue pair in error) left the requester waiting without an error
     * completion (229 retransmissions in 296 s, the lock-rdma stall). With 6 such a request
     * fails after about 7.5 s (its first timeout and 6 retries of 1.07 s each) on every
     * device, and the runtime reports it.
     */
    static final int TIMEOUT = 18;
    static final int RETRY_COUNT = 6;
    static final int RNR_RETRY = 7;
    static final int MIN_RNR_TIMER = 12;

    private final QueuePairType type;
    private final ContextOps ops;
    private final MemorySegment qp;
    private final MemorySegment badWr;
    private final int qpNum;
    private final int maxInline;
    private final int maxSendSge;
    /** The RDMA CM id that owns this queue pair ({@code rdma_create_qp}), or null. */
    private final MemorySegment cmId;

    QueuePair(ProtectionDomain pd, QueuePairConfig config) {
        super(pd);
        this.type = config.type();
        this.ops = pd.context().ops();
        this.cmId = null;
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        MemorySegment init = initAttributes(config, arena());
        this.qp = Calls.nonNull(verbs_h.ibv_create_qp(state, pd.handle(), init), state, "ibv_create_qp");
        handle(qp);
        this.qpNum = ibv_qp.qp_num(ibv_qp.reinterpret(qp));
        MemorySegment cap = ibv_qp_init_attr.cap(init);
        this.maxInline = ibv_qp_cap.max_inline_data(cap);
        this.maxSendSge = ibv_qp_cap.max_send_sge(cap);
        this.badWr = arena().allocate(ValueLayout.ADDRESS);
    }

    /** {@code rdma_create_qp} on {@code id} (see {@link CmId#createQueuePair}). */
    QueuePair(CmId id, ProtectionDomain pd, QueuePairConfig config) {
        super(id);
        if (config.type() != QueuePairType.RC) {
            throw new IllegalArgumentException("the RDMA CM connects RC queue pairs here, not " + config.type());
        }
        this.type = config.type();
        this.ops = pd.context().ops();
        this.cmId = id.handle();
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        MemorySegment init = initAttributes(config, arena());
        Calls.zero(rdma_cma_h.rdma_create_qp(state, id.handle(), pd.handle(), init), state, "rdma_create_qp");
        this.qp = rdma_cm_id.qp(rdma_cm_id.reinterpret(id.handle()));
        handle(qp);
        this.qpNum = ibv_qp.qp_num(ibv_qp.reinterpret(qp));
        MemorySegment cap = ibv_qp_init_attr.cap(init);
        this.maxInline = ibv_qp_cap.max_inline_data(cap);
        this.maxSendSge = ibv_qp_cap.max_send_sge(cap);
        this.badWr = arena().allocate(ValueLayout.ADDRESS);
    }

    private static MemorySegment initAttributes(QueuePairConfig config, Arena arena) {
        MemorySegment init = ibv_qp_init_attr.allocate(arena);
        ibv_qp_init_attr.send_cq(init, config.sendCq().handle());
        ibv_qp_init_attr.recv_cq(init, config.recvCq().handle());
        ibv_qp_init_attr.srq(init, config.srq() == null ? MemorySegment.NULL : config.srq().handle());
        ibv_qp_init_attr.qp_type(init, config.type().value);
        MemorySegment cap = ibv_qp_init_attr.cap(init);
        ibv_qp_cap.max_send_wr(cap, config.maxSendWr());
        ibv_qp_cap.max_recv_wr(cap, config.srq() == null ? config.maxRecvWr() : 0);
        ibv_qp_cap.max_send_sge(cap, config.maxSge());
        ibv_qp_cap.max_recv_sge(cap, config.srq() == null ? config.maxSge() : 1);
        ibv_qp_cap.max_inline_data(cap, config.maxInline());
        return init;
    }

    /** The QP number peers address. */
    public int qpNum() {
        checkOpen();
        return qpNum;
    }

    /** The inline size the provider granted ({@code ibv_create_qp} writes it back): at least the request. */
    public int maxInline() {
        return maxInline;
    }

    /**
     * Gather entries one send work request may carry, as the provider granted them
     * ({@code cap.max_send_sge} written back at creation): at least what was asked for.
     */
    public int maxSendSge() {
        return maxSendSge;
    }

    /** RC or UD. */
    public QueuePairType type() {
        return type;
    }

    /** RESET to INIT on {@code port}: RC gets {@code access} flags, UD gets {@code qkey}. */
    public void toInit(int port, int access, int qkey) {
        modify((attr, a) -> {
            ibv_qp_attr.qp_state(attr, IBV_QPS_INIT);
            ibv_qp_attr.pkey_index(attr, (short) 0);
            ibv_qp_attr.port_num(attr, (byte) port);
            if (type == QueuePairType.RC) {
                ibv_qp_attr.qp_access_flags(attr, access);
                return IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
            }
            ibv_qp_attr.qkey(attr, qkey);
            return IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY;
        }, "INIT");
    }

    /** INIT to RTR: for RC the path (MTU, remote QP, LID or GID with GID index) and receive PSN. */
    public void toRtr(ConnectionParameters p) {
        modify((attr, a) -> {
            ibv_qp_attr.qp_state(attr, IBV_QPS_RTR);
            if (type == QueuePairType.UD) {
                return IBV_QP_STATE;
            }
            ibv_qp_attr.path_mtu(attr, p.pathMtu());
            ibv_qp_attr.dest_qp_num(attr, p.remoteQpNum());
            ibv_qp_attr.rq_psn(attr, p.receivePsn());
            ibv_qp_attr.max_dest_rd_atomic(attr, (byte) p.readsIn());
            ibv_qp_attr.min_rnr_timer(attr, (byte) MIN_RNR_TIMER);
            MemorySegment ah = ibv_qp_attr.ah_attr(attr);
            ibv_ah_attr.dlid(ah, (short) p.remoteLid());
            ibv_ah_attr.port_num(ah, (byte) p.port());
            if (p.gidIndex() >= 0) {
                ibv_ah_attr.is_global(ah, (byte) 1);
                MemorySegment grh = ibv_ah_attr.grh(ah);
                ibv_global_route.dgid(grh).copyFrom(MemorySegment.ofArray(p.remoteGid()));
                ibv_global_route.sgid_index(grh, (byte) p.gidIndex());
                ibv_global_route.hop_limit(grh, (byte) 1);
            }
            return IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN
                    | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
        }, "RTR");
    }

    /** RTR to RTS with the send PSN (and, for RC, the timeout and retry counts). */
    public void toRts(ConnectionParameters p) {
        modify((attr, a) -> {
            ibv_qp_attr.qp_state(attr, IBV_QPS_RTS);
            ibv_qp_attr.sq_psn(attr, p.sendPsn());
            if (type == QueuePairType.UD) {
                return IBV_QP_STATE | IBV_QP_SQ_PSN;
            }
            ibv_qp_attr.timeout(attr, (byte) TIMEOUT);
            ibv_qp_attr.retry_cnt(attr, (byte) RETRY_COUNT);
            ibv_qp_attr.rnr_retry(attr, (byte) RNR_RETRY);
            ibv_qp_attr.max_rd_atomic(attr, (byte) p.readsOut());
            return IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
        }, "RTS");
    }

    /**
     * To ERROR: every outstanding work request completes flushed ({@code IBV_WC_WR_FLUSH_ERR}),
     * posted receives included (not those of a shared receive queue).
     */
    public void toError() {
        modify((attr, a) -> {
            ibv_qp_attr.qp_state(attr, IBV_QPS_ERR);
            return IBV_QP_STATE;
        }, "ERR");
    }

    /**
     * To RESET, from any state: the queues are emptied without completions, and the queue pair
     * can go through INIT, RTR and RTS again (a new connection on the same queue pair number).
     * Poll out the flushed completions first: ones still in a CQ would name requests reused since.
     */
    public void reset() {
        modify((attr, a) -> {
            ibv_qp_attr.qp_state(attr, IBV_QPS_RESET);
            return IBV_QP_STATE;
        }, "RESET");
    }

    private interface Attributes {
        int fill(MemorySegment attr, Arena arena);
    }

    private void modify(Attributes attributes, String to) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(a);
            MemorySegment attr = ibv_qp_attr.allocate(a);
            int mask = attributes.fill(attr, a);
            Calls.zero(verbs_h.ibv_modify_qp(state, handle(), attr, mask), state, "ibv_modify_qp(" + to + ")");
        }
    }

    /**
     * {@code ibv_post_send} of a pre-built request, or of the chain that starts with it
     * ({@link SendRequest#next}): 0, or an errno value (ENOMEM when the queue is full). On an
     * error, the requests before {@link #badRequest()} were posted and the rest were not.
     */
    public int post(SendRequest request) {
        checkOpen();
        return ops.postSend(qp, request.segment(), badWr);
    }

    /**
     * The address of the request the last failed post stopped at ({@code bad_wr}); compare with
     * {@link SendRequest#address()}. Meaningful only right after a post that returned an error.
     */
    public long badRequest() {
        return badWr.get(ValueLayout.ADDRESS, 0).address();
    }

    /** {@code ibv_post_recv} of a pre-built request: 0 or an errno value. */
    public int post(ReceiveRequest request) {
        checkOpen();
        return ops.postRecv(qp, request.segment(), badWr);
    }

    @Override
    void release(MemorySegment handle) {
        if (cmId != null) {
            rdma_cma_h.rdma_destroy_qp(releaseState(), cmId);
        } else {
            verbs_h.ibv_destroy_qp(releaseState(), handle);
        }
    }
}
