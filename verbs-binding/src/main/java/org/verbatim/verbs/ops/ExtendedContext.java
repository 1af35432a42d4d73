package org.verbatim.verbs.ops;

import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.raw.ibv_context;
import org.verbatim.verbs.raw.verbs_context;

/**
 * The {@code struct verbs_context} that an extended provider allocates around its
 * {@code struct ibv_context}: {@code verbs_get_ctx} and {@code verbs_get_ctx_op} in Java.
 */
public final class ExtendedContext {

    /** {@code __VERBS_ABI_IS_EXTENDED}: {@code (void *) UINTPTR_MAX}. */
    static final long ABI_IS_EXTENDED = -1L;

    private final MemorySegment verbsContext;
    private final long size;

    private ExtendedContext(MemorySegment verbsContext) {
        this.verbsContext = verbsContext;
        this.size = verbs_context.sz(verbsContext);
    }

    /**
     * {@code verbs_get_ctx}: the verbs_context below {@code context}, or null when the context is
     * not extended ({@code abi_compat != __VERBS_ABI_IS_EXTENDED}).
     */
    public static ExtendedContext of(MemorySegment context) {
        MemorySegment ctx = ibv_context.reinterpret(context);
        if (ibv_context.abi_compat(ctx).address() != ABI_IS_EXTENDED) {
            return null;
        }
        long base = context.address() - verbs_context.context$OFFSET;
        return new ExtendedContext(verbs_context.reinterpret(MemorySegment.ofAddress(base)));
    }

    /**
     * {@code verbs_get_ctx_op}: the function pointer of op {@code name}, or {@link MemorySegment#NULL}
     * if the provider's verbs_context is too small to hold it ({@code sz < sizeof(struct verbs_context)
     * - offsetof(struct verbs_context, op)}) or leaves it NULL.
     */
    public MemorySegment op(String name) {
        long offset = verbs_context.LAYOUT.byteOffset(PathElement.groupElement(name));
        if (size < verbs_context.sizeof() - offset) {
            return MemorySegment.NULL;
        }
        return verbsContext.get(java.lang.foreign.ValueLayout.ADDRESS, offset);
    }

    /** The provider's {@code sz} field: how much of the struct (counted from its end) it fills. */
    public long size() {
        return size;
    }
}
