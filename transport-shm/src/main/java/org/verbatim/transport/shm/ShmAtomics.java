package org.verbatim.transport.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.verbatim.spi.CompletionStatus;

/**
 * The 64-bit atomics, applied with CPU atomic instructions ({@code lock xadd}, {@code lock
 * cmpxchg}) on the word itself: by the target when it handles an emulated ATOMIC_REQUEST, by the
 * initiator when the word lies in a shared segment it has mapped. Both ways are atomic with
 * respect to each other and to the owner's own atomic accesses, because every one of them is a
 * hardware atomic on the same physical word.
 */
final class ShmAtomics {
    static final int FETCH_AND_ADD = 1;
    static final int COMPARE_AND_SWAP = 2;

    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private ShmAtomics() {
    }

    /**
     * Applies {@code opcode} to the 8-byte word at {@code offset} of {@code memory} and returns the
     * value found there. The word must be native and 8-byte aligned.
     */
    static long apply(MemorySegment memory, long offset, int opcode, long operand, long swap) {
        return switch (opcode) {
            case FETCH_AND_ADD -> (long) WORD.getAndAdd(memory, offset, operand);
            case COMPARE_AND_SWAP -> (long) WORD.compareAndExchange(memory, offset, operand, swap);
            default -> throw new IllegalStateException("unknown atomic opcode " + opcode);
        };
    }

    /** {@link CompletionStatus#OK}, or why an atomic on {@code address} cannot run. */
    static int checkAlignment(long address) {
        return (address & 7) == 0 ? CompletionStatus.OK : CompletionStatus.REMOTE_OPERATION_ERROR;
    }

    /** Writes an atomic's old value into the initiator's result buffer (native byte order). */
    static void deliver(MemorySegment result, long value) {
        result.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, value);
    }
}
