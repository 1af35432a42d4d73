package org.verbatim.verbs;

import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.verbs_h;

/** A protection domain ({@code ibv_alloc_pd}); its MRs, SRQs and QPs are closed before it. */
public final class ProtectionDomain extends NativeResource {

    private final Context context;

    ProtectionDomain(Context context) {
        super(context);
        this.context = context;
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        handle(Calls.nonNull(verbs_h.ibv_alloc_pd(state, context.handle()), state, "ibv_alloc_pd"));
    }

    /** The context this PD belongs to. */
    public Context context() {
        return context;
    }

    /**
     * Registers any native segment ({@code ibv_reg_mr} with the macro's rule); {@code access} is a
     * combination of {@code IBV_ACCESS_*} flags.
     */
    public MemoryRegion register(MemorySegment segment, int access) {
        return new MemoryRegion(this, segment, access);
    }

    /** {@code ibv_create_srq} with room for {@code maxWr} receives of {@code maxSge} entries each. */
    public SharedReceiveQueue createSharedReceiveQueue(int maxWr, int maxSge) {
        return new SharedReceiveQueue(this, maxWr, maxSge);
    }

    /** {@code ibv_create_qp} as described by {@code config}. */
    public QueuePair createQueuePair(QueuePairConfig config) {
        return new QueuePair(this, config);
    }

    /**
     * {@code ibv_create_ah} for unreliable-datagram sends to the port at {@code lid} (InfiniBand)
     * or {@code gid} sent from local GID {@code gidIndex} (RoCE; -1 for no global route).
     */
    public AddressHandle createAddressHandle(int port, int lid, byte[] gid, int gidIndex) {
        return new AddressHandle(this, port, lid, gid, gidIndex);
    }

    @Override
    void release(MemorySegment handle) {
        verbs_h.ibv_dealloc_pd(releaseState(), handle);
    }
}
