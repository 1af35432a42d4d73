package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.op.OpCode;
import org.verbatim.runtime.rma.RmaTarget;
import org.verbatim.runtime.rma.RmaWindow;

/**
 * The way of one operation of a {@link Window} from the API to its target, for the operations
 * the "now" path does not take: checks (range, epoch, a target layout that must fit one message),
 * then done at once on memory every member maps ({@link MappedOps}), held by the scheduler until
 * a synchronisation call (deferred fence, PSCW and lock epochs, verbatim.rma.schedule), or issued
 * now through {@link Issuer}. Issues the held operations when a synchronisation call needs them,
 * reordered by {@link Scheduler}, small ones aggregated into the records already in the outbox.
 * Runs under the runtime's lock, except the checks before it is taken.
 */
final class Submitter {
    private final Window w;
    /** Operations held by the scheduler until the synchronisation call. */
    final List<HeldOp> held = new ArrayList<>();
    /** Scratch lists of {@link #issueHeldFor}, reused while it is not running already. */
    private final List<HeldOp> mine = new ArrayList<>();
    private final List<HeldOp> order = new ArrayList<>();
    private final List<HeldOp> gets = new ArrayList<>();
    private final List<HeldOp> rest = new ArrayList<>();
    private boolean scratchInUse;

    Submitter(Window w) {
        this.w = w;
    }

    /** True while the scheduler holds an operation. */
    boolean holdsAny() {
        return !held.isEmpty();
    }

    /**
     * Checks and starts one operation; the request that completes it ({@code request}, or an
     * operation with a result), else null.
     */
    RequestState submit(HeldOp.Kind kind, MemorySegment origin, MemorySegment result,
                        MemorySegment compare, RmaTarget t, OpCode op, boolean request) {
        w.checkLive();
        int r = t.rank();
        TargetLayout layout = t.layout() == null || t.bytes() == 0 ? null
                : TargetLayout.of(t.layout(), t.count());
        long offset = w.memory.targetOffset(t, layout);
        Epochs e = w.epochs;
        w.lock();
        try {
            if (request && !e.passive(r)) {
                throw Window.syncError("request-based operations need a passive-target epoch "
                        + "(lock or lockAll) on rank " + r);
            }
            if (!e.accessAllowed(r)) {
                throw Window.syncError("no access epoch to rank " + r + " is open (call fence, "
                        + "start or lock first)");
            }
            if (layout != null) {
                checkLayoutTravels(r, layout);
            }
            w.ext.counters.operation(t.bytes());
            if (e.fenceEpoch) {
                e.opsSinceFence = true;
            }
            if (layout == null && t.resultUnpack() == null && !(request && kind.hasResult())
                    && w.mapped.active() && !(e.fenceEpoch && w.fenceDesign == FenceDesign.DEF)) {
                w.mapped.run(kind, origin, result, compare, r, offset, t.bytes(), t.kind(), op);
                return request ? RmaRequest.done(r) : null;
            }
            // an rPut's request completes when the origin memory may be reused: at once for a
            // record (the data is copied into the outbox), at the write's completion for RDMA
            RmaRequest req = kind.hasResult()
                    ? new RmaRequest(result, r, t.bytes(), t.resultUnpack())
                    : request && kind == HeldOp.Kind.PUT ? new RmaRequest(null, r, t.bytes())
                    : null;
            HeldOp h = new HeldOp(kind, origin, result, compare, r, offset, t.bytes(), t.kind(),
                    op, req, layout);
            if (holds(request)) {
                held.add(h);
            } else {
                issueHeldFor(r);
                boolean rdma = w.direct.takes(h);
                w.issuer.issue(h);
                w.channels.flush(r);
                if (req != null && kind == HeldOp.Kind.PUT && !rdma) {
                    req.arrived(t.bytes());
                }
            }
            return h.request() != null ? h.request() : request ? RmaRequest.done(r) : null;
        } finally {
            w.unlock();
        }
    }

    /**
     * Whether the scheduler holds an operation now (deferred fence, PSCW, lock epochs). On
     * memory every member maps, every operation is a load, store or atomic done at once:
     * nothing to schedule or aggregate, except in Fence-Def, whose operations wait for the
     * closing fence by design.
     */
    private boolean holds(boolean request) {
        boolean fenceEpoch = w.epochs.fenceEpoch;
        if (request || (w.memory.allMapped && !(fenceEpoch && w.fenceDesign == FenceDesign.DEF))) {
            return false;
        }
        if (fenceEpoch) {
            return w.fenceDesign == FenceDesign.DEF;
        }
        return w.settings.schedule();
    }

    /** A layout that goes to the target as a record must fit one message (ERR_TYPE if not). */
    private void checkLayoutTravels(int r, TargetLayout layout) {
        boolean mapped = w.settings.directShared() && w.memory.flavor != RmaWindow.FLAVOR_DYNAMIC
                && w.memory.mapped[r] != null;
        if (mapped) {
            return;
        }
        long need = RmaWire.MESSAGE_HEADER
                + RmaWire.recordBytes(layout.type().flatten().byteSize());
        if (need > w.channels.get(r).outbox().byteSize()) {
            throw new MpiError(ErrorClass.ERR_TYPE, "the target datatype's layout ("
                    + layout.type().runCount() + " runs, " + need + " B flattened) does not fit "
                    + "one message to rank " + r + "; use a type with fewer distinct blocks");
        }
    }

    /** Issues the held operations (all of them, reordered) under the lock. */
    void issueHeld() {
        if (!held.isEmpty()) {
            List<HeldOp> order = Scheduler.order(held, w.settings.schedule());
            held.clear();
            for (HeldOp h : order) {
                issueHeldOp(h);
            }
        }
    }

    /**
     * Issues the held operations to {@code rank} (in their order), keeping the rest held. Without
     * allocating: the lists it needs are kept (fresh ones only if an issue re-entered it).
     */
    void issueHeldFor(int rank) {
        if (held.isEmpty()) {
            return;
        }
        boolean reuse = !scratchInUse;
        List<HeldOp> mine = reuse ? this.mine : new ArrayList<>();
        List<HeldOp> order = reuse ? this.order : new ArrayList<>();
        scratchInUse = true;
        try {
            int kept = 0;
            for (int i = 0; i < held.size(); i++) {
                HeldOp h = held.get(i);
                if (h.target() == rank) {
                    mine.add(h);
                } else {
                    held.set(kept++, h);
                }
            }
            while (held.size() > kept) {
                held.remove(held.size() - 1);
            }
            Scheduler.order(mine, w.settings.schedule(), order,
                    reuse ? gets : new ArrayList<>(), reuse ? rest : new ArrayList<>());
            mine.clear();
            for (int i = 0; i < order.size(); i++) {
                issueHeldOp(order.get(i));
            }
        } finally {
            mine.clear();
            order.clear();
            if (reuse) {
                scratchInUse = false;
            }
        }
    }

    /**
     * Issues one held operation: small ones (up to verbatim.rma.aggregate-limit) join the records
     * already in the outbox and the synchronisation record that follows; large ones, or all with
     * aggregation off, travel in messages of their own.
     */
    private void issueHeldOp(HeldOp h) {
        Channel c = w.channels.get(h.target());
        boolean aggregate = w.settings.aggregate() && h.bytes() <= w.settings.aggregateLimit();
        if (!aggregate) {
            c.flush();
        }
        w.issuer.issue(h);
        if (!aggregate) {
            c.flush();
        }
    }
}
