package org.verbatim.onesided;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.ext.ExtensionContext;
import org.verbatim.runtime.rma.RmaTarget;
import org.verbatim.runtime.rma.RmaWindow;
import org.verbatim.runtime.rma.WindowGroup;
import org.verbatim.spi.SharedSegments;

/**
 * The memory of one window: this process's part (the program's, the window's own, or attached
 * regions of a dynamic window), every member's size and displacement unit, and the members' parts
 * that are mapped in this process (allocated windows of same-host ranks, through the transport's
 * {@link SharedSegments}), where puts and gets are loads and stores.
 */
final class WindowMemory implements AutoCloseable {
    final int flavor;
    final MemorySegment local;
    final long[] sizes;
    final int[] dispUnits;
    /** Each member's memory as mapped here (index = group rank), or null. */
    final MemorySegment[] mapped;
    /** Each member's {@link SharedControl} words as mapped here, or null. */
    final MemorySegment[] control;
    /** Every member maps every member's part (decided by the window, collectively). */
    boolean allMapped;
    private final List<SharedSegments.Segment> segments = new ArrayList<>();
    private final Arena arena;
    /** Attached regions of a dynamic window. */
    private final List<MemorySegment> attached = new ArrayList<>();

    private WindowMemory(int flavor, MemorySegment local, long[] sizes, int[] dispUnits,
                         MemorySegment[] mapped, Arena arena) {
        this.flavor = flavor;
        this.local = local;
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        this.mapped = mapped;
        this.control = new MemorySegment[mapped.length];
        this.arena = arena;
    }

    /** MPI_Win_create and MPI_Win_create_dynamic ({@code local} null): nothing is mapped. */
    static WindowMemory of(WindowGroup group, int flavor, MemorySegment local, long[] gathered) {
        int p = group.size();
        MemorySegment[] mapped = new MemorySegment[p];
        mapped[group.rank()] = local;
        return new WindowMemory(flavor, local, sizes(gathered, p), units(gathered, p), mapped,
                null);
    }

    /**
     * MPI_Win_allocate(_shared): shared segments where a transport offers them, so that same-host
     * members map each other's part; private memory otherwise. A shared window whose members
     * cannot all map each other is MPI_ERR_RMA_SHARED.
     */
    static WindowMemory allocate(ExtensionContext ctx, WindowGroup group, long bytes,
                                 boolean shared, long[] gathered) {
        int p = group.size();
        int me = group.rank();
        SharedSegments service = null;
        for (int r = 0; r < p && service == null; r++) {
            if (r != me) {
                service = ctx.transport(group.worldRank(r)).extension(SharedSegments.class);
            }
        }
        Arena arena = Arena.ofShared();
        List<SharedSegments.Segment> owned = new ArrayList<>();
        MemorySegment local;
        MemorySegment control;
        String handle = "";
        long head = SharedControl.bytes(p);
        if (service != null) {
            SharedSegments.Segment s = service.create(head + bytes);
            owned.add(s);
            control = s.memory().asSlice(0, head);
            local = s.memory().asSlice(head, bytes);
            handle = s.handle();
        } else {
            MemorySegment all = arena.allocate(head + bytes, 64);
            control = all.asSlice(0, head);
            local = all.asSlice(head, bytes);
        }
        byte[][] handles = group.allgatherBytes(handle.getBytes(StandardCharsets.UTF_8));
        WindowMemory m = new WindowMemory(shared ? RmaWindow.FLAVOR_SHARED
                : RmaWindow.FLAVOR_ALLOCATE, local, sizes(gathered, p), units(gathered, p),
                new MemorySegment[p], arena);
        m.mapped[me] = local;
        m.control[me] = control;
        m.segments.addAll(owned);
        int unshared = 0;
        for (int r = 0; r < p; r++) {
            if (r == me) {
                continue;
            }
            String h = new String(handles[r], StandardCharsets.UTF_8);
            if (service != null && !h.isEmpty() && service.attachable(h)) {
                SharedSegments.Segment s = service.attach(h);
                m.segments.add(s);
                m.control[r] = s.memory().asSlice(0, head);
                m.mapped[r] = s.memory().asSlice(head, m.sizes[r]);
            } else {
                unshared++;
            }
        }
        if (shared) {
            int[] total = {unshared};
            group.allreduceSum(total); // every member learns it, so all of them refuse
            if (total[0] > 0) {
                m.close();
                throw new MpiError(ErrorClass.ERR_RMA_SHARED, total[0] + " pairs of the window's "
                        + "members cannot share memory (not on the same host, or no "
                        + "shared-memory transport)");
            }
        }
        return m;
    }

    private static long[] sizes(long[] gathered, int p) {
        long[] sizes = new long[p];
        for (int r = 0; r < p; r++) {
            sizes[r] = gathered[3 * r + 1];
        }
        return sizes;
    }

    private static int[] units(long[] gathered, int p) {
        int[] units = new int[p];
        for (int r = 0; r < p; r++) {
            units[r] = (int) gathered[3 * r + 2];
        }
        return units;
    }

    /**
     * Byte offset in the target's memory of the data (of a layout's rebased origin);
     * ERR_RMA_RANGE when any byte the data touches lies outside the target's window.
     */
    long targetOffset(RmaTarget t, TargetLayout layout) {
        if (layout == null && flavor != RmaWindow.FLAVOR_DYNAMIC) {
            return contiguousOffset(t.rank(), t.disp(), t.bytes());
        }
        int r = t.rank();
        long shift = layout == null ? 0 : layout.shift();
        long span = layout == null ? t.bytes() : layout.span();
        if (flavor == RmaWindow.FLAVOR_DYNAMIC) {
            return t.disp() + shift;
        }
        long unit = dispUnits[r];
        long offset;
        try { // overflow is out of range too (an exact product: no division per operation)
            offset = Math.addExact(Math.multiplyExact(t.disp(), unit), shift);
        } catch (ArithmeticException e) {
            offset = -1;
        }
        if (t.disp() < 0 || offset < 0 || offset + span > sizes[r] || offset + span < 0) {
            throw new MpiError(ErrorClass.ERR_RMA_RANGE, "displacement " + t.disp() + " x "
                    + unit + " B" + (layout == null ? " + " + t.bytes() + " B" : ": the target "
                    + "datatype reaches bytes [" + offset + ", " + (offset + span) + ")")
                    + " lies outside rank " + r + "'s window of " + sizes[r] + " B");
        }
        return offset;
    }

    /**
     * Byte offset in rank {@code r}'s memory (not a dynamic window's) of {@code bytes} contiguous
     * bytes at displacement {@code disp}; ERR_RMA_RANGE when a byte lies outside its window.
     */
    long contiguousOffset(int r, long disp, long bytes) {
        long unit = dispUnits[r];
        long offset = disp * unit;
        // both below 2^31 (and not negative): the product is exact, so one multiply and one
        // compare decide it; anything else takes the exact path
        if ((disp | unit) >>> 31 != 0 || offset > sizes[r] - bytes) {
            return exactOffset(r, disp, bytes);
        }
        return offset;
    }

    /** {@link #contiguousOffset} for any displacement and unit (products beyond 2^62 too). */
    private long exactOffset(int r, long disp, long bytes) {
        long unit = dispUnits[r];
        long offset;
        try {
            offset = Math.multiplyExact(disp, unit);
        } catch (ArithmeticException e) {
            offset = -1;
        }
        if (disp < 0 || offset < 0 || offset + bytes > sizes[r] || offset + bytes < 0) {
            throw new MpiError(ErrorClass.ERR_RMA_RANGE, "displacement " + disp + " x " + unit
                    + " B + " + bytes + " B lies outside rank " + r + "'s window of " + sizes[r]
                    + " B");
        }
        return offset;
    }

    /** Target memory at byte offset {@code at} of {@code bytes} in this process, or null. */
    MemorySegment localRange(long at, long bytes) {
        if (flavor == RmaWindow.FLAVOR_DYNAMIC) {
            for (MemorySegment a : attached) {
                if (at >= a.address() && at + bytes <= a.address() + a.byteSize()) {
                    return a.asSlice(at - a.address(), bytes);
                }
            }
            return null;
        }
        if (at < 0 || bytes < 0 || at + bytes > local.byteSize()) {
            return null;
        }
        return local.asSlice(at, bytes);
    }

    void attach(MemorySegment m) {
        for (MemorySegment a : attached) {
            if (m.address() < a.address() + a.byteSize() && a.address() < m.address() + m.byteSize()) {
                throw new MpiError(ErrorClass.ERR_RMA_ATTACH, "memory overlaps memory attached "
                        + "before");
            }
        }
        attached.add(m);
    }

    void detach(MemorySegment m) {
        if (!attached.removeIf(a -> a.address() == m.address())) {
            throw new MpiError(ErrorClass.ERR_RMA_ATTACH, "no memory attached at address 0x"
                    + Long.toHexString(m.address()));
        }
    }

    @Override
    public void close() {
        for (SharedSegments.Segment s : segments) {
            s.close();
        }
        segments.clear();
        if (arena != null) {
            arena.close();
        }
    }
}
