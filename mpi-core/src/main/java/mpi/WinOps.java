package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.rma.RmaTarget;
import org.verbatim.runtime.rma.RmaWindow;
import org.verbatim.runtime.op.ElementKind;
import org.verbatim.runtime.op.OpCode;

/**
 * The data calls of {@link Win} (each its own try/catch to the window's error handler, no lambda
 * per call): checks the arguments, resolves origin and result memory and
 * builds the {@link RmaTarget} (the one place where a target datatype becomes target bytes:
 * a derived one goes as its committed layout), then calls the window. A derived origin type is
 * packed here (a result into one is staged and unpacked when it is complete). A call to {@link MPI#PROC_NULL}
 * does nothing. Request-based calls return a Request, the others null.
 *
 * <p>The commonest calls first try the window's "now" path ({@link RmaWindow#putNow} and the
 * like): origin and target of one type that is not a layout, the same count, direct buffers or
 * segments large enough, a valid rank and a displacement not negative. Those checks are all the
 * general path would make of such a call, so the window only adds its own (epoch, range) and
 * does the operation, with nothing allocated. When it declines, or the call is anything else,
 * the general path does the call and raises what is wrong with it.
 */
final class WinOps {
    private final Win win;
    /** Segments of the direct buffers of the last calls. */
    private final BufferSegments segments = new BufferSegments();

    WinOps(Win win) {
        this.win = win;
    }

    Request put(String call, Object origin, int orgCount, Datatype orgType, int targetRank,
                long targetDisp, int targetCount, Datatype targetType, boolean request)
            throws MPIException {
        MPI.check();
        try {
            RmaWindow w = win.impl(call);
            if (!request) {
                long n = nowBytes(orgCount, orgType, targetCount, targetType, targetRank,
                        targetDisp);
                MemorySegment m = n < 0 ? null : whole(origin, orgType, false, n);
                if (m != null && w.putNow(m, n, targetRank, targetDisp)) {
                    return null;
                }
            }
            MemorySegment o = origin(origin, orgCount, orgType, targetCount, targetType, false);
            if (targetRank == MPI.PROC_NULL) {
                return done(call, request);
            }
            RmaTarget t = target(w, targetRank, targetDisp, targetCount, targetType, true, null);
            return result(w.put(o, t, request), call, request, origin);
        } catch (MpiError | MPIException e) {
            throw win.raise(call, e);
        }
    }

    Request get(String call, Object origin, int orgCount, Datatype orgType, int targetRank,
                long targetDisp, int targetCount, Datatype targetType, boolean request)
            throws MPIException {
        MPI.check();
        try {
            RmaWindow w = win.impl(call);
            if (!request) {
                long n = nowBytes(orgCount, orgType, targetCount, targetType, targetRank,
                        targetDisp);
                MemorySegment m = n < 0 ? null : whole(origin, orgType, true, n);
                if (m != null && w.getNow(m, n, targetRank, targetDisp)) {
                    return null;
                }
            }
            Staged o = resultSide(origin, orgCount, orgType, targetCount, targetType);
            if (targetRank == MPI.PROC_NULL) {
                return done(call, request);
            }
            RmaTarget t = target(w, targetRank, targetDisp, targetCount, targetType, false,
                    o.unpack());
            return result(w.get(o.segment(), t, request), call, request, origin);
        } catch (MpiError | MPIException e) {
            throw win.raise(call, e);
        }
    }

    Request accumulate(String call, Object origin, int orgCount, Datatype orgType,
                       int targetRank, long targetDisp, int targetCount, Datatype targetType,
                       Op op, boolean request) throws MPIException {
        MPI.check();
        try {
            RmaWindow w = win.impl(call);
            OpCode code = opCode(op, targetType);
            if (!request) {
                long n = nowBytes(orgCount, orgType, targetCount, targetType, targetRank,
                        targetDisp);
                MemorySegment m = n < 0 ? null : whole(origin, orgType, false, n);
                ElementKind kind = m == null ? null : kindOf(targetType);
                if (kind != null && w.accumulateNow(m, null, n, kind, code, targetRank,
                        targetDisp)) {
                    return null;
                }
            }
            MemorySegment o = origin(origin, orgCount, orgType, targetCount, targetType, false);
            if (targetRank == MPI.PROC_NULL) {
                return done(call, request);
            }
            RmaTarget t = target(w, targetRank, targetDisp, targetCount, targetType, true, null);
            return result(w.accumulate(o, t, code, request), call, request, origin);
        } catch (MpiError | MPIException e) {
            throw win.raise(call, e);
        }
    }

    Request getAccumulate(String call, Object origin, int orgCount, Datatype orgType,
                          Object result, int resultCount, Datatype resultType, int targetRank,
                          long targetDisp, int targetCount, Datatype targetType, Op op,
                          boolean request) throws MPIException {
        MPI.check();
        try {
            RmaWindow w = win.impl(call);
            OpCode code = opCode(op, targetType);
            if (!request && resultType == targetType && resultCount == targetCount) {
                long n = nowBytes(orgCount, orgType, targetCount, targetType, targetRank,
                        targetDisp);
                MemorySegment r = n < 0 ? null : whole(result, resultType, true, n);
                MemorySegment o = r == null ? null : code == OpCode.NO_OP && origin == null
                        ? r : whole(origin, orgType, false, n);
                ElementKind kind = o == null ? null : kindOf(targetType);
                if (kind != null && w.accumulateNow(o, r, n, kind, code, targetRank,
                        targetDisp)) {
                    return null;
                }
            }
            MemorySegment o = code == OpCode.NO_OP && origin == null ? null
                    : origin(origin, orgCount, orgType, targetCount, targetType, false);
            Staged r = resultSide(result, resultCount, resultType, targetCount, targetType);
            if (targetRank == MPI.PROC_NULL) {
                return done(call, request);
            }
            RmaTarget t = target(w, targetRank, targetDisp, targetCount, targetType,
                    code != OpCode.NO_OP, r.unpack());
            return result(w.getAccumulate(o, r.segment(), t, code, request), call, request,
                    new Object[] {origin, result});
        } catch (MpiError | MPIException e) {
            throw win.raise(call, e);
        }
    }

    void compareAndSwap(Object origin, Object compare, Object result, Datatype type,
                        int targetRank, long targetDisp) throws MPIException {
        String call = "MPI_Compare_and_swap";
        MPI.check();
        try {
            RmaWindow w = win.impl(call);
            checkType(type);
            ElementKind kind = Op.elementKind(type);
            if (kind == null || kind.family() != ElementKind.Family.INTEGER) {
                throw MPIException.of(ErrorClass.ERR_TYPE, "compare-and-swap needs an integer, "
                        + "byte or boolean type, not " + type);
            }
            long n = nowBytes(1, type, 1, type, targetRank, targetDisp);
            if (n >= 0) {
                MemorySegment o = whole(origin, type, false, n);
                MemorySegment c = o == null ? null : whole(compare, type, false, n);
                MemorySegment r = c == null ? null : whole(result, type, true, n);
                if (r != null && w.compareAndSwapNow(o, c, r, n, targetRank, targetDisp)) {
                    return;
                }
            }
            MemorySegment o = origin(origin, 1, type, 1, type, false);
            MemorySegment c = origin(compare, 1, type, 1, type, false);
            MemorySegment r = resultSide(result, 1, type, 1, type).segment();
            if (targetRank == MPI.PROC_NULL) {
                return;
            }
            RmaTarget t = target(w, targetRank, targetDisp, 1, type, true, null);
            w.compareAndSwap(o, c, r, t);
        } catch (MpiError | MPIException e) {
            throw win.raise(call, e);
        }
    }

    /**
     * The bytes of a call the window may do at once ({@link RmaWindow#putNow}), or -1: origin and
     * target of the same usable type that is not a layout, the same count (not negative), a
     * rank in the window (not PROC_NULL) and a displacement not negative.
     */
    private long nowBytes(int count, Datatype type, int targetCount, Datatype targetType,
                          int rank, long disp) throws MPIException {
        if (type != targetType || count != targetCount || count < 0 || type == null
                || type.isLayout() || disp < 0 || rank < 0 || rank >= win.group().size()) {
            return -1;
        }
        type.check();
        return type.bytes(count);
    }

    /**
     * The memory of a call done at once: a direct buffer's or a segment, writable when it is
     * {@code written}, of at least {@code bytes}; else null (the general path decides).
     */
    private MemorySegment whole(Object buf, Datatype type, boolean written, long bytes)
            throws MPIException {
        MemorySegment m;
        if (buf instanceof Buffer b) {
            m = b.isDirect() && !(written && b.isReadOnly()) ? segments.whole(b, type) : null;
        } else if (buf instanceof MemorySegment s) {
            m = written && s.isReadOnly() ? null : s;
        } else {
            return null;
        }
        return m != null && m.byteSize() >= bytes ? m : null;
    }

    /** The element kind of {@code type}'s elements (a predefined type's), or null. */
    private static ElementKind kindOf(Datatype type) {
        return Op.elementKind(type.predefined || type.element == null ? type : type.element);
    }

    private Request done(String call, boolean request) {
        return request ? Request.completed(win.group().comm(), call) : null;
    }

    private Request result(RequestState state, String call, boolean request, Object keep) {
        return request ? win.request(state, call, keep) : null;
    }

    private static void checkType(Datatype type) throws MPIException {
        if (type == null) {
            throw MPIException.of(ErrorClass.ERR_TYPE, "datatype is null");
        }
        type.check();
    }

    /** Result memory and, for a derived origin type, what places the staged result in it. */
    private record Staged(MemorySegment segment, Runnable unpack) {
    }

    /**
     * Origin memory of {@code count} x {@code type}, matching the target data: the buffer itself
     * for a contiguous type, else the packed bytes of the elements (MPI lets the program not
     * touch the origin buffer until the operation completes, so packing now sends what it
     * would send later).
     */
    private MemorySegment origin(Object buf, int count, Datatype type, int targetCount,
                                        Datatype targetType, boolean written)
            throws MPIException {
        match(buf, count, type, targetCount, targetType);
        if (type.isLayout()) {
            return LayoutBuffers.pack(LayoutBuffers.forSend(buf, count, type));
        }
        if (buf instanceof Buffer b && b.isDirect() && !(written && b.isReadOnly())) {
            return Buffers.sized(segments.whole(b, type), buf, type, type.bytes(count));
        }
        return written ? Buffers.forReceive(buf, count, type)
                : Buffers.segment(buf, type, type.bytes(count));
    }

    /**
     * Result memory: the buffer itself for a contiguous type, else a packed staging segment and
     * the unpack the window runs when the result is complete (the gaps keep their values).
     */
    private Staged resultSide(Object buf, int count, Datatype type, int targetCount,
                                     Datatype targetType) throws MPIException {
        if (!type.isLayout()) {
            return new Staged(origin(buf, count, type, targetCount, targetType, true), null);
        }
        match(buf, count, type, targetCount, targetType);
        LayoutBuffers.Resolved r = LayoutBuffers.forReceive(buf, count, type);
        MemorySegment staging = MemorySegment.ofArray(new byte[Math.toIntExact(r.bytes())]);
        return new Staged(staging, () -> LayoutBuffers.unpack(staging, staging.byteSize(), r));
    }

    /** Origin and target data agree: counts, types usable, same element type, same bytes. */
    private static void match(Object buf, int count, Datatype type, int targetCount,
                              Datatype targetType) throws MPIException {
        if (count < 0 || targetCount < 0) {
            throw MPIException.of(ErrorClass.ERR_COUNT, "negative count "
                    + Math.min(count, targetCount));
        }
        checkType(type);
        checkType(targetType);
        Datatype e = type.predefined ? type : type.element;
        Datatype te = targetType.predefined ? targetType : targetType.element;
        if (e != null && te != null ? e != te : type.base != targetType.base) {
            throw MPIException.of(ErrorClass.ERR_TYPE, "origin datatype " + type
                    + " and target datatype " + targetType + " are not made of the same "
                    + "predefined type");
        }
        if (type.bytes(count) != targetType.bytes(targetCount)) {
            throw MPIException.of(ErrorClass.ERR_TYPE, count + " x " + type + " at the origin do "
                    + "not match " + targetCount + " x " + targetType + " at the target");
        }
        if (buf instanceof boolean[]) {
            throw MPIException.of(ErrorClass.ERR_BUFFER, "boolean[] is not window memory");
        }
    }

    /**
     * The target of {@code count} x {@code type}: the one place a target datatype is read. A
     * derived type that is not contiguous goes as its committed layout; one that would write a
     * byte twice ({@code written}) is refused, as it is for a receive.
     */
    private RmaTarget target(RmaWindow w, int rank, long disp, int count, Datatype type,
                             boolean written, Runnable resultUnpack) throws MPIException {
        WinArgs.checkRank(rank, win.group().size(), false);
        if (disp < 0 && w.flavor() != RmaWindow.FLAVOR_DYNAMIC) {
            throw MPIException.of(ErrorClass.ERR_DISP, "negative target displacement " + disp);
        }
        Datatype e = type.predefined || type.element == null ? type : type.element;
        ElementKind kind = Op.elementKind(e);
        kind = kind == null ? ElementKind.OPAQUE : kind;
        if (!type.isLayout()) {
            return new RmaTarget(rank, disp, type.bytes(count), kind, null, 0, resultUnpack);
        }
        if (written && type.form.overlaps(count)) {
            throw MPIException.of(ErrorClass.ERR_TYPE, "target type " + type + " (x" + count
                    + ") places two bytes at the same address");
        }
        return new RmaTarget(rank, disp, type.bytes(count), kind, type.form, count,
                resultUnpack);
    }

    private static OpCode opCode(Op op, Datatype targetType) throws MPIException {
        if (op == null) {
            throw MPIException.of(ErrorClass.ERR_OP, "operation is null");
        }
        if (op.code() == null) {
            throw MPIException.of(ErrorClass.ERR_OP, "one-sided accumulates take predefined "
                    + "operations only, not user functions");
        }
        checkType(targetType);
        op.check(targetType);
        return op.code();
    }
}
