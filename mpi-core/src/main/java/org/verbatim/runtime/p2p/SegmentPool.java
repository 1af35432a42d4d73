package org.verbatim.runtime.p2p;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.Map;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.Transport;

/**
 * A pre-registered pool of equal segments (the datatype paper's pack and unpack pools): one
 * native block allocated at first use, cut into {@code segmentBytes} pieces, registered once per
 * transport that asks for it and kept registered until close. Taking and giving back a segment is
 * a push or pop on an int stack: nothing is allocated or registered per message. When the pool is
 * empty {@link #take()} says so and the caller falls back to a dynamic buffer.
 *
 * <p>Not thread-safe: used under the engine's lock.
 */
final class SegmentPool implements AutoCloseable {
    /** {@link #take()} when no segment is free. */
    static final int NONE = -1;

    private final long segmentBytes;
    private final int segments;
    private final int access;
    private Arena arena;
    private MemorySegment block;
    private int[] free;
    private int freeCount;
    private final Map<Transport, MemoryRegistration> registrations = new IdentityHashMap<>();

    /** {@code poolBytes / segmentBytes} segments, registered with {@code access} rights. */
    SegmentPool(long poolBytes, long segmentBytes, int access) {
        this.segmentBytes = segmentBytes;
        this.segments = (int) Math.min(Integer.MAX_VALUE, Math.max(1, poolBytes / segmentBytes));
        this.access = access;
    }

    long segmentBytes() {
        return segmentBytes;
    }

    int capacity() {
        return segments;
    }

    /** Segments free now. */
    int available() {
        return block == null ? segments : freeCount;
    }

    /** A free segment's index, or {@link #NONE}. */
    int take() {
        if (block == null) {
            allocate();
        }
        return freeCount == 0 ? NONE : free[--freeCount];
    }

    /** Gives segment {@code index} back. */
    void give(int index) {
        if (index < 0 || index >= segments || freeCount == segments) {
            throw new IllegalStateException("segment " + index + " given back twice or unknown");
        }
        free[freeCount++] = index;
    }

    /** The memory of segment {@code index}. */
    MemorySegment segment(int index) {
        return block.asSlice(index * segmentBytes, segmentBytes);
    }

    /** The registration of the whole pool with {@code t}, made at its first use. */
    MemoryRegistration registration(Transport t) {
        MemoryRegistration r = registrations.get(t);
        if (r == null) {
            if (block == null) {
                allocate();
            }
            r = t.register(block, access);
            registrations.put(t, r);
        }
        return r;
    }

    /** Address of segment {@code index} as {@code t}'s peers name it. */
    long address(Transport t, int index) {
        return registration(t).address() + index * segmentBytes;
    }

    private void allocate() {
        arena = Arena.ofShared();
        block = arena.allocate(segmentBytes * segments, 4096);
        free = new int[segments];
        for (int i = 0; i < segments; i++) {
            free[i] = segments - 1 - i; // segment 0 first
        }
        freeCount = segments;
    }

    /** Native memory held (0 until first use). */
    long allocatedBytes() {
        return block == null ? 0 : block.byteSize();
    }

    @Override
    public void close() {
        registrations.values().forEach(MemoryRegistration::close);
        registrations.clear();
        if (arena != null) {
            arena.close();
            arena = null;
            block = null;
        }
    }
}
