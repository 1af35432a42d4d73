package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.ops.ContextOps;
import org.verbatim.verbs.ops.MacroVerbs;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.ibv_async_event;
import org.verbatim.verbs.raw.ibv_device_attr;
import org.verbatim.verbs.raw.ibv_gid;
import org.verbatim.verbs.raw.ibv_port_attr;
import org.verbatim.verbs.raw.verbs_h;

/**
 * An open device ({@code struct ibv_context}). Everything created from it is closed before it.
 * Holds the {@link ContextOps} (the inline verbs' function pointers) that its CQs, SRQs and QPs use.
 */
public final class Context extends NativeResource {

    private final String name;
    private final ContextOps ops;

    Context(MemorySegment device, String name) {
        super(null);
        this.name = name;
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        handle(Calls.nonNull(verbs_h.ibv_open_device(state, device), state, "ibv_open_device(" + name + ")"));
        this.ops = ContextOps.of(handle());
    }

    /** The device name. */
    public String name() {
        return name;
    }

    /** The cached ops table of this context. */
    public ContextOps ops() {
        checkOpen();
        return ops;
    }

    /** {@code ibv_query_device}: the attributes, as a segment laid out as {@code struct ibv_device_attr}. */
    public MemorySegment queryDevice(Arena into) {
        MemorySegment attr = ibv_device_attr.allocate(into);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(a);
            Calls.zero(verbs_h.ibv_query_device(state, handle(), attr), state, "ibv_query_device");
        }
        return attr;
    }

    /** {@code ibv_query_port} with the header macro's rule (extended op, else the compat symbol). */
    public PortAttributes queryPort(int port) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(a);
            MemorySegment attr = ibv_port_attr.allocate(a);
            Calls.zero(MacroVerbs.queryPort(ops(), state, (byte) port, attr), state, "ibv_query_port");
            return PortAttributes.of(attr);
        }
    }

    /** {@code ibv_query_gid}: the 16 bytes of GID {@code index} of {@code port}. */
    public byte[] queryGid(int port, int index) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(a);
            MemorySegment gid = ibv_gid.allocate(a);
            Calls.zero(verbs_h.ibv_query_gid(state, handle(), (byte) port, index, gid), state, "ibv_query_gid");
            return gid.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        }
    }

    /**
     * Blocks for the next asynchronous event ({@code ibv_get_async_event}) and acknowledges it.
     * Includes {@code IBV_EVENT_SRQ_LIMIT_REACHED} after {@link SharedReceiveQueue#armLimit}.
     */
    public AsyncEvent nextAsyncEvent() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(a);
            MemorySegment event = ibv_async_event.allocate(a);
            Calls.zero(verbs_h.ibv_get_async_event(state, handle(), event), state, "ibv_get_async_event");
            MemorySegment element = ibv_async_event.element(event);
            var result = new AsyncEvent(ibv_async_event.event_type(event),
                    ibv_async_event.element.cq(element).address());
            verbs_h.ibv_ack_async_event(state, event);
            return result;
        }
    }

    /** {@code ibv_alloc_pd}. */
    public ProtectionDomain allocateProtectionDomain() {
        return new ProtectionDomain(this);
    }

    /** {@code ibv_create_comp_channel}. */
    public CompletionChannel createCompletionChannel() {
        return new CompletionChannel(this);
    }

    /** {@code ibv_create_cq} with at least {@code entries} entries, optionally bound to a channel. */
    public CompletionQueue createCompletionQueue(int entries, CompletionChannel channel) {
        return new CompletionQueue(this, entries, channel);
    }

    @Override
    void release(MemorySegment handle) {
        verbs_h.ibv_close_device(releaseState(), handle);
    }
}
