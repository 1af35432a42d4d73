package org.verbatim.verbs.ops;

import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.raw.ibv_port_attr;
import org.verbatim.verbs.raw.verbs_api_h_constants;
import org.verbatim.verbs.raw.verbs_h;

/** The verbs that {@code infiniband/verbs.h} defines as macros, with the macros' rules. */
public final class MacroVerbs {

    private MacroVerbs() { }

    /**
     * Whether {@code ibv_reg_mr} must go to {@code ibv_reg_mr_iova2}: access flags in
     * {@code IBV_ACCESS_OPTIONAL_RANGE} are only understood by the newer entry point.
     */
    public static boolean needsRegMrIova2(int access) {
        return (access & verbs_api_h_constants.IBV_ACCESS_OPTIONAL_RANGE) != 0;
    }

    /**
     * {@code ibv_reg_mr(pd, addr, length, access)}: {@code ibv_reg_mr_iova2(pd, addr, length,
     * (uintptr_t) addr, access)} when optional access flags are set, else the plain symbol.
     * Returns the {@code struct ibv_mr *} or NULL with errno in {@code callState}.
     */
    public static MemorySegment regMr(MemorySegment callState, MemorySegment pd, MemorySegment addr, long length, int access) {
        if (needsRegMrIova2(access)) {
            return verbs_h.ibv_reg_mr_iova2(callState, pd, addr, length, addr.address(), access);
        }
        return verbs_h.ibv_reg_mr(callState, pd, addr, length, access);
    }

    /**
     * {@code ibv_query_port(context, port, attr)}, i.e. {@code ___ibv_query_port}: the extended
     * {@code query_port} op with {@code sizeof(struct ibv_port_attr)} when the provider has it,
     * else zero the attributes and call the exported compatibility symbol.
     */
    public static int queryPort(ContextOps ops, MemorySegment callState, byte port, MemorySegment attr) {
        if (ops.hasExtendedQueryPort()) {
            return ops.queryPortExtended(port, attr);
        }
        attr.asSlice(0, ibv_port_attr.sizeof()).fill((byte) 0);
        return verbs_h.ibv_query_port(callState, ops.context(), port, attr);
    }
}
