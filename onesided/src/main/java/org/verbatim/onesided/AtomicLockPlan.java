package org.verbatim.onesided;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.ext.ExtensionContext;
import org.verbatim.runtime.rma.WindowGroup;
import org.verbatim.spi.Access;
import org.verbatim.spi.AtomicOp;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.SharedSegments;
import org.verbatim.spi.Transport;

/**
 * Whether a window's locks are taken by atomics ({@link AtomicLocks}), decided once per window,
 * collectively, and the lock segments those need. A member can take another's lock by atomics when
 * it is on the same host (the peer is reached over a transport offering {@link SharedSegments}: it
 * maps the peer's lock segment and uses CPU atomics on its host word) or reaches it over a
 * transport with native remote atomics and reads (ib: adapter atomics on its remote word). Only if
 * every pair can does the window use atomics, so all members use one mechanism and a lock record
 * never meets a lock word. Each member's lock segment ({@link LockWords}) lies in a shared segment
 * when it has a same-host peer in the window (allocated as allocate-shared windows' memory is),
 * else in private memory; it is registered with each transport that reaches a member on another
 * host. Under {@code auto} a window all of whose members are on one host (created windows: the
 * ones that are mapped everywhere keep {@link SharedControl}'s words) keeps lock records; under
 * {@code atomic} it takes the host words too. One allgather carries every member's verdict, addresses, keys and segment handle; windows
 * that have same-host pairs add one allreduce, so that a mapping that fails on one member makes
 * every member fall back.
 */
final class AtomicLockPlan implements AutoCloseable {
    private final Arena arena;
    private final List<SharedSegments.Segment> segments;
    private final Map<Transport, MemoryRegistration> registrations;
    private final MemorySegment segment;
    private final long[] address;
    private final long[] key;
    private final MemorySegment[] host;

    private AtomicLockPlan(Arena arena, List<SharedSegments.Segment> segments,
                           Map<Transport, MemoryRegistration> registrations, MemorySegment segment,
                           long[] address, long[] key, MemorySegment[] host) {
        this.arena = arena;
        this.segments = segments;
        this.registrations = registrations;
        this.segment = segment;
        this.address = address;
        this.key = key;
        this.host = host;
    }

    /** This member's lock segment. */
    MemorySegment segment() {
        return segment;
    }

    /** Per member: its lock segment's address as registered for this member (other hosts). */
    long[] address() {
        return address;
    }

    long[] key() {
        return key;
    }

    /** Per member: its lock segment as mapped here (itself and same-host members), else null. */
    MemorySegment[] host() {
        return host;
    }

    static boolean nativeAtomics(Capabilities c) {
        return c.has(Capability.ATOMICS) && !c.has(Capability.ATOMICS_EMULATED)
                && c.atomics().contains(AtomicOp.FETCH_AND_ADD)
                && c.atomics().contains(AtomicOp.COMPARE_AND_SWAP)
                && c.has(Capability.RDMA_READ) && !c.has(Capability.RDMA_READ_EMULATED);
    }

    /**
     * Collective: the plan of a window whose locks are atomics ({@code mode}: auto, atomic or
     * record, the same on every member), or null when it uses lock records; with {@code atomic}, a
     * window some pair of whose members can do neither is MPI_ERR_UNSUPPORTED_OPERATION on every
     * member.
     */
    static AtomicLockPlan exchange(ExtensionContext ctx, WindowGroup group, String mode) {
        if (mode.equals("record")) {
            return null;
        }
        int p = group.size();
        int me = group.rank();
        long bytes = LockWords.bytes(p);
        boolean[] onHost = new boolean[p];
        SharedSegments service = null;
        boolean able = true;
        boolean remote = false;
        for (int q = 0; q < p; q++) {
            if (q == me) {
                continue;
            }
            Transport tr = ctx.transport(group.worldRank(q));
            SharedSegments s = tr.extension(SharedSegments.class);
            if (s != null) {
                onHost[q] = true;
                service = s;
            } else {
                remote = true;
                able &= nativeAtomics(tr.capabilities());
            }
        }
        Map<Transport, MemoryRegistration> regs = new IdentityHashMap<>();
        List<SharedSegments.Segment> segments = new ArrayList<>();
        Arena arena = null;
        MemorySegment segment = null;
        String handle = "";
        ByteBuffer mine = ByteBuffer.allocate(16 + 16 * p).order(ByteOrder.LITTLE_ENDIAN);
        if (able) {
            try {
                if (service != null) {
                    SharedSegments.Segment s = service.create(bytes);
                    segments.add(s);
                    segment = s.memory().asSlice(0, bytes);
                    handle = s.handle();
                } else {
                    arena = Arena.ofShared();
                    segment = arena.allocate(bytes, 64);
                }
                for (int q = 0; q < p; q++) {
                    if (q == me || onHost[q]) {
                        continue;
                    }
                    MemorySegment m = segment;
                    MemoryRegistration reg = regs.computeIfAbsent(
                            ctx.transport(group.worldRank(q)), tr -> tr.register(m, Access.ALL));
                    mine.putLong(16 + 16 * q, reg.address());
                    mine.putLong(24 + 16 * q, reg.remoteKey());
                }
            } catch (RuntimeException e) { // no segment or no registration: records for all
                able = false;
            }
        }
        mine.putLong(0, able ? 1 : 0);
        mine.putLong(8, (service != null ? 1 : 0) | (remote ? 2 : 0));
        byte[] h = handle.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[mine.capacity() + h.length];
        mine.get(0, out, 0, mine.capacity());
        System.arraycopy(h, 0, out, mine.capacity(), h.length);
        byte[][] all = group.allgatherBytes(out);
        boolean everyone = true;
        boolean mixed = false;
        boolean anyRemote = false;
        for (int r = 0; r < p; r++) {
            ByteBuffer b = ByteBuffer.wrap(all[r]).order(ByteOrder.LITTLE_ENDIAN);
            everyone &= b.getLong(0) == 1;
            mixed |= (b.getLong(8) & 1) != 0;
            anyRemote |= (b.getLong(8) & 2) != 0;
        }
        AtomicLockPlan plan = new AtomicLockPlan(arena, segments, regs, segment, new long[p],
                new long[p], new MemorySegment[p]);
        if (everyone && !anyRemote && mode.equals("auto")) {
            plan.close(); // one host: auto keeps its records (atomic takes CPU lock words there)
            return null;
        }
        if (!everyone) {
            plan.close();
            return refuse(mode);
        }
        plan.host[me] = segment;
        int[] failed = {0};
        for (int r = 0; r < p; r++) {
            ByteBuffer b = ByteBuffer.wrap(all[r]).order(ByteOrder.LITTLE_ENDIAN);
            if (r == me) {
                continue;
            }
            if (onHost[r]) {
                String theirs = new String(all[r], 16 + 16 * p, all[r].length - 16 - 16 * p,
                        StandardCharsets.UTF_8);
                try {
                    if (!service.attachable(theirs)) {
                        throw new IllegalStateException("not attachable: " + theirs);
                    }
                    SharedSegments.Segment s = service.attach(theirs);
                    segments.add(s);
                    plan.host[r] = s.memory().asSlice(0, bytes);
                } catch (RuntimeException e) {
                    failed[0]++;
                }
            } else {
                plan.address[r] = b.getLong(16 + 16 * me);
                plan.key[r] = b.getLong(24 + 16 * me);
            }
        }
        if (mixed) {
            group.allreduceSum(failed); // every member learns it, so all of them fall back
        }
        if (failed[0] > 0) {
            plan.close();
            return refuse(mode);
        }
        return plan;
    }

    private static AtomicLockPlan refuse(String mode) {
        if (mode.equals("atomic")) {
            throw new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION, "verbatim.rma.lock=atomic,"
                    + " but not every pair of the window's members is on one host or reached over a"
                    + " transport with native remote atomics (ib); use auto or record");
        }
        return null;
    }

    @Override
    public void close() {
        registrations.values().forEach(MemoryRegistration::close);
        registrations.clear();
        for (SharedSegments.Segment s : segments) {
            s.close();
        }
        segments.clear();
        if (arena != null) {
            arena.close();
        }
    }
}
