package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.raw.ibv_recv_wr;
import org.verbatim.verbs.raw.ibv_sge;

/**
 * A receive work request built once ({@code struct ibv_recv_wr} plus its scatter list) and
 * patched per post: the id and each entry's address, length and key. No allocation per post.
 */
public final class ReceiveRequest {

    private final MemorySegment wr;
    private final MemorySegment sges;
    private final int maxSge;

    /** Allocates the request with room for {@code maxSge} entries in {@code arena}. */
    public ReceiveRequest(Arena arena, int maxSge) {
        this.wr = ibv_recv_wr.allocate(arena);
        this.sges = ibv_sge.allocateArray(maxSge, arena);
        this.maxSge = maxSge;
        ibv_recv_wr.sg_list(wr, sges);
        ibv_recv_wr.num_sge(wr, 1);
    }

    /** Sets the id reported in the completion. */
    public ReceiveRequest wrId(long id) {
        ibv_recv_wr.wr_id(wr, id);
        return this;
    }

    /** Sets scatter entry {@code i}. */
    public ReceiveRequest entry(int i, long address, int length, int lkey) {
        MemorySegment sge = sges.asSlice(ibv_sge.sizeof() * java.util.Objects.checkIndex(i, maxSge), ibv_sge.sizeof());
        ibv_sge.addr(sge, address);
        ibv_sge.length(sge, length);
        ibv_sge.lkey(sge, lkey);
        return this;
    }

    /** Sets how many scatter entries are used. */
    public ReceiveRequest entries(int count) {
        ibv_recv_wr.num_sge(wr, java.util.Objects.checkIndex(count - 1, maxSge) + 1);
        return this;
    }

    /** The native request (for posting). */
    MemorySegment segment() {
        return wr;
    }
}
