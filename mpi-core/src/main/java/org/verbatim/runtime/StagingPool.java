package org.verbatim.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Native buffers for unexpected eager payloads and rendezvous staging, in power-of-two size
 * classes. Classes up to {@link #POOLED_MAX} are kept for reuse (bounded per class); larger
 * buffers get their own arena, freed on release. Not thread-safe: used under the engine lock.
 */
final class StagingPool implements AutoCloseable {
    static final int MIN_CLASS = 6;              // 64 bytes
    static final long POOLED_MAX = 1L << 22;     // 4 MiB
    private static final int KEEP_PER_CLASS = 32;

    private final Arena arena = Arena.ofShared();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<MemorySegment>[] free = new ArrayDeque[64];
    private final Map<Long, Arena> large = new HashMap<>();
    private long allocatedBytes;

    MemorySegment acquire(long size) {
        int cls = sizeClass(size);
        long classSize = 1L << cls;
        if (classSize > POOLED_MAX) {
            Arena own = Arena.ofShared();
            MemorySegment s = own.allocate(size, 64);
            large.put(s.address(), own);
            allocatedBytes += size;
            return s;
        }
        ArrayDeque<MemorySegment> q = free[cls];
        MemorySegment s = q == null ? null : q.pollFirst();
        if (s == null) {
            s = arena.allocate(classSize, 64);
            allocatedBytes += classSize;
        }
        return s.asSlice(0, size);
    }

    void release(MemorySegment s) {
        Arena own = large.remove(s.address());
        if (own != null) {
            allocatedBytes -= s.byteSize();
            own.close();
            return;
        }
        int cls = sizeClass(s.byteSize());
        ArrayDeque<MemorySegment> q = free[cls];
        if (q == null) {
            q = free[cls] = new ArrayDeque<>();
        }
        if (q.size() < KEEP_PER_CLASS) {
            q.addFirst(MemorySegment.ofAddress(s.address()).reinterpret(1L << cls));
        }
    }

    static int sizeClass(long size) {
        if (size <= (1L << MIN_CLASS)) {
            return MIN_CLASS;
        }
        return 64 - Long.numberOfLeadingZeros(size - 1);
    }

    /** Native memory this pool holds (profiler: communication memory). */
    long allocatedBytes() {
        return allocatedBytes;
    }

    @Override
    public void close() {
        large.values().forEach(Arena::close);
        large.clear();
        arena.close();
    }
}
