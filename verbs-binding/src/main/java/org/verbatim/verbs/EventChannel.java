package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.rdma_cm_event;
import org.verbatim.verbs.raw.rdma_cma_h;
import org.verbatim.verbs.raw.rdma_cma_h_constants;
import org.verbatim.verbs.raw.rdma_conn_param;
import org.verbatim.verbs.raw.rdma_event_channel;

/**
 * An RDMA CM event channel ({@code rdma_create_event_channel}); its ids are closed before it.
 * Without RDMA CM devices creation fails with ENODEV.
 */
public final class EventChannel extends NativeResource {
    /** The channel descriptor's poller, made at the first {@link #pollEvent}. */
    private Poll poll;

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

    /**
     * The next event if one is waiting, else null: {@code poll(2)} on the channel's descriptor
     * with no timeout, then {@link #nextEvent}. For a progress loop that must not block.
     */
    public CmEvent pollEvent() {
        Poll p = poll;
        if (p == null) {
            poll = p = new Poll(rdma_event_channel.fd(rdma_event_channel.reinterpret(handle())), arena());
        }
        return p.readable(0) ? nextEvent() : null;
    }

    /** Blocks for the next event ({@code rdma_get_cm_event}) and acknowledges it. */
    public CmEvent nextEvent() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(a);
            MemorySegment out = a.allocate(ValueLayout.ADDRESS);
            Calls.zero(rdma_cma_h.rdma_get_cm_event(state, handle(), out), state, "rdma_get_cm_event");
            MemorySegment event = rdma_cm_event.reinterpret(out.get(ValueLayout.ADDRESS, 0));
            int type = rdma_cm_event.event(event);
            var result = new CmEvent(type, rdma_cm_event.status(event),
                    rdma_cm_event.id(event).address(), rdma_cm_event.listen_id(event).address(),
                    type == rdma_cma_h_constants.RDMA_CM_EVENT_CONNECT_REQUEST
                            || type == rdma_cma_h_constants.RDMA_CM_EVENT_ESTABLISHED
                            || type == rdma_cma_h_constants.RDMA_CM_EVENT_REJECTED
                            ? connection(rdma_cm_event.param.conn(rdma_cm_event.param(event))) : null);
            rdma_cma_h.rdma_ack_cm_event(state, event);
            return result;
        }
    }

    /** The parameters of a connection event ({@code event->param.conn}), read before the ack frees them. */
    private static CmConnectParameters connection(MemorySegment conn) {
        int length = Byte.toUnsignedInt(rdma_conn_param.private_data_len(conn));
        MemorySegment data = rdma_conn_param.private_data(conn);
        byte[] bytes = length == 0 || data.address() == 0 ? new byte[0]
                : data.reinterpret(length).toArray(ValueLayout.JAVA_BYTE);
        return new CmConnectParameters(Byte.toUnsignedInt(rdma_conn_param.initiator_depth(conn)),
                Byte.toUnsignedInt(rdma_conn_param.responder_resources(conn)), bytes, 0, 0);
    }

    @Override
    void release(MemorySegment handle) {
        rdma_cma_h.rdma_destroy_event_channel(releaseState(), handle);
    }
}
