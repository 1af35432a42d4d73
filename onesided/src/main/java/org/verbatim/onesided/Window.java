package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
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
 * One MPI window: the {@link RmaWindow} the API calls, holding the parts that do the work and
 * the state they share. Its epoch state is {@link Epochs} (synchronised by {@link FenceSync},
 * {@link Pscw} and {@link PassiveTarget}); an operation goes through {@link Submitter} (checks,
 * held or issued through {@link Issuer}, records on {@link Channels}) unless the "now" calls here
 * take it; the target side is {@link TargetSide}. Epoch misuse is MPI_ERR_RMA_SYNC before
 * anything is sent; a displacement or count outside the target's memory is MPI_ERR_RMA_RANGE with
 * nothing written.
 *
 * <p>Threading: the program's thread calls the API methods; message handlers run under the
 * runtime's lock. Every field that both touch is touched under that lock; waits drop it. The
 * "now" calls ({@link #putNow} and the like) and a flush on mapped memory take no lock: they read
 * {@link Epochs#access}, which only the epoch calls write (under the lock), and MPI orders the
 * call that opens an epoch before that epoch's operations (in the program's thread, or by the
 * program's own synchronisation between its threads).
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
    /** Passive-target locks by remote atomics, or null (lock records, or mapped everywhere). */
    final AtomicLocks locks;
    /** Replies the origin side awaits (gets and the like as records). */
    final Replies replies;
    /** Contiguous operations on memory every member maps, done at once. */
    final MappedOps mapped;
    final RmaSettings settings;
    final FenceDesign fenceDesign;
    final int me;
    final int size;
    final int[] world;
    private final Map<Integer, Integer> groupOfWorld;
    final Channels channels;
    final Epochs epochs;
    /** {@link Epochs#access}: the "now" calls read it here, without the lock. */
    private final byte[] access;
    final Submitter submitter;
    final Issuer issuer;
    final TargetSide target;
    /** Target datatype layouts sent (origin) and received (target). */
    final LayoutsSent layouts;
    final FenceSync fence;
    final Pscw pscw;
    private final PassiveTarget passive;

    /** Operations sent to each target as records since its last flush or unlock. */
    final int[] recordsSinceSync;
    /** DONE replies received per target (flush, unlock). */
    final int[] doneReceived;
    /** An error a target reported in a DONE reply, raised by the next synchronisation call. */
    int deferredError;
    final boolean[] granted;

    Window(OneSidedExtension ext, WindowGroup group, int id, WindowMemory memory,
           RdmaTargets rdma, AtomicLockPlan locks, RmaSettings settings,
           FenceDesign fenceDesign) {
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
        this.channels = new Channels(this);
        this.doneReceived = new int[size];
        this.recordsSinceSync = new int[size];
        this.granted = new boolean[size];
        this.epochs = new Epochs(this);
        this.access = epochs.access;
        this.direct = new DirectOps(this);
        this.replies = new Replies(this);
        this.mapped = new MappedOps(memory, settings, ext.counters);
        this.submitter = new Submitter(this);
        this.issuer = new Issuer(this);
        this.layouts = new LayoutsSent(size);
        this.target = new TargetSide(this);
        this.fence = new FenceSync(this);
        this.pscw = new Pscw(this);
        this.passive = new PassiveTarget(this);
        this.locks = AtomicLocks.of(this, locks);
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

    /**
     * As {@link #await}, for a condition that takes the runtime's lock itself: built once and
     * reused, so that waiting allocates nothing.
     */
    void awaitLocking(BooleanSupplier done) {
        long start = System.nanoTime();
        ctx.awaitCondition(done);
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
        return submitter.submit(HeldOp.Kind.PUT, origin, null, null, t, OpCode.REPLACE, request);
    }

    @Override
    public RequestState get(MemorySegment result, RmaTarget t, boolean request) {
        return submitter.submit(HeldOp.Kind.GET, null, result, null, t, OpCode.NO_OP, request);
    }

    @Override
    public RequestState accumulate(MemorySegment origin, RmaTarget t, OpCode op,
                                   boolean request) {
        return submitter.submit(HeldOp.Kind.ACC, origin, null, null, t, op, request);
    }

    @Override
    public RequestState getAccumulate(MemorySegment origin, MemorySegment result, RmaTarget t,
                                      OpCode op, boolean request) {
        return submitter.submit(HeldOp.Kind.GACC, op == OpCode.NO_OP ? null : origin, result,
                null, t, op, request);
    }

    @Override
    public RequestState compareAndSwap(MemorySegment origin, MemorySegment compare,
                                       MemorySegment result, RmaTarget t) {
        return submitter.submit(HeldOp.Kind.CAS, origin, result, compare, t, OpCode.REPLACE,
                false);
    }

    // ------------------------------------------------------------------ operations done at once

    @Override
    public boolean putNow(MemorySegment origin, long bytes, int rank, long disp) {
        if ((access[rank] & Epochs.DIRECT) == 0) {
            return false;
        }
        mapped.put(origin, rank, memory.contiguousOffset(rank, disp, bytes), bytes);
        doneNow(bytes);
        return true;
    }

    @Override
    public boolean getNow(MemorySegment result, long bytes, int rank, long disp) {
        if ((access[rank] & Epochs.DIRECT) == 0) {
            return false;
        }
        mapped.get(result, rank, memory.contiguousOffset(rank, disp, bytes), bytes);
        doneNow(bytes);
        return true;
    }

    @Override
    public boolean accumulateNow(MemorySegment origin, MemorySegment result, long bytes,
                                 ElementKind kind, OpCode op, int rank, long disp) {
        if ((access[rank] & Epochs.DIRECT) == 0) {
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
        if ((access[rank] & Epochs.DIRECT) == 0) {
            return false;
        }
        mapped.compareAndSwap(origin, compare, result, rank,
                memory.contiguousOffset(rank, disp, bytes), bytes);
        doneNow(bytes);
        return true;
    }

    /** The bookkeeping of an operation done at once (as {@link Submitter#submit}'s). */
    private void doneNow(long bytes) {
        ext.counters.operation(bytes);
        Epochs e = epochs;
        if (e.fenceEpoch) {
            e.opsSinceFence = true;
        }
    }

    // ------------------------------------------------------------------ fence

    @Override
    public void fence(int assertion) {
        checkLive();
        fence.fence(assertion);
        raiseDeferred();
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
        if (access[rank] == (Epochs.DIRECT | Epochs.PASSIVE) && !submitter.holdsAny()) {
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
        if (epochs.freed) {
            throw new MpiError(ErrorClass.ERR_WIN, "the window has been freed");
        }
    }

    @Override
    public void free() {
        checkLive();
        lock();
        try {
            epochs.checkFreeable();
        } finally {
            unlock();
        }
        replies.await(-1);
        direct.completeAll();
        if (locks != null) {
            locks.drain();
        }
        group.barrier();
        lock();
        try {
            epochs.free();
            ext.remove(this);
        } finally {
            unlock();
        }
        direct.close();
        if (rdma != null) {
            rdma.close();
        }
        if (locks != null) {
            locks.close();
        }
        memory.close();
        channels.close();
    }
}
