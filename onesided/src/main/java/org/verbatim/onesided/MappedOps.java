package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.runtime.op.ElementKind;
import org.verbatim.runtime.op.OpCode;
import org.verbatim.runtime.op.Reduction;

/**
 * Operations with a contiguous target on memory every member maps (allocated windows on one
 * host), done by the caller at once, with nothing held, queued or allocated: a put or get is a
 * copy (a store or load for 8 B); accumulate, get-accumulate, fetch-and-op and compare-and-swap
 * run under the target's accumulate lock ({@link SharedControl}), which every origin takes for
 * them, so they stay element-atomic against each other and in order per origin, one element of
 * a predefined integer or floating-point type being a scalar load, combine and store. Complete at
 * the origin and the target on return, so that a flush needs no message.
 * Runs under the runtime's lock (the window's epoch state is checked there first).
 */
final class MappedOps {
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private final WindowMemory memory;
    private final RmaSettings settings;
    private final RmaCounters counters;

    MappedOps(WindowMemory memory, RmaSettings settings, RmaCounters counters) {
        this.memory = memory;
        this.settings = settings;
        this.counters = counters;
    }

    /**
     * True when operations with a contiguous target are done here: every member maps every
     * member's memory and loads and stores on it are allowed (verbatim.rma.direct-shared).
     */
    boolean active() {
        return memory.allMapped && settings.directShared();
    }

    /** Does one operation (its arguments as {@link HeldOp}'s). */
    void run(HeldOp.Kind kind, MemorySegment origin, MemorySegment result, MemorySegment compare,
             int target, long offset, long n, ElementKind elem, OpCode op) {
        switch (kind) {
            case PUT -> put(origin, target, offset, n);
            case GET -> get(result, target, offset, n);
            case ACC -> accumulate(origin, null, target, offset, n, elem, op);
            case GACC -> accumulate(origin, result, target, offset, n, elem, op);
            case CAS -> compareAndSwap(origin, compare, result, target, offset, n);
        }
    }

    void put(MemorySegment origin, int target, long offset, long n) {
        MemorySegment.copy(origin, 0, memory.mapped[target], offset, n);
        counters.direct++;
    }

    void get(MemorySegment result, int target, long offset, long n) {
        MemorySegment.copy(memory.mapped[target], offset, result, 0, n);
        counters.direct++;
    }

    /**
     * {@code target = origin op target} over {@code n} bytes of {@code kind} at {@code offset},
     * the bytes before it into {@code result} (when not null), under the accumulate lock.
     */
    void accumulate(MemorySegment origin, MemorySegment result, int target, long offset, long n,
                    ElementKind kind, OpCode op) {
        MemorySegment c = memory.control[target];
        MemorySegment t = memory.mapped[target];
        counters.direct++;
        SharedControl.lockAccumulate(c);
        try {
            if (result != null) {
                MemorySegment.copy(t, offset, result, 0, n);
            }
            if (op == OpCode.NO_OP) {
                return;
            }
            if (n != kind.size() || !one(op, kind, origin, t, offset)) {
                Reduction.reduce(op, kind, origin, 0, t, offset, n / kind.size());
            }
        } finally {
            SharedControl.unlockAccumulate(c);
        }
    }

    /** Compare-and-swap of one element of {@code n} bytes, under the accumulate lock. */
    void compareAndSwap(MemorySegment origin, MemorySegment compare, MemorySegment result,
                        int target, long offset, long n) {
        MemorySegment c = memory.control[target];
        MemorySegment t = memory.mapped[target];
        counters.direct++;
        SharedControl.lockAccumulate(c);
        try {
            if (n == 8) {
                long old = t.get(I64, offset);
                result.set(I64, 0, old);
                if (old == compare.get(I64, 0)) {
                    t.set(I64, offset, origin.get(I64, 0));
                }
            } else {
                MemorySegment.copy(t, offset, result, 0, n);
                if (t.asSlice(offset, n).mismatch(compare) == -1) {
                    MemorySegment.copy(origin, 0, t, offset, n);
                }
            }
        } finally {
            SharedControl.unlockAccumulate(c);
        }
    }

    /** The operations {@link #combine} computes for integers. */
    private static boolean integer(OpCode op) {
        return switch (op) {
            case SUM, REPLACE, MAX, MIN, BAND, BOR, BXOR, PROD -> true;
            default -> false;
        };
    }

    /** {@code x op y} for an operation {@link #integer} accepts (x the inout value). */
    private static long combine(OpCode op, long x, long y) {
        return switch (op) {
            case SUM -> x + y;
            case REPLACE -> y;
            case MAX -> x > y ? x : y;
            case MIN -> x < y ? x : y;
            case BAND -> x & y;
            case BOR -> x | y;
            case BXOR -> x ^ y;
            case PROD -> x * y;
            default -> throw new IllegalArgumentException("not an integer operation: " + op);
        };
    }

    /**
     * One element of the commonest kinds (as {@link Reduction} computes it: {@code in op inout},
     * C's MAX and MIN expressions with the inout value first); false for any other, which the
     * caller reduces in general.
     */
    private static boolean one(OpCode op, ElementKind kind, MemorySegment in, MemorySegment t,
                               long at) {
        switch (kind) {
            case INT64 -> {
                if (!integer(op)) {
                    return false;
                }
                t.set(I64, at, combine(op, t.get(I64, at), in.get(I64, 0)));
                return true;
            }
            case INT32 -> {
                if (!integer(op)) {
                    return false;
                }
                // Widened to long: sums, products and the bitwise operations agree in the low 32
                // bits, and MAX/MIN compare the sign-extended values as ints would.
                t.set(I32, at, (int) combine(op, t.get(I32, at), in.get(I32, 0)));
                return true;
            }
            case FLOAT64 -> {
                double x = t.get(F64, at);
                double y = in.get(F64, 0);
                double r;
                switch (op) {
                    case SUM -> r = x + y;
                    case MAX -> r = x > y ? x : y;
                    case MIN -> r = x < y ? x : y;
                    case PROD -> r = x * y;
                    default -> {
                        return false;
                    }
                }
                t.set(F64, at, r);
                return true;
            }
            default -> {
                return false;
            }
        }
    }
}
