package org.verbatim.onesided;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.Map;
import org.verbatim.spi.Access;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.Transport;

/**
 * Native memory for the puts and gets whose origin or result memory is on the Java heap (a
 * derived origin type, which the API layer packs into a heap array, or a heap segment) when a
 * lock epoch of a window locked by remote atomics takes them by RDMA ({@link DirectOps#everySize}):
 * an RDMA write or read needs native memory, and a record would make unlock wait for the target.
 * One slab of {@link #CAPACITY} bytes per window, allocated and registered (once per transport)
 * at first use and freed with the window; pieces are handed out in order and all given back at
 * once when no RDMA operation of the window is outstanding. An operation that does not fit takes
 * the two-sided path. Runs under the runtime's lock.
 */
final class RdmaStaging implements AutoCloseable {
    static final long CAPACITY = 64 * 1024;
    private static final long ALIGN = 16;

    private Arena arena;
    private MemorySegment slab;
    private final Map<Transport, MemoryRegistration> registrations = new IdentityHashMap<>();
    private long used;

    /** True when {@link #take} would give {@code bytes} now ({@code idle}: nothing outstanding). */
    boolean fits(long bytes, boolean idle) {
        return bytes <= CAPACITY - (idle ? 0 : used);
    }

    /**
     * {@code bytes} of registered native memory, which {@link #fits} said there is room for; it
     * stays the caller's until every RDMA operation of the window has completed.
     */
    MemorySegment take(long bytes, boolean idle) {
        if (!fits(bytes, idle)) {
            throw new IllegalStateException(bytes + " B do not fit the staging slab now");
        }
        if (idle) {
            used = 0;
        }
        MemorySegment piece = slab().asSlice(used, bytes);
        used = Math.min(CAPACITY, (used + bytes + ALIGN - 1) & -ALIGN);
        return piece;
    }

    /** Registers the slab (allocated at the first call) with {@code transport}, once. */
    void registerWith(Transport transport) {
        slab();
        registrations.computeIfAbsent(transport, tr -> tr.register(slab, Access.ALL));
    }

    private MemorySegment slab() {
        if (slab == null) {
            arena = Arena.ofShared();
            slab = arena.allocate(CAPACITY, 64);
        }
        return slab;
    }

    @Override
    public void close() {
        registrations.values().forEach(MemoryRegistration::close);
        registrations.clear();
        if (arena != null) {
            arena.close();
            arena = null;
            slab = null;
        }
    }
}
