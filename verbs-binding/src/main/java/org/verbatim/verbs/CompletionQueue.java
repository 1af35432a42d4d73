package org.verbatim.verbs;

import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.ops.ContextOps;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.verbs_h;

/** A completion queue ({@code ibv_create_cq}); polling goes through the context's cached ops. */
public final class CompletionQueue extends NativeResource {

    private final ContextOps ops;
    private final MemorySegment cq;

    CompletionQueue(Context context, int entries, CompletionChannel channel) {
        super(context);
        this.ops = context.ops();
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        MemorySegment ch = channel == null ? MemorySegment.NULL : channel.handle();
        this.cq = Calls.nonNull(verbs_h.ibv_create_cq(state, context.handle(), entries, MemorySegment.NULL, ch, 0), state, "ibv_create_cq");
        handle(cq);
    }

    /**
     * {@code ibv_poll_cq} into {@code completions}: the number of completions written (0 when
     * empty), or a negative value on a provider error. Allocates nothing.
     */
    public int poll(WorkCompletions completions) {
        checkOpen();
        return ops.pollCq(cq, completions.capacity(), completions.segment());
    }

    /** {@code ibv_req_notify_cq}: arm the CQ to signal its channel on the next (solicited) completion. */
    public void requestNotify(boolean solicitedOnly) {
        checkOpen();
        Calls.zero(ops.reqNotifyCq(cq, solicitedOnly), MemorySegment.NULL, "ibv_req_notify_cq");
    }

    @Override
    void release(MemorySegment handle) {
        verbs_h.ibv_destroy_cq(releaseState(), handle);
    }
}
