package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import org.verbatim.verbs.raw.ibv_send_wr;
import org.verbatim.verbs.raw.ibv_sge;

/**
 * A send work request built once ({@code struct ibv_send_wr} plus its gather list) and patched
 * per post: address, key and length, and the opcode's fields. No allocation per post: the
 * nested parts of the request (RDMA, atomic and datagram fields) are sliced once here, gather
 * entries are written at computed offsets. Opcodes and flags are the {@code IBV_WR_*} and
 * {@code IBV_SEND_*} constants.
 *
 * <p>Requests can be chained ({@link #next}) so that one {@link QueuePair#post(SendRequest)}
 * hands several to the device with one doorbell; the chain ends at a request whose next is
 * {@code null}. A request may carry up to {@link #maxEntries()} gather entries (multi-SGE
 * writes and sends; scatter entries of an RDMA read), at most what its queue pair was created
 * with ({@link QueuePair#maxSendSge()}).
 */
public final class SendRequest {

    private static final long SGE = ibv_sge.sizeof();
    private static final long SGE_ADDR = ibv_sge.addr$OFFSET;
    private static final long SGE_LENGTH = ibv_sge.length$OFFSET;
    private static final long SGE_LKEY = ibv_sge.lkey$OFFSET;
    private final MemorySegment wr;
    private final MemorySegment sges;
    private final MemorySegment rdma;
    private final MemorySegment atomic;
    private final MemorySegment ud;
    private final int maxSge;

    /** Allocates the request with room for {@code maxSge} entries in {@code arena}. */
    public SendRequest(Arena arena, int maxSge) {
        if (maxSge < 1) {
            throw new IllegalArgumentException("a send request needs room for one entry at least: " + maxSge);
        }
        this.wr = ibv_send_wr.allocate(arena);
        this.sges = ibv_sge.allocateArray(maxSge, arena);
        this.maxSge = maxSge;
        MemorySegment union = ibv_send_wr.wr(wr);
        this.rdma = ibv_send_wr.wr.rdma(union);
        this.atomic = ibv_send_wr.wr.atomic(union);
        this.ud = ibv_send_wr.wr.ud(union);
        ibv_send_wr.sg_list(wr, sges);
        ibv_send_wr.num_sge(wr, 1);
        ibv_send_wr.next(wr, MemorySegment.NULL);
    }

    /** Sets the id, opcode ({@code IBV_WR_*}) and flags ({@code IBV_SEND_*}, e.g. SIGNALED, INLINE, FENCE). */
    public SendRequest operation(long wrId, int opcode, int flags) {
        ibv_send_wr.wr_id(wr, wrId);
        ibv_send_wr.opcode(wr, opcode);
        ibv_send_wr.send_flags(wr, flags);
        return this;
    }

    /** Sets the id only (the {@code wr_id} that its work completion carries). */
    public SendRequest id(long wrId) {
        ibv_send_wr.wr_id(wr, wrId);
        return this;
    }

    /** Sets gather entry {@code i} (scatter entry for an RDMA read or atomic result). */
    public SendRequest entry(int i, long address, int length, int lkey) {
        long at = SGE * Objects.checkIndex(i, maxSge);
        sges.set(ValueLayout.JAVA_LONG, at + SGE_ADDR, address);
        sges.set(ValueLayout.JAVA_INT, at + SGE_LENGTH, length);
        sges.set(ValueLayout.JAVA_INT, at + SGE_LKEY, lkey);
        return this;
    }

    /** Sets how many gather entries are used; 0 for a zero-length operation (no gather list). */
    public SendRequest entries(int count) {
        ibv_send_wr.num_sge(wr, Objects.checkIndex(count, maxSge + 1));
        return this;
    }

    /** The most gather entries this request has room for. */
    public int maxEntries() {
        return maxSge;
    }

    /** Sets the remote address and key of an RDMA read or write. */
    public SendRequest remote(long address, int rkey) {
        ibv_send_wr.wr.rdma.remote_addr(rdma, address);
        ibv_send_wr.wr.rdma.rkey(rdma, rkey);
        return this;
    }

    /**
     * Sets the fields of a remote atomic ({@code IBV_WR_ATOMIC_FETCH_AND_ADD}: {@code compareAdd}
     * is the addend, {@code swap} unused; {@code IBV_WR_ATOMIC_CMP_AND_SWP}: {@code compareAdd}
     * is compared, {@code swap} written on equality) on the 8-byte aligned word at
     * {@code address}. The old value lands in the request's single 8-byte scatter entry.
     */
    public SendRequest atomic(long address, int rkey, long compareAdd, long swap) {
        ibv_send_wr.wr.atomic.remote_addr(atomic, address);
        ibv_send_wr.wr.atomic.rkey(atomic, rkey);
        ibv_send_wr.wr.atomic.compare_add(atomic, compareAdd);
        ibv_send_wr.wr.atomic.swap(atomic, swap);
        return this;
    }

    /** Sets the immediate data (host order) of a send or write with immediate. */
    public SendRequest immediate(int value) {
        ibv_send_wr.imm_data(wr, Integer.reverseBytes(value));
        return this;
    }

    /** Sets the UD destination: address handle, remote QP number and Q_Key. */
    public SendRequest datagram(MemorySegment addressHandle, int remoteQpn, int qkey) {
        ibv_send_wr.wr.ud.ah(ud, addressHandle);
        ibv_send_wr.wr.ud.remote_qpn(ud, remoteQpn);
        ibv_send_wr.wr.ud.remote_qkey(ud, qkey);
        return this;
    }

    /**
     * Chains {@code following} after this request (its {@code next} pointer), or ends the chain
     * here with {@code null}. Posting this request then posts the whole chain, in order.
     */
    public SendRequest next(SendRequest following) {
        ibv_send_wr.next(wr, following == null ? MemorySegment.NULL : following.wr);
        return this;
    }

    /**
     * The native address of this request: compare with {@link QueuePair#badRequest()} to find
     * where a chained post stopped.
     */
    public long address() {
        return wr.address();
    }

    /** The native request (for posting). */
    MemorySegment segment() {
        return wr;
    }
}
