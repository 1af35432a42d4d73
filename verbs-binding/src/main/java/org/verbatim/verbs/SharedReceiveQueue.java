package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.verbs.ops.ContextOps;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.ibv_srq_attr;
import org.verbatim.verbs.raw.ibv_srq_init_attr;
import org.verbatim.verbs.raw.verbs_h;
import org.verbatim.verbs.raw.verbs_h_constants;

/**
 * A shared receive queue ({@code ibv_create_srq}). {@link #armLimit} asks for an
 * {@code IBV_EVENT_SRQ_LIMIT_REACHED} async event when fewer receives than the limit remain.
 */
public final class SharedReceiveQueue extends NativeResource {

    private final ContextOps ops;
    private final MemorySegment srq;
    private final MemorySegment badWr;

    SharedReceiveQueue(ProtectionDomain pd, int maxWr, int maxSge) {
        super(pd);
        this.ops = pd.context().ops();
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        MemorySegment init = ibv_srq_init_attr.allocate(arena());
        MemorySegment attr = ibv_srq_init_attr.attr(init);
        ibv_srq_attr.max_wr(attr, maxWr);
        ibv_srq_attr.max_sge(attr, maxSge);
        this.srq = Calls.nonNull(verbs_h.ibv_create_srq(state, pd.handle(), init), state, "ibv_create_srq");
        handle(srq);
        this.badWr = arena().allocate(ValueLayout.ADDRESS);
    }

    /** {@code ibv_post_srq_recv} of a pre-built request: 0 or an errno value (ENOMEM when full). */
    public int post(ReceiveRequest request) {
        checkOpen();
        return ops.postSrqRecv(srq, request.segment(), badWr);
    }

    /** Arms the limit event ({@code ibv_modify_srq} with {@code IBV_SRQ_LIMIT}); it fires once per arming. */
    public void armLimit(int limit) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(a);
            MemorySegment attr = ibv_srq_attr.allocate(a);
            ibv_srq_attr.srq_limit(attr, limit);
            Calls.zero(verbs_h.ibv_modify_srq(state, handle(), attr, verbs_h_constants.IBV_SRQ_LIMIT), state, "ibv_modify_srq");
        }
    }

    @Override
    void release(MemorySegment handle) {
        verbs_h.ibv_destroy_srq(releaseState(), handle);
    }
}
