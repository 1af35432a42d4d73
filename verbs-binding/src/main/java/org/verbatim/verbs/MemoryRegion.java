package org.verbatim.verbs;

import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.ops.MacroVerbs;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.ibv_mr;
import org.verbatim.verbs.raw.verbs_h;

/** A registered memory region ({@code struct ibv_mr}): the segment plus its local and remote keys. */
public final class MemoryRegion extends NativeResource {

    private final MemorySegment segment;
    private final int lkey;
    private final int rkey;

    MemoryRegion(ProtectionDomain pd, MemorySegment segment, int access) {
        super(pd);
        if (!segment.isNative()) {
            throw new IllegalArgumentException("only native segments can be registered");
        }
        this.segment = segment;
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        MemorySegment mr = Calls.nonNull(MacroVerbs.regMr(state, pd.handle(), segment, segment.byteSize(), access), state, "ibv_reg_mr");
        handle(mr);
        MemorySegment view = ibv_mr.reinterpret(mr);
        this.lkey = ibv_mr.lkey(view);
        this.rkey = ibv_mr.rkey(view);
    }

    /** The registered memory. */
    public MemorySegment segment() {
        checkOpen();
        return segment;
    }

    /** The local key, for scatter/gather entries. */
    public int lkey() {
        checkOpen();
        return lkey;
    }

    /** The remote key, for peers' RDMA to this region. */
    public int rkey() {
        checkOpen();
        return rkey;
    }

    @Override
    void release(MemorySegment handle) {
        verbs_h.ibv_dereg_mr(releaseState(), handle);
    }
}
