package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.op.ElementKind;
import org.verbatim.runtime.op.OpCode;

/**
 * One RMA operation between its call and its issue: held by the scheduler until the epoch's
 * synchronisation call, or issued at once.
 *
 * @param offset byte offset in the target's memory (an address for dynamic windows)
 * @param request completes with the result (operations with a result), else null
 * @param layout the target data's layout when it is not contiguous (its origin at
 *               {@code offset}), else null; origin and result data are packed either way
 */
record HeldOp(Kind kind, MemorySegment origin, MemorySegment result, MemorySegment compare,
              int target, long offset, long bytes, ElementKind elem, OpCode op,
              RmaRequest request, TargetLayout layout) {
    enum Kind {
        PUT(RmaWire.PUT), GET(RmaWire.GET), ACC(RmaWire.ACC), GACC(RmaWire.GACC),
        CAS(RmaWire.CAS);

        final int wire;

        Kind(int wire) {
            this.wire = wire;
        }

        boolean hasResult() {
            return this == GET || this == GACC || this == CAS;
        }
    }
}
