package org.verbatim.verbs.ops;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.verbatim.verbs.raw.ibv_context;
import org.verbatim.verbs.raw.ibv_context_ops;
import org.verbatim.verbs.raw.ibv_port_attr;

/**
 * The {@code static inline} verbs of one device context. The function pointers are read once,
 * at construction, from {@code context->ops} and from the extended {@code verbs_context}; the
 * downcall handles are {@code static final} and take the pointer as their first argument, so a
 * call allocates nothing. The data-path handles are {@link Linker.Option#critical critical}:
 * providers' post and poll functions neither block nor call back into Java.
 *
 * <p>Like the C inlines, each method trusts that the object belongs to this context.
 */
public final class ContextOps {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);
    /** int (*)(void *obj, void *wr, void **bad): post_send, post_recv, post_srq_recv. */
    private static final MethodHandle POST = LINKER.downcallHandle(
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), CRITICAL);
    /** int (*)(struct ibv_cq *, int, struct ibv_wc *). */
    private static final MethodHandle POLL_CQ = LINKER.downcallHandle(
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), CRITICAL);
    /** int (*)(struct ibv_cq *, int solicited_only). */
    private static final MethodHandle REQ_NOTIFY_CQ = LINKER.downcallHandle(
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    /** int (*)(struct ibv_context *, uint8_t, struct ibv_port_attr *, size_t). */
    private static final MethodHandle QUERY_PORT = LINKER.downcallHandle(
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS, JAVA_LONG));
    /** int (*)(struct ibv_cq *, struct ibv_modify_cq_attr *). */
    private static final MethodHandle MODIFY_CQ = LINKER.downcallHandle(
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    /** errno values the C inlines return when an op is missing. */
    static final int ENOSYS = 38;
    static final int EOPNOTSUPP = 95;

    private final MemorySegment context;
    private final MemorySegment postSend;
    private final MemorySegment postRecv;
    private final MemorySegment postSrqRecv;
    private final MemorySegment pollCq;
    private final MemorySegment reqNotifyCq;
    private final MemorySegment queryPort;
    private final MemorySegment modifyCq;

    private ContextOps(MemorySegment context) {
        this.context = context;
        MemorySegment ops = ibv_context.ops(ibv_context.reinterpret(context));
        postSend = ibv_context_ops.post_send(ops);
        postRecv = ibv_context_ops.post_recv(ops);
        postSrqRecv = ibv_context_ops.post_srq_recv(ops);
        pollCq = ibv_context_ops.poll_cq(ops);
        reqNotifyCq = ibv_context_ops.req_notify_cq(ops);
        ExtendedContext extended = ExtendedContext.of(context);
        queryPort = extended == null ? MemorySegment.NULL : extended.op("query_port");
        modifyCq = extended == null ? MemorySegment.NULL : extended.op("modify_cq");
    }

    /** Reads and caches the ops of an open {@code struct ibv_context *}. */
    public static ContextOps of(MemorySegment context) {
        if (context.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("NULL ibv_context");
        }
        return new ContextOps(context);
    }

    /** The context these ops belong to. */
    public MemorySegment context() {
        return context;
    }

    /** {@code ibv_post_send(qp, wr, bad_wr)}: 0, or an errno value with {@code *bad_wr} set. */
    public int postSend(MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        return post(postSend, qp, wr, badWr);
    }

    /** {@code ibv_post_recv(qp, wr, bad_wr)}. */
    public int postRecv(MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        return post(postRecv, qp, wr, badWr);
    }

    /** {@code ibv_post_srq_recv(srq, wr, bad_wr)}. */
    public int postSrqRecv(MemorySegment srq, MemorySegment wr, MemorySegment badWr) {
        return post(postSrqRecv, srq, wr, badWr);
    }

    private static int post(MemorySegment fn, MemorySegment obj, MemorySegment wr, MemorySegment badWr) {
        try {
            return (int) POST.invokeExact(fn, obj, wr, badWr);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code ibv_poll_cq(cq, num_entries, wc)}: completions written, or negative on error. */
    public int pollCq(MemorySegment cq, int numEntries, MemorySegment wc) {
        try {
            return (int) POLL_CQ.invokeExact(pollCq, cq, numEntries, wc);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code ibv_req_notify_cq(cq, solicited_only)}. */
    public int reqNotifyCq(MemorySegment cq, boolean solicitedOnly) {
        try {
            return (int) REQ_NOTIFY_CQ.invokeExact(reqNotifyCq, cq, solicitedOnly ? 1 : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Whether the provider has the extended {@code query_port} op ({@code ibv_query_port}'s fast path). */
    public boolean hasExtendedQueryPort() {
        return !queryPort.equals(MemorySegment.NULL);
    }

    /**
     * The extended branch of {@code ___ibv_query_port}: {@code vctx->query_port(context, port,
     * attr, sizeof(*attr))}. Callers use {@link MacroVerbs#queryPort} for the complete rule.
     */
    int queryPortExtended(byte port, MemorySegment attr) {
        try {
            return (int) QUERY_PORT.invokeExact(queryPort, context, port, attr, ibv_port_attr.sizeof());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code ibv_modify_cq(cq, attr)}: EOPNOTSUPP when the provider lacks the op. */
    public int modifyCq(MemorySegment cq, MemorySegment attr) {
        if (modifyCq.equals(MemorySegment.NULL)) {
            return EOPNOTSUPP;
        }
        try {
            return (int) MODIFY_CQ.invokeExact(modifyCq, cq, attr);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new AssertionError(t);
    }
}
