package org.verbatim.onesided;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.ext.ExtensionContext;
import org.verbatim.runtime.rma.RmaTarget;
import org.verbatim.runtime.rma.RmaWindow;
import org.verbatim.runtime.rma.WindowGroup;
import org.verbatim.runtime.op.ElementKind;
import org.verbatim.runtime.op.OpCode;

/**
 * One MPI window: its epochs (fence, PSCW, locks), the origin side (operations held by the
 * scheduler or issued at once through {@link Issuer}) and the counters its target side
 * ({@link TargetSide}) keeps. Epoch misuse is MPI_ERR_RMA_SYNC before anything is sent; a
 * displacement or count outside the target's memory is MPI_ERR_RMA_RANGE with nothing written.
 *
 * <p>Threading: the program's thread calls the API methods; message handlers run under the
 * runtime's lock. Every field that both touch is touched under that lock; waits drop it. The
 * "now" calls ({@link #putNow} and the like) and a flush on mapped memory take no lock: they read
 * {@link #access}, which only the epoch calls write (under the lock), and MPI orders the call that
 * opens an epoch before that epoch's operations (in the program's thread, or by the program's
 * own synchronisation between its threads).
 */
final class Window implements RmaWindow {
    final OneSidedExtension ext;
    final ExtensionContext ctx;
    final WindowGroup group;
    final int id;
    final WindowMemory memory;
    /** Members reached by native RDMA (null for dynamic windows). */
    final RdmaTargets rdma;
    final DirectOps direct;
    /** Replies the origin side awaits (gets and the like as records). */
    final Replies replies;
    /** Contiguous operations on memory every member maps, done at once. */
    private final MappedOps mapped;
    final RmaSettings settings;
    final FenceDesign fenceDesign;
    final int me;
    final int size;
    final int[] world;
    private final Map<Integer, Integer> groupOfWorld;
    private final Channel[] channels;
    private final Arena channelArena = Arena.ofShared();
    final Issuer issuer;
    final TargetSide target;
    /** Target datatype layouts sent (origin) and received (target). */
    final LayoutsSent layouts;
    final FenceSync fence;
    private final Pscw pscw;
    private final PassiveTarget passive;

    /** Operations sent to each target as records since its last flush or unlock. */
    final int[] recordsSinceSync;
    /** DONE replies received per target (flush, unlock). */
    final int[] doneReceived;
    /** An error a target reported in a DONE reply, raised by the next synchronisation call. */
    int deferredError;
    final boolean[] granted;

    // epochs
    boolean fenceEpoch;
    /** Operations issued or held since the last fence. */
    boolean opsSinceFence;
    final boolean[] locked;
    boolean lockAll;
    /** Operations held by the scheduler until the synchronisation call. */
    final List<HeldOp> held = new ArrayList<>();
    private boolean freed;
    /** {@link #access} bit: contiguous operations to the target are done at once (mapped). */
    static final byte DIRECT = 1;
    /** {@link #access} bit: a passive-target epoch on the target is open. */
    static final byte PASSIVE = 2;
    /** Per target, {@link #DIRECT} and {@link #PASSIVE} as the epochs stand now. */
    private final byte[] access;

    Window(OneSidedExtension ext, WindowGroup group, int id, WindowMemory memory,
           RdmaTargets rdma, RmaSettings settings, FenceDesign fenceDesign) {
        this.ext = ext;
        this.ctx = ext.context();
        this.group = group;
        this.id = id;
        this.memory = memory;
        this.rdma = rdma;
        this.settings = settings;
        this.fenceDesign = fenceDesign;
        this.me = group.rank();
        this.size = group.size();
        this.world = new int[size];
        for (int r = 0; r < size; r++) {
            world[r] = group.worldRank(r);
        }
        this.groupOfWorld = new HashMap<>();
        for (int r = 0; r < size; r++) {
            groupOfWorld.put(world[r], r);
        }
        this.channels = new Channel[size];
        this.doneReceived = new int[size];
        this.recordsSinceSync = new int[size];
        this.granted = new boolean[size];
        this.locked = new boolean[size];
        this.access = new byte[size];
        this.direct = new DirectOps(this);
        this.replies = new Replies(this);
        this.mapped = new MappedOps(memory, settings, ext.counters);
        this.issuer = new Issuer(this);
        this.layouts = new LayoutsSent(size);
        this.target = new TargetSide(this);
        this.fence = new FenceSync(this);
        this.pscw = new Pscw(this);
        this.passive = new PassiveTarget(this);
    }

    // ------------------------------------------------------------------ plumbing

    /** The group rank of world rank {@code w}; a message from outside the group ends the job. */
    int groupRank(int w) {
        Integer r = groupOfWorld.get(w);
        if (r == null) {
            throw ctx.fail("one-sided message for window " + id + " from rank " + w
                    + ", which is not in its group");
        }
        return r;
    }

    Channel channel(int rank) {
        Channel c = channels[rank];
        if (c == null) {
            int w = world[rank];
            int max = ctx.transport(w).capabilities().maxEager();
            c = new Channel(w, ext.kind(), ctx.endpoint(w), ctx.dispatch(),
                    Math.min(max, 64 * 1024), channelArena, ext.counters);
            channels[rank] = c;
        }
        return c;
    }

    void flushChannels() {
        for (Channel c : channels) {
            if (c != null) {
                c.flush();
            }
        }
    }

    void lock() {
        ctx.lockRuntime();
    }

    void unlock() {
        ctx.unlockRuntime();
    }

    /** Makes progress until {@code done} holds (evaluated under the lock). */
    void await(BooleanSupplier done) {
        long start = System.nanoTime();
        ctx.awaitCondition(() -> {
            ctx.lockRuntime();
            try {
                return done.getAsBoolean();
            } finally {
                ctx.unlockRuntime();
            }
        });
        ext.counters.waitNanos += System.nanoTime() - start;
    }

    static MpiError syncError(String why) {
        return new MpiError(ErrorClass.ERR_RMA_SYNC, why);
    }

    void raiseDeferred() {
        int e = deferredError;
        if (e != 0) {
            deferredError = 0;
            throw new MpiError(e, "a target refused an operation of this epoch (address range "
                    + "outside its attached memory)");
        }
    }

    // ------------------------------------------------------------------ properties

    @Override
    public int flavor() {
        return memory.flavor;
    }

    @Override
    public int model() {
        return MODEL_UNIFIED;
    }

    @Override
    public MemorySegment base() {
        return memory.local;
    }

    @Override
    public long size() {
        return memory.sizes[me];
    }

    @Override
    public int dispUnit() {
        return memory.dispUnits[me];
    }

    @Override
    public MemorySegment sharedQuery(int rank) {
        return memory.mapped[rank];
    }

    @Override
    public int dispUnit(int rank) {
        return memory.dispUnits[rank];
    }

    @Override
    public void attach(MemorySegment m) {
        if (memory.flavor != FLAVOR_DYNAMIC) {
            throw new MpiError(ErrorClass.ERR_RMA_FLAVOR, "attach needs a dynamic window");
        }
        lock();
        try {
            memory.attach(m);
        } finally {
            unlock();
        }
    }

    @Override
    public void detach(MemorySegment m) {
        if (memory.flavor != FLAVOR_DYNAMIC) {
            throw new MpiError(ErrorClass.ERR_RMA_FLAVOR, "detach needs a dynamic window");
        }
        lock();
        try {
            memory.detach(m);
        } finally {
            unlock();
        }
    }

    // ------------------------------------------------------------------ operations

    @Override
    public RequestState put(MemorySegment origin, RmaTarget t, boolean request) {
        return submit(HeldOp.Kind.PUT, origin, null, null, t, OpCode.REPLACE, request);
    }

    @Override
    public RequestState get(MemorySegment result, RmaTarget t, boolean request) {
        return submit(HeldOp.Kind.GET, null, result, null, t, OpCode.NO_OP, request);
    }

    @Override
    public RequestState accumulate(MemorySegment origin, RmaTarget t, OpCode op,
                                   boolean request) {
        return submit(HeldOp.Kind.ACC, origin, null, null, t, op, request);
    }

    @Override
    public RequestState getAccumulate(MemorySegment origin, MemorySegment result, RmaTarget t,
                                      OpCode op, boolean request) {
        return submit(HeldOp.Kind.GACC, op == OpCode.NO_OP ? null : origin, result, null, t, op,
                request);
    }

    @Override
    public RequestState compareAndSwap(MemorySegment origin, MemorySegment compare,
                                       MemorySegment result, RmaTarget t) {
        return submit(HeldOp.Kind.CAS, origin, result, compare, t, OpCode.REPLACE, false);
    }

    private RequestState submit(HeldOp.Kind kind, MemorySegment origin, MemorySegment result,
                                MemorySegment compare, RmaTarget t, OpCode op, boolean request) {
        checkLive();
        int r = t.rank();
        TargetLayout layout = t.layout() == null || t.bytes() == 0 ? null
                : TargetLayout.of(t.layout(), t.count());
        long offset = memory.targetOffset(t, layout);
        lock();
        try {
            if (request && !(locked[r] || lockAll)) {
                throw syncError("request-based operations need a passive-target epoch (lock or "
                        + "lockAll) on rank " + r);
            }
            if (!accessAllowed(r)) {
                throw syncError("no access epoch to rank " + r + " is open (call fence, start or "
                        + "lock first)");
            }
            if (layout != null) {
                checkLayoutTravels(r, layout);
            }
            ext.counters.operation(t.bytes());
            if (fenceEpoch) {
                opsSinceFence = true;
            }
            if (layout == null && t.resultUnpack() == null && !(request && kind.hasResult())
                    && mapped.active() && !(fenceEpoch && fenceDesign == FenceDesign.DEF)) {
                mapped.run(kind, origin, result, compare, r, offset, t.bytes(), t.kind(), op);
                return request ? RmaRequest.done(r) : null;
            }
            HeldOp h = new HeldOp(kind, origin, result, compare, r, offset, t.bytes(), t.kind(),
                    op, kind.hasResult() ? new RmaRequest(result, r, t.bytes(), t.resultUnpack())
                    : null, layout);
            if (holds(request)) {
                held.add(h);
            } else {
                issueHeldFor(r);
                issuer.issue(h);
                if (channels[r] != null) {
                    channels[r].flush();
                }
            }
            return h.request() != null ? h.request() : request ? RmaRequest.done(r) : null;
        } finally {
            unlock();
        }
    }

    /**
     * Whether the scheduler holds an operation now (deferred fence, PSCW, lock epochs). On
     * memory every member maps, every operation is a load, store or atomic done at once:
     * nothing to schedule or aggregate, except in Fence-Def, whose operations wait for the
     * closing fence by design.
     */
    private boolean holds(boolean request) {
        if (request || (memory.allMapped && !(fenceEpoch && fenceDesign == FenceDesign.DEF))) {
            return false;
        }
        if (fenceEpoch) {
            return fenceDesign == FenceDesign.DEF;
        }
        return settings.schedule();
    }

    /** A layout that goes to the target as a record must fit one message (ERR_TYPE if not). */
    private void checkLayoutTravels(int r, TargetLayout layout) {
        boolean mapped = settings.directShared() && memory.flavor != FLAVOR_DYNAMIC
                && memory.mapped[r] != null;
        if (mapped) {
            return;
        }
        long need = RmaWire.MESSAGE_HEADER + RmaWire.recordBytes(layout.type().flatten().byteSize());
        if (need > channel(r).outbox().byteSize()) {
            throw new MpiError(ErrorClass.ERR_TYPE, "the target datatype's layout ("
                    + layout.type().runCount() + " runs, " + need + " B flattened) does not fit "
                    + "one message to rank " + r + "; use a type with fewer distinct blocks");
        }
    }

    /**
     * Recomputes {@link #access} from the epoch state: each epoch call that changes it calls this,
     * under the lock, before it returns.
     */
    void epochChanged() {
        boolean now = mapped.active() && !freed && !(fenceEpoch && fenceDesign == FenceDesign.DEF);
        for (int r = 0; r < size; r++) {
            boolean passive = locked[r] || lockAll;
            access[r] = (byte) ((now && (passive || fenceEpoch || pscw.accessTo(r)) ? DIRECT : 0)
                    | (passive ? PASSIVE : 0));
        }
    }

    // ------------------------------------------------------------------ operations done at once

    @Override
    public boolean putNow(MemorySegment origin, long bytes, int rank, long disp) {
        if ((access[rank] & DIRECT) == 0) {
            return false;
        }
        mapped.put(origin, rank, memory.contiguousOffset(rank, disp, bytes), bytes);
        doneNow(bytes);
        return true;
    }

    @Override
    public boolean getNow(MemorySegment result, long bytes, int rank, long disp) {
        if ((access[rank] & DIRECT) == 0) {
            return false;
        }
        mapped.get(result, rank, memory.contiguousOffset(rank, disp, bytes), bytes);
        doneNow(bytes);
        return true;
    }

    @Override
    public boolean accumulateNow(MemorySegment origin, MemorySegment result, long bytes,
                                 ElementKind kind, OpCode op, int rank, long disp) {
        if ((access[rank] & DIRECT) == 0) {
            return false;
        }
        mapped.accumulate(op == OpCode.NO_OP ? null : origin, result, rank,
                memory.contiguousOffset(rank, disp, bytes), bytes, kind, op);
        doneNow(bytes);
        return true;
    }

    @Override
    public boolean compareAndSwapNow(MemorySegment origin, MemorySegment compare,
                                     MemorySegment result, long bytes, int rank, long disp) {
        if ((access[rank] & DIRECT) == 0) {
            return false;
        }
        mapped.compareAndSwap(origin, compare, result, rank,
                memory.contiguousOffset(rank, disp, bytes), bytes);
        doneNow(bytes);
        return true;
    }

    /** The bookkeeping of an operation done at once (as {@link #submit}'s). */
    private void doneNow(long bytes) {
        ext.counters.operation(bytes);
        if (fenceEpoch) {
            opsSinceFence = true;
        }
    }

    private boolean accessAllowed(int r) {
        return fenceEpoch || pscw.accessTo(r) || locked[r] || lockAll;
    }

    /** Issues the held operations (all of them, reordered) under the lock. */
    void issueHeld() {
        if (!held.isEmpty()) {
            List<HeldOp> order = Scheduler.order(held, settings.schedule());
            held.clear();
            for (HeldOp h : order) {
                issueHeldOp(h);
            }
        }
    }

    /** Issues the held operations to {@code rank} (in their order), keeping the rest held. */
    void issueHeldFor(int rank) {
        if (held.isEmpty()) {
            return;
        }
        List<HeldOp> mine = new ArrayList<>();
        held.removeIf(h -> {
            if (h.target() == rank) {
                mine.add(h);
                return true;
            }
            return false;
        });
        for (HeldOp h : Scheduler.order(mine, settings.schedule())) {
            issueHeldOp(h);
        }
    }

    /**
     * Issues one held operation: small ones (up to verbatim.rma.aggregate-limit) join the records
     * already in the outbox and the synchronisation record that follows; large ones, or all with
     * aggregation off, travel in messages of their own.
     */
    private void issueHeldOp(HeldOp h) {
        Channel c = channel(h.target());
        boolean aggregate = settings.aggregate() && h.bytes() <= settings.aggregateLimit();
        if (!aggregate) {
            c.flush();
        }
        issuer.issue(h);
        if (!aggregate) {
            c.flush();
        }
    }

    /** Sends a sync record of {@code type} (behind the operations) and flushes. */
    void sendSync(int rank, int type, int aux) {
        Channel c = channel(rank);
        long at = c.reserve(0);
        RmaWire.writeHeader(c.outbox(), at, type, 0, 0, id, 0, aux, 0, 0);
        c.flush();
    }

    // ------------------------------------------------------------------ fence

    @Override
    public void fence(int assertion) {
        checkLive();
        fence.fence(assertion);
        raiseDeferred();
    }

    /** Throws unless a fence may be called now (under the lock). */
    void checkFenceAllowed() {
        if (pscw.open() || lockAll || anyLocked()) {
            throw syncError("fence inside a PSCW or lock epoch");
        }
    }

    boolean anyLocked() {
        for (boolean b : locked) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    /** Ends a fence epoch that had no operations, for a PSCW or lock epoch to begin. */
    void leaveIdleFence(String call) {
        if (fenceEpoch) {
            if (opsSinceFence || !held.isEmpty()) {
                throw syncError(call + " while the fence epoch has operations (close it with "
                        + "fence first)");
            }
            fenceEpoch = false;
            epochChanged();
        }
    }

    // ------------------------------------------------------------------ PSCW

    @Override
    public void start(int[] ranks, int assertion) {
        pscw.start(ranks, assertion);
    }

    @Override
    public void complete() {
        pscw.complete();
    }

    @Override
    public void post(int[] ranks, int assertion) {
        pscw.post(ranks, assertion);
    }

    @Override
    public void waitFor() {
        pscw.waitFor();
    }

    @Override
    public boolean test() {
        return pscw.test();
    }

    // ------------------------------------------------------------------ passive target

    @Override
    public void lock(boolean exclusive, int rank, int assertion) {
        passive.lock(exclusive, rank, assertion);
    }

    @Override
    public void unlock(int rank) {
        passive.unlock(rank);
    }

    @Override
    public void lockAll(int assertion) {
        passive.lockAll(assertion);
    }

    @Override
    public void unlockAll() {
        passive.unlockAll();
    }

    /**
     * On memory every member maps, every operation of a passive epoch is complete once issued
     * (none is held there): a flush is a fence that orders them before what follows, as Open MPI's
     * osc/sm does. Otherwise {@link PassiveTarget#flush}.
     */
    @Override
    public void flush(int rank) {
        if (access[rank] == (DIRECT | PASSIVE) && held.isEmpty()) {
            VarHandle.fullFence();
            raiseDeferred();
            return;
        }
        passive.flush(rank);
    }

    @Override
    public void flushAll() {
        passive.flushAll();
    }

    @Override
    public void flushLocal(int rank) {
        passive.flushLocal(rank);
    }

    @Override
    public void flushLocalAll() {
        passive.flushLocalAll();
    }

    @Override
    public void sync() {
        checkLive();
        VarHandle.fullFence();
    }

    // ------------------------------------------------------------------ free

    void checkLive() {
        if (freed) {
            throw new MpiError(ErrorClass.ERR_WIN, "the window has been freed");
        }
    }

    @Override
    public void free() {
        checkLive();
        lock();
        try {
            if (pscw.open() || lockAll || anyLocked() || !held.isEmpty()
                    || (fenceEpoch && opsSinceFence)) {
                throw syncError("free while an epoch is open");
            }
        } finally {
            unlock();
        }
        replies.await(-1);
        direct.completeAll();
        group.barrier();
        lock();
        try {
            freed = true;
            epochChanged();
            ext.remove(this);
        } finally {
            unlock();
        }
        if (rdma != null) {
            rdma.close();
        }
        memory.close();
        channelArena.close();
    }
}
