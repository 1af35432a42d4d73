package org.verbatim.spi;

/**
 * Remote atomic operations on naturally aligned 64-bit words in registered memory, as verbs
 * defines them ({@code IBV_WR_ATOMIC_FETCH_AND_ADD}, {@code IBV_WR_ATOMIC_CMP_AND_SWP}). The value
 * found at the target before the operation lands in the initiator's 8-byte result buffer. Words
 * are read and written in the target's native byte order.
 */
public enum AtomicOp {
    /** Adds an operand to the remote word; returns the old value. */
    FETCH_AND_ADD,
    /** Replaces the remote word by {@code desired} if it equals {@code expected}; returns the old value. */
    COMPARE_AND_SWAP
}
