package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.ibv_comp_channel;
import org.verbatim.verbs.raw.verbs_h;

/** A completion event channel ({@code ibv_create_comp_channel}): sleep until a CQ has work. */
public final class CompletionChannel extends NativeResource {

    CompletionChannel(Context context) {
        super(context);
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        handle(Calls.nonNull(verbs_h.ibv_create_comp_channel(state, context.handle()), state, "ibv_create_comp_channel"));
    }

    /** The file descriptor to poll(2) on. */
    public int fd() {
        return ibv_comp_channel.fd(ibv_comp_channel.reinterpret(handle()));
    }

    /**
     * Blocks for the next event ({@code ibv_get_cq_event}), acknowledges it and returns the address
     * of the CQ it is for; re-arm that CQ with {@link CompletionQueue#requestNotify} before polling.
     */
    public long awaitEvent() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(a);
            MemorySegment cq = a.allocate(ValueLayout.ADDRESS);
            MemorySegment cqContext = a.allocate(ValueLayout.ADDRESS);
            Calls.zero(verbs_h.ibv_get_cq_event(state, handle(), cq, cqContext), state, "ibv_get_cq_event");
            MemorySegment which = cq.get(ValueLayout.ADDRESS, 0);
            verbs_h.ibv_ack_cq_events(state, which, 1);
            return which.address();
        }
    }

    @Override
    void release(MemorySegment handle) {
        verbs_h.ibv_destroy_comp_channel(releaseState(), handle);
    }
}
