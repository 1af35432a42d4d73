package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.ibv_context;
import org.verbatim.verbs.raw.verbs_h;
import org.verbatim.verbs.raw.rdma_cm_id;
import org.verbatim.verbs.raw.rdma_cma_h;
import org.verbatim.verbs.raw.rdma_cma_h_constants;
import org.verbatim.verbs.raw.rdma_conn_param;

/**
 * An RDMA CM identifier ({@code struct rdma_cm_id}): resolve address and route, listen,
 * connect, accept, disconnect. Outcomes arrive as {@link CmEvent}s on its {@link EventChannel}.
 */
public final class CmId extends NativeResource {

    CmId(EventChannel channel) {
        super(channel);
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        MemorySegment out = arena().allocate(ValueLayout.ADDRESS);
        Calls.zero(rdma_cma_h.rdma_create_id(state, channel.handle(), out, MemorySegment.NULL, rdma_cma_h_constants.RDMA_PS_TCP),
                state, "rdma_create_id");
        handle(out.get(ValueLayout.ADDRESS, 0));
    }

    /** Takes ownership of an id librdmacm created for a CONNECT_REQUEST ({@link CmEvent#id()}). */
    private CmId(EventChannel channel, long id) {
        super(channel);
        handle(MemorySegment.ofAddress(id));
    }

    /**
     * The id of a CONNECT_REQUEST event, owned from here: accept or reject it, and close it
     * (which destroys it) like any other id.
     */
    public static CmId ofRequest(EventChannel channel, CmEvent request) {
        if (!request.isConnectRequest()) {
            throw new IllegalArgumentException("not a connect request: event " + request.type());
        }
        return new CmId(channel, request.id());
    }

    /** The address of the native id, as events report it ({@link CmEvent#id()}). */
    public long address() {
        return handle().address();
    }

    /**
     * The name of the device the id is bound to ({@code id->verbs->device}) once its address is
     * bound or resolved, else null (an address on no RDMA device).
     */
    public String deviceName() {
        MemorySegment verbs = verbsContext();
        if (verbs.address() == 0) {
            return null;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment device = ibv_context.device(verbs.reinterpret(ibv_context.sizeof()));
            return verbs_h.ibv_get_device_name(RuntimeHelper.allocateCallState(a), device).reinterpret(256).getString(0);
        }
    }

    /** The local port of the id ({@code rdma_get_src_port}), host order; after bind or resolve. */
    public int localPort() {
        checkOpen();
        try (Arena a = Arena.ofConfined()) {
            short port = rdma_cma_h.rdma_get_src_port(RuntimeHelper.allocateCallState(a), handle());
            return Short.toUnsignedInt(Short.reverseBytes(port));
        }
    }

    /** {@code rdma_reject} of a CONNECT_REQUEST, with {@code privateData} for the requester. */
    public void reject(byte[] privateData) {
        call((s, a) -> rdma_cma_h.rdma_reject(s, handle(),
                privateData.length == 0 ? MemorySegment.NULL : a.allocateFrom(ValueLayout.JAVA_BYTE, privateData),
                (byte) privateData.length), "rdma_reject");
    }

    /** The verbs context the id is bound to once its address is resolved or bound (NULL before). */
    public MemorySegment verbsContext() {
        return rdma_cm_id.verbs(rdma_cm_id.reinterpret(handle()));
    }

    /** {@code rdma_bind_addr}. */
    public void bind(InetSocketAddress local) {
        call((s, a) -> rdma_cma_h.rdma_bind_addr(s, handle(), SocketAddresses.of(local, a)), "rdma_bind_addr");
    }

    /** {@code rdma_resolve_addr}: completes with ADDR_RESOLVED. */
    public void resolveAddress(InetSocketAddress remote, int timeoutMs) {
        call((s, a) -> rdma_cma_h.rdma_resolve_addr(s, handle(), MemorySegment.NULL, SocketAddresses.of(remote, a), timeoutMs),
                "rdma_resolve_addr");
    }

    /** {@code rdma_resolve_route}: completes with ROUTE_RESOLVED. */
    public void resolveRoute(int timeoutMs) {
        call((s, a) -> rdma_cma_h.rdma_resolve_route(s, handle(), timeoutMs), "rdma_resolve_route");
    }

    /** {@code rdma_listen}. */
    public void listen(int backlog) {
        call((s, a) -> rdma_cma_h.rdma_listen(s, handle(), backlog), "rdma_listen");
    }

    /** {@code rdma_connect} with one outstanding RDMA read each way and retries ({@link CmConnectParameters#DEFAULT}). */
    public void connect() {
        connect(CmConnectParameters.DEFAULT);
    }

    /**
     * {@code rdma_connect} with {@code params}: initiator depth, responder resources, retries and
     * private data for the peer's CONNECT_REQUEST event. Completes with ESTABLISHED (or REJECTED,
     * UNREACHABLE).
     */
    public void connect(CmConnectParameters params) {
        call((s, a) -> rdma_cma_h.rdma_connect(s, handle(), connParam(a, params)), "rdma_connect");
    }

    /**
     * {@code rdma_connect} for a queue pair that is not the id's own: one made with
     * {@code ibv_create_qp} on a context the caller opened, whose number travels in
     * {@code conn_param.qp_num} (librdmacm's rule when the id has no queue pair). On iWARP the
     * kernel then moves that queue pair to RTS when the MPA exchange completes.
     */
    public void connect(CmConnectParameters params, QueuePair qp) {
        call((s, a) -> rdma_cma_h.rdma_connect(s, handle(), withQueuePair(connParam(a, params), qp)), "rdma_connect");
    }

    /** {@code rdma_accept} on the id of a CONNECT_REQUEST ({@link CmConnectParameters#DEFAULT}). */
    public void accept() {
        accept(CmConnectParameters.DEFAULT);
    }

    /**
     * {@code rdma_accept} on the id of a CONNECT_REQUEST with {@code params}; its private data
     * reaches the connecting side with its ESTABLISHED event.
     */
    public void accept(CmConnectParameters params) {
        call((s, a) -> rdma_cma_h.rdma_accept(s, handle(), connParam(a, params)), "rdma_accept");
    }

    /** {@code rdma_accept} for a queue pair that is not the id's own (see {@link #connect(CmConnectParameters, QueuePair)}). */
    public void accept(CmConnectParameters params, QueuePair qp) {
        call((s, a) -> rdma_cma_h.rdma_accept(s, handle(), withQueuePair(connParam(a, params), qp)), "rdma_accept");
    }

    private static MemorySegment withQueuePair(MemorySegment param, QueuePair qp) {
        rdma_conn_param.qp_num(param, qp.qpNum());
        return param;
    }

    /**
     * {@code rdma_create_qp}: creates the queue pair of this id in {@code pd} as {@code config}
     * describes (its CQs, SRQ, sizes) and binds it to the id, which then moves it through INIT,
     * RTR and RTS itself during connect or accept (no {@code toInit}/{@code toRtr}/{@code toRts}).
     * The id must be bound to a device first (address resolved, or a CONNECT_REQUEST's id), and
     * {@code pd} must belong to that device. The queue pair is closed with the id, or before it.
     */
    public QueuePair createQueuePair(ProtectionDomain pd, QueuePairConfig config) {
        checkOpen();
        return new QueuePair(this, pd, config);
    }

    /** {@code rdma_disconnect}. */
    public void disconnect() {
        call((s, a) -> rdma_cma_h.rdma_disconnect(s, handle()), "rdma_disconnect");
    }

    private static MemorySegment connParam(Arena a, CmConnectParameters params) {
        MemorySegment p = rdma_conn_param.allocate(a);
        rdma_conn_param.responder_resources(p, (byte) params.responderResources());
        rdma_conn_param.initiator_depth(p, (byte) params.initiatorDepth());
        rdma_conn_param.retry_count(p, (byte) params.retryCount());
        rdma_conn_param.rnr_retry_count(p, (byte) params.rnrRetryCount());
        byte[] data = params.privateData();
        if (data.length > 0) {
            rdma_conn_param.private_data(p, a.allocateFrom(ValueLayout.JAVA_BYTE, data));
            rdma_conn_param.private_data_len(p, (byte) data.length);
        }
        return p;
    }

    private interface Call {
        int invoke(MemorySegment state, Arena arena);
    }

    private void call(Call call, String name) {
        checkOpen();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = RuntimeHelper.allocateCallState(a);
            Calls.zero(call.invoke(state, a), state, name);
        }
    }

    @Override
    void release(MemorySegment handle) {
        rdma_cma_h.rdma_destroy_id(releaseState(), handle);
    }
}
