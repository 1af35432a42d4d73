package org.verbatim.runtime.base;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Native buffers for unexpected eager payloads and rendezvous staging, in power-of-two size
 * classes. Classes up to {@link #POOLED_MAX} are kept for reuse (up to {@link #KEEP_PER_CLASS}
 * per class); larger buffers are freed on release. Not thread-safe: used under the engine lock.
 *
 * <p>Every buffer has its own arena, closed when the pool lets the buffer go. (With one shared
 * arena for all, a buffer released while its class was full was never freed until the pool
 * closed: a window of 64 nonblocking 1 MiB array sends leaked 32 MiB per window on each side,
 * gigabytes in an OSU bandwidth run. Automatic arenas would free them only at a GC, which
 * a loop that allocates little on the heap may not see for a long time.)
 */
public final class StagingPool implements AutoCloseable {
    static final int MIN_CLASS = 6;              // 64 bytes
    static final long POOLED_MAX = 1L << 22;     // 4 MiB
    /** Covers a window of 64 outstanding operations (OSU's bandwidth window). */
    private static final int KEEP_PER_CLASS = 64;
    /**
     * Up to 512 KiB classes (at most 64 MiB kept, as 64 of 1 MiB): a window of 128, which
     * covers the datatype paper's 100-message window of derived-type messages, each staged on
     * both sides (packed at the sender, read into staging at the receiver). With 64 kept, 36 buffers of every window were
     * allocated and freed again (and freeing a shared arena costs a handshake with every
     * thread).
     */
    private static final int KEEP_PER_SMALL_CLASS = 128;
    private static final long SMALL_CLASS_MAX = 1L << 19;

    @SuppressWarnings("unchecked")
    private final ArrayDeque<MemorySegment>[] free = new ArrayDeque[64];
    /** The arena of every buffer this pool owns, by base address. */
    private final Map<Long, Arena> arenas = new HashMap<>();
    private long allocatedBytes;

    public MemorySegment acquire(long size) {
        int cls = sizeClass(size);
        long classSize = 1L << cls;
        if (classSize > POOLED_MAX) {
            return allocate(size);
        }
        ArrayDeque<MemorySegment> q = free[cls];
        MemorySegment s = q == null ? null : q.pollFirst();
        if (s == null) {
            s = allocate(classSize);
        }
        return s.asSlice(0, size);
    }

    private MemorySegment allocate(long bytes) {
        Arena own = Arena.ofShared();
        MemorySegment s = own.allocate(bytes, bytes >= 4096 ? 4096 : 64);
        arenas.put(s.address(), own);
        allocatedBytes += bytes;
        return s;
    }

    public void release(MemorySegment s) {
        int cls = sizeClass(s.byteSize());
        long classSize = 1L << cls;
        if (classSize <= POOLED_MAX) {
            ArrayDeque<MemorySegment> q = free[cls];
            if (q == null) {
                q = free[cls] = new ArrayDeque<>();
            }
            if (q.size() < (classSize <= SMALL_CLASS_MAX ? KEEP_PER_SMALL_CLASS : KEEP_PER_CLASS)) {
                q.addFirst(s.reinterpret(classSize));
                return;
            }
        }
        Arena own = arenas.remove(s.address());
        if (own != null) {
            allocatedBytes -= classSize <= POOLED_MAX ? classSize : s.byteSize();
            own.close();
        }
    }

    static int sizeClass(long size) {
        if (size <= (1L << MIN_CLASS)) {
            return MIN_CLASS;
        }
        return 64 - Long.numberOfLeadingZeros(size - 1);
    }

    /** Native memory this pool holds (profiler: communication memory). */
    public long allocatedBytes() {
        return allocatedBytes;
    }

    @Override
    public void close() {
        for (ArrayDeque<MemorySegment> q : free) {
            if (q != null) {
                q.clear();
            }
        }
        arenas.values().forEach(Arena::close);
        arenas.clear();
        allocatedBytes = 0;
    }
}
