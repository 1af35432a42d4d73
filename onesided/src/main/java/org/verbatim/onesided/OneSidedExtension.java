package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.ext.ExtensionContext;
import org.verbatim.runtime.ext.RuntimeExtension;
import org.verbatim.runtime.rma.RmaWindow;
import org.verbatim.runtime.rma.WindowGroup;
import org.verbatim.runtime.rma.WindowProvider;
import org.verbatim.spi.ProfileCounter;

/**
 * The one-sided module as the runtime sees it: a {@link RuntimeExtension} (one message kind for
 * every window's records) that is also the {@link WindowProvider} behind {@code mpi.Win}. Window
 * ids are agreed at creation (the largest proposal of the group), so records name their window
 * the same way on every member.
 */
public final class OneSidedExtension implements RuntimeExtension, WindowProvider {
    static final int MODE_NOCHECK = 1, MODE_NOPRECEDE = 2, MODE_NOPUT = 4, MODE_NOSTORE = 8,
            MODE_NOSUCCEED = 16;

    private ExtensionContext ctx;
    private int kind;
    private RmaSettings settings;
    private final Map<Integer, Window> windows = new HashMap<>();
    private int nextId = 1;
    final RmaCounters counters = new RmaCounters();

    @Override
    public String name() {
        return "onesided";
    }

    @Override
    public void start(ExtensionContext context) {
        this.ctx = context;
        this.settings = RmaSettings.from(context.config());
        this.kind = context.dispatch().allocateKind("onesided", this::onMessage);
        context.dispatch().registerImmediates(DirectOps.IMMEDIATE_MARK, DirectOps.IMMEDIATE_MASK,
                "onesided", this::onImmediate);
    }

    ExtensionContext context() {
        return ctx;
    }

    int kind() {
        return kind;
    }

    @Override
    public List<ProfileCounter> profileCounters() {
        return counters.counters();
    }

    private void onMessage(int sourceWorld, MemorySegment m, long offset, long length) {
        long at = offset + RmaWire.MESSAGE_HEADER;
        int id = RmaWire.window(m, at);
        Window w = windows.get(id);
        if (w == null) {
            throw ctx.fail("one-sided message from rank " + sourceWorld + " for window " + id
                    + ", which rank " + ctx.worldRank() + " does not have");
        }
        int src = w.groupRank(sourceWorld);
        w.target.onMessage(src, m, at, offset + length);
    }

    /** A Fence-Imm-RI put landed: the target counts it. */
    private void onImmediate(int sourceWorld, int immediate) {
        Window w = windows.get(immediate & ~DirectOps.IMMEDIATE_MASK);
        if (w == null) {
            throw ctx.fail("one-sided write with immediate from rank " + sourceWorld
                    + " for window " + (immediate & ~DirectOps.IMMEDIATE_MASK) + ", which rank "
                    + ctx.worldRank() + " does not have");
        }
        w.target.counted++;
    }

    // ------------------------------------------------------------------ creation

    @Override
    public RmaWindow create(WindowGroup group, MemorySegment base, int dispUnit,
                            Map<String, String> info) {
        long[] gathered = group.allgather(new long[] {proposeId(), base.byteSize(), dispUnit});
        WindowMemory memory = WindowMemory.of(group, RmaWindow.FLAVOR_CREATE, base, gathered);
        return open(group, gathered, memory, info);
    }

    @Override
    public RmaWindow allocate(WindowGroup group, long bytes, int dispUnit, boolean shared,
                              Map<String, String> info) {
        long[] gathered = group.allgather(new long[] {proposeId(), bytes, dispUnit});
        WindowMemory memory = WindowMemory.allocate(ctx, group, bytes, shared, gathered);
        return open(group, gathered, memory, info);
    }

    @Override
    public RmaWindow createDynamic(WindowGroup group, Map<String, String> info) {
        long[] gathered = group.allgather(new long[] {proposeId(), 0, 1});
        WindowMemory memory = WindowMemory.of(group, RmaWindow.FLAVOR_DYNAMIC, null, gathered);
        return open(group, gathered, memory, info);
    }

    private synchronized int proposeId() {
        return nextId;
    }

    private RmaWindow open(WindowGroup group, long[] gathered, WindowMemory memory,
                           Map<String, String> info) {
        RmaSettings s = settings.with(info);
        if (memory.flavor == RmaWindow.FLAVOR_ALLOCATE || memory.flavor == RmaWindow.FLAVOR_SHARED) {
            int[] unmapped = {0};
            for (MemorySegment m : memory.mapped) {
                unmapped[0] += m == null ? 1 : 0;
            }
            group.allreduceSum(unmapped);
            memory.allMapped = unmapped[0] == 0 && s.directShared();
        }
        RdmaTargets rdma = memory.flavor == RmaWindow.FLAVOR_DYNAMIC ? null
                : RdmaTargets.exchange(ctx, group, memory, s.rdma());
        AtomicLockPlan locks;
        try {
            locks = memory.allMapped ? null : AtomicLockPlan.exchange(ctx, group, s.lock());
        } catch (RuntimeException e) {
            if (rdma != null) {
                rdma.close();
            }
            memory.close();
            throw e;
        }
        int id = 0;
        for (int r = 0; r < group.size(); r++) {
            id = (int) Math.max(id, gathered[3 * r]);
        }
        Window w = new Window(this, group, id, memory, rdma, locks, s,
                s.fence() == FenceDesign.AUTO ? FenceDesign.IMM_RI : s.fence());
        ctx.lockRuntime();
        try {
            nextId = Math.max(nextId, id + 1);
            if (windows.putIfAbsent(id, w) != null) {
                throw new MpiError(ErrorClass.ERR_INTERN, "window id " + id + " taken twice");
            }
        } finally {
            ctx.unlockRuntime();
        }
        group.barrier();
        return w;
    }

    void remove(Window w) {
        windows.remove(w.id);
    }

    @Override
    public void close() {
        windows.clear();
    }
}
