package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.rdma_cm_event;
import org.verbatim.verbs.raw.rdma_cma_h;

/**
 * An RDMA CM event channel ({@code rdma_create_event_channel}); its ids are closed before it.
 * Without RDMA CM devices creation fails with ENODEV.
 */
public final class EventChannel extends NativeResource {

    /** Creates the channel. */
    public EventChannel() {
        super(null);
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        handle(Calls.nonNull(rdma_cma_h.rdma_create_event_channel(state), state, "rdma_create_event_channel"));
    }

    /** Creates a TCP-port-space id ({@code rdma_create_id}, RDMA_PS_TCP) on this channel. */
    public CmId createId() {
        return new CmId(this);
    }

    /** Blocks for the next event ({@code rdma_get_cm_event}) and acknowledges it. */
    public CmEvent nextEvent() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(a);
            MemorySegment out = a.allocate(ValueLayout.ADDRESS);
            Calls.zero(rdma_cma_h.rdma_get_cm_event(state, handle(), out), state, "rdma_get_cm_event");
            MemorySegment event = rdma_cm_event.reinterpret(out.get(ValueLayout.ADDRESS, 0));
            var result = new CmEvent(rdma_cm_event.event(event), rdma_cm_event.status(event),
                    rdma_cm_event.id(event).address(), rdma_cm_event.listen_id(event).address());
            rdma_cma_h.rdma_ack_cm_event(state, event);
            return result;
        }
    }

    @Override
    void release(MemorySegment handle) {
        rdma_cma_h.rdma_destroy_event_channel(releaseState(), handle);
    }
}
