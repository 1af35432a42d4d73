package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import org.verbatim.datatype.CommittedType;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.op.ElementKind;
import org.verbatim.runtime.op.OpCode;
import org.verbatim.runtime.op.Reduction;

/**
 * The target data of one operation whose target datatype is not contiguous: {@code count}
 * elements of {@code type}, rebased so that every byte it touches lies in {@code [0, span)} from
 * the operation's target offset ({@link CommittedType#rebased()}). Origin and result data are
 * packed; these methods move packed bytes {@code [from, from + n)} of the message to or from
 * target memory whose slice starts at the layout's origin, block by block. Accumulates stay
 * element-atomic because the caller applies them under the target's accumulate lock (mapped
 * memory) or one record at a time (the target's runtime lock).
 *
 * @param type the rebased committed type
 * @param count elements
 * @param span bytes from the layout's origin to one past the last byte it touches
 * @param shift how far the origin moved: add it to the caller's target offset
 */
record TargetLayout(CommittedType type, long count, long span, long shift) {
    /** The layout of {@code count} x {@code type} at a target; ERR_TYPE for a negative extent. */
    static TargetLayout of(CommittedType type, long count) {
        CommittedType rebased = type.rebased();
        var shape = rebased.shape(count);
        if (shape.lowest() < 0) {
            throw new MpiError(ErrorClass.ERR_TYPE, "a target datatype whose elements step "
                    + "backwards (negative extent) is not supported for one-sided operations");
        }
        return new TargetLayout(rebased, count, shape.highest(), type.trueLb() < 0
                ? type.trueLb() : 0);
    }

    /** Writes packed {@code data} (from {@code at}) to packed bytes {@code [from, from+n)}. */
    void scatter(MemorySegment data, long at, MemorySegment target, long from, long n) {
        type.cursor(count).seek(from).unpack(data, at, target, n);
    }

    /** Reads packed bytes {@code [from, from+n)} of the target into {@code out} at {@code at}. */
    void gather(MemorySegment target, long from, long n, MemorySegment out, long at) {
        type.cursor(count).seek(from).pack(target, out, at, n);
    }

    /**
     * {@code target = origin op target} over packed bytes {@code [from, from+n)}, the origin's
     * packed bytes at {@code at}: the target's bytes are gathered, combined and scattered back.
     */
    void combine(OpCode op, ElementKind kind, MemorySegment origin, long at, MemorySegment target,
                 long from, long n) {
        if (op == OpCode.NO_OP || n == 0) {
            return;
        }
        MemorySegment staged = MemorySegment.ofArray(new byte[Math.toIntExact(n)]);
        gather(target, from, n, staged, 0);
        Reduction.reduce(op, kind, origin, at, staged, 0, n / kind.size());
        scatter(staged, 0, target, from, n);
    }
}
