package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.raw.ibv_wc;

/**
 * A reusable array of {@code struct ibv_wc} that {@link CompletionQueue#poll} fills; read entry
 * {@code i} with the accessors below. Allocated once, so polling allocates nothing.
 */
public final class WorkCompletions {

    private static final long SIZE = ibv_wc.sizeof();
    private final MemorySegment array;
    private final int capacity;

    /** Allocates room for {@code capacity} completions in {@code arena}. */
    public WorkCompletions(Arena arena, int capacity) {
        this.array = ibv_wc.allocateArray(capacity, arena);
        this.capacity = capacity;
    }

    /** How many completions one poll may return. */
    public int capacity() {
        return capacity;
    }

    MemorySegment segment() {
        return array;
    }

    /** The work request id of entry {@code i}. */
    public long wrId(int i) {
        return array.get(java.lang.foreign.ValueLayout.JAVA_LONG, i * SIZE + ibv_wc.wr_id$OFFSET);
    }

    /** The {@code enum ibv_wc_status} of entry {@code i} (0 = success). */
    public int status(int i) {
        return array.get(java.lang.foreign.ValueLayout.JAVA_INT, i * SIZE + ibv_wc.status$OFFSET);
    }

    /** The {@code enum ibv_wc_opcode} of entry {@code i}. */
    public int opcode(int i) {
        return array.get(java.lang.foreign.ValueLayout.JAVA_INT, i * SIZE + ibv_wc.opcode$OFFSET);
    }

    /** Bytes received by entry {@code i}. */
    public int byteLength(int i) {
        return array.get(java.lang.foreign.ValueLayout.JAVA_INT, i * SIZE + ibv_wc.byte_len$OFFSET);
    }

    /** The immediate data of entry {@code i}, in host order. */
    public int immediate(int i) {
        return Integer.reverseBytes(array.get(java.lang.foreign.ValueLayout.JAVA_INT, i * SIZE + ibv_wc.imm_data$OFFSET));
    }

    /** The local QP number of entry {@code i}. */
    public int qpNum(int i) {
        return array.get(java.lang.foreign.ValueLayout.JAVA_INT, i * SIZE + ibv_wc.qp_num$OFFSET);
    }

    /** The remote QP number of entry {@code i} (UD). */
    public int sourceQp(int i) {
        return array.get(java.lang.foreign.ValueLayout.JAVA_INT, i * SIZE + ibv_wc.src_qp$OFFSET);
    }

    /** The {@code IBV_WC_*} flags of entry {@code i}. */
    public int flags(int i) {
        return array.get(java.lang.foreign.ValueLayout.JAVA_INT, i * SIZE + ibv_wc.wc_flags$OFFSET);
    }
}
