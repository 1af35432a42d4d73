package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.rma.RmaTarget;
import org.verbatim.runtime.rma.RmaWindow;
import org.verbatim.runtime.op.ElementKind;
import org.verbatim.runtime.op.OpCode;

/**
 * The data calls of {@link Win}: checks the arguments, resolves origin and result memory and
 * builds the {@link RmaTarget} (the one place where a target datatype becomes target bytes:
 * a derived one goes as its committed layout), then calls the window. A derived origin type is
 * packed here (a result into one is staged and unpacked when it is complete). A call to {@link MPI#PROC_NULL}
 * does nothing. Request-based calls return a Request, the others null.
 */
final class WinOps {
    private final Win win;

    WinOps(Win win) {
        this.win = win;
    }

    Request put(String call, Object origin, int orgCount, Datatype orgType, int targetRank,
                long targetDisp, int targetCount, Datatype targetType, boolean request)
            throws MPIException {
        return win.wrap(call, () -> {
            RmaWindow w = win.impl(call);
            MemorySegment o = origin(origin, orgCount, orgType, targetCount, targetType, false);
            if (targetRank == MPI.PROC_NULL) {
                return done(call, request);
            }
            RmaTarget t = target(w, targetRank, targetDisp, targetCount, targetType, true, null);
            return result(w.put(o, t, request), call, request, origin);
        });
    }

    Request get(String call, Object origin, int orgCount, Datatype orgType, int targetRank,
                long targetDisp, int targetCount, Datatype targetType, boolean request)
            throws MPIException {
        return win.wrap(call, () -> {
            RmaWindow w = win.impl(call);
            Staged o = resultSide(origin, orgCount, orgType, targetCount, targetType);
            if (targetRank == MPI.PROC_NULL) {
                return done(call, request);
            }
            RmaTarget t = target(w, targetRank, targetDisp, targetCount, targetType, false,
                    o.unpack());
            return result(w.get(o.segment(), t, request), call, request, origin);
        });
    }

    Request accumulate(String call, Object origin, int orgCount, Datatype orgType,
                       int targetRank, long targetDisp, int targetCount, Datatype targetType,
                       Op op, boolean request) throws MPIException {
        return win.wrap(call, () -> {
            RmaWindow w = win.impl(call);
            OpCode code = opCode(op, targetType);
            MemorySegment o = origin(origin, orgCount, orgType, targetCount, targetType, false);
            if (targetRank == MPI.PROC_NULL) {
                return done(call, request);
            }
            RmaTarget t = target(w, targetRank, targetDisp, targetCount, targetType, true, null);
            return result(w.accumulate(o, t, code, request), call, request, origin);
        });
    }

    Request getAccumulate(String call, Object origin, int orgCount, Datatype orgType,
                          Object result, int resultCount, Datatype resultType, int targetRank,
                          long targetDisp, int targetCount, Datatype targetType, Op op,
                          boolean request) throws MPIException {
        return win.wrap(call, () -> {
            RmaWindow w = win.impl(call);
            OpCode code = opCode(op, targetType);
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
        });
    }

    void compareAndSwap(Object origin, Object compare, Object result, Datatype type,
                        int targetRank, long targetDisp) throws MPIException {
        String call = "MPI_Compare_and_swap";
        win.wrap(call, () -> {
            RmaWindow w = win.impl(call);
            checkType(type);
            ElementKind kind = Op.elementKind(type);
            if (kind == null || kind.family() != ElementKind.Family.INTEGER) {
                throw MPIException.of(ErrorClass.ERR_TYPE, "compare-and-swap needs an integer, "
                        + "byte or boolean type, not " + type);
            }
            MemorySegment o = origin(origin, 1, type, 1, type, false);
            MemorySegment c = origin(compare, 1, type, 1, type, false);
            MemorySegment r = resultSide(result, 1, type, 1, type).segment();
            if (targetRank == MPI.PROC_NULL) {
                return null;
            }
            RmaTarget t = target(w, targetRank, targetDisp, 1, type, true, null);
            w.compareAndSwap(o, c, r, t);
            return null;
        });
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
    private static MemorySegment origin(Object buf, int count, Datatype type, int targetCount,
                                        Datatype targetType, boolean written)
            throws MPIException {
        match(buf, count, type, targetCount, targetType);
        if (type.isLayout()) {
            return LayoutBuffers.pack(LayoutBuffers.forSend(buf, count, type));
        }
        return written ? Buffers.forReceive(buf, count, type)
                : Buffers.segment(buf, type, type.bytes(count));
    }

    /**
     * Result memory: the buffer itself for a contiguous type, else a packed staging segment and
     * the unpack the window runs when the result is complete (the gaps keep their values).
     */
    private static Staged resultSide(Object buf, int count, Datatype type, int targetCount,
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
