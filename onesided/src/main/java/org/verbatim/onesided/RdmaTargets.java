package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.Map;
import org.verbatim.runtime.ext.ExtensionContext;
import org.verbatim.runtime.rma.WindowGroup;
import org.verbatim.spi.Access;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.Transport;

/**
 * The members of a window that this process reaches by native RDMA (shm's cross-memory attach,
 * verbs): their window memory's address and remote key, exchanged at creation. A member counts
 * only if its memory is not mapped here (then loads and stores are better), the transport between
 * us writes and reads natively (not emulated), and a write is known placed once it completes
 * (RDMA_BY_CPU) or can be flushed (FLUSH). Each process registers its window memory once per
 * transport it is reached through.
 */
final class RdmaTargets implements AutoCloseable {
    private static final long NONE = -1;

    final boolean[] usable;
    final long[] address;
    final long[] key;
    /** The transport to each usable member: immediates and flushes depend on it. */
    final Capabilities[] caps;
    private final Map<Transport, MemoryRegistration> registrations = new IdentityHashMap<>();

    private RdmaTargets(int p) {
        usable = new boolean[p];
        address = new long[p];
        key = new long[p];
        caps = new Capabilities[p];
    }

    /** Collective: every member calls it with the same {@code enabled}. */
    static RdmaTargets exchange(ExtensionContext ctx, WindowGroup group, WindowMemory memory,
                                boolean enabled) {
        int p = group.size();
        int me = group.rank();
        RdmaTargets t = new RdmaTargets(p);
        long[] mine = new long[2 * p];
        for (int q = 0; q < p; q++) {
            mine[2 * q] = 0;
            mine[2 * q + 1] = NONE;
            if (!enabled || q == me || memory.mapped[q] != null || memory.local == null
                    || memory.local.byteSize() == 0) {
                continue;
            }
            Transport tr = ctx.transport(group.worldRank(q));
            if (!nativeRdma(tr.capabilities())) {
                continue;
            }
            MemoryRegistration reg = t.registrations.computeIfAbsent(tr,
                    x -> x.register(memory.local, Access.ALL));
            mine[2 * q] = reg.address();
            mine[2 * q + 1] = reg.remoteKey();
        }
        long[] all = group.allgather(mine);
        for (int r = 0; r < p; r++) {
            long k = all[r * 2 * p + 2 * me + 1];
            if (r == me || k == NONE || memory.mapped[r] != null) {
                continue;
            }
            Capabilities c = ctx.transport(group.worldRank(r)).capabilities();
            if (nativeRdma(c)) {
                t.usable[r] = true;
                t.address[r] = all[r * 2 * p + 2 * me];
                t.key[r] = k;
                t.caps[r] = c;
            }
        }
        return t;
    }

    static boolean nativeRdma(Capabilities c) {
        return c.has(Capability.RDMA_WRITE) && !c.has(Capability.RDMA_WRITE_EMULATED)
                && c.has(Capability.RDMA_READ) && !c.has(Capability.RDMA_READ_EMULATED)
                && (c.has(Capability.RDMA_BY_CPU) || c.has(Capability.FLUSH));
    }

    /** True when a write to {@code r} is placed once it completes (no flush needed). */
    boolean placedOnCompletion(int r) {
        return caps[r].has(Capability.RDMA_BY_CPU);
    }

    boolean immediates(int r) {
        return caps[r].has(Capability.WRITE_WITH_IMMEDIATE);
    }

    @Override
    public void close() {
        registrations.values().forEach(MemoryRegistration::close);
        registrations.clear();
    }

    /** Native memory usable as the local side of an RDMA operation. */
    static boolean nativeMemory(MemorySegment m) {
        return m != null && m.isNative();
    }
}
