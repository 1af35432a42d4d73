package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.verbatim.verbs.raw.ibv_send_wr;
import org.verbatim.verbs.raw.ibv_sge;

/**
 * A send work request built once ({@code struct ibv_send_wr} plus its gather list) and patched
 * per post: address, key and length, and the opcode's fields. No allocation per post.
 * Opcodes and flags are the {@code IBV_WR_*} and {@code IBV_SEND_*} constants.
 */
public final class SendRequest {

    private static final long SGE = ibv_sge.sizeof();
    private final MemorySegment wr;
    private final MemorySegment sges;
    private final int maxSge;

    /** Allocates the request with room for {@code maxSge} entries in {@code arena}. */
    public SendRequest(Arena arena, int maxSge) {
        this.wr = ibv_send_wr.allocate(arena);
        this.sges = ibv_sge.allocateArray(maxSge, arena);
        this.maxSge = maxSge;
        ibv_send_wr.sg_list(wr, sges);
        ibv_send_wr.num_sge(wr, 1);
    }

    /** Sets the id, opcode ({@code IBV_WR_*}) and flags ({@code IBV_SEND_*}). */
    public SendRequest operation(long wrId, int opcode, int flags) {
        ibv_send_wr.wr_id(wr, wrId);
        ibv_send_wr.opcode(wr, opcode);
        ibv_send_wr.send_flags(wr, flags);
        return this;
    }

    /** Sets gather entry {@code i}. */
    public SendRequest entry(int i, long address, int length, int lkey) {
        long at = SGE * Objects.checkIndex(i, maxSge);
        MemorySegment sge = sges.asSlice(at, SGE);
        ibv_sge.addr(sge, address);
        ibv_sge.length(sge, length);
        ibv_sge.lkey(sge, lkey);
        return this;
    }

    /** Sets how many gather entries are used; 0 for a zero-length operation (no gather list). */
    public SendRequest entries(int count) {
        ibv_send_wr.num_sge(wr, Objects.checkIndex(count, maxSge + 1));
        return this;
    }

    /** Sets the remote address and key of an RDMA read or write. */
    public SendRequest remote(long address, int rkey) {
        MemorySegment rdma = ibv_send_wr.wr.rdma(ibv_send_wr.wr(wr));
        ibv_send_wr.wr.rdma.remote_addr(rdma, address);
        ibv_send_wr.wr.rdma.rkey(rdma, rkey);
        return this;
    }

    /** Sets the immediate data (host order) of a send or write with immediate. */
    public SendRequest immediate(int value) {
        ibv_send_wr.imm_data(wr, Integer.reverseBytes(value));
        return this;
    }

    /** Sets the UD destination: address handle, remote QP number and Q_Key. */
    public SendRequest datagram(MemorySegment addressHandle, int remoteQpn, int qkey) {
        MemorySegment ud = ibv_send_wr.wr.ud(ibv_send_wr.wr(wr));
        ibv_send_wr.wr.ud.ah(ud, addressHandle);
        ibv_send_wr.wr.ud.remote_qpn(ud, remoteQpn);
        ibv_send_wr.wr.ud.remote_qkey(ud, qkey);
        return this;
    }

    /** The native request (for posting). */
    MemorySegment segment() {
        return wr;
    }
}
