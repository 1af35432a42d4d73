package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.BaseType;

/**
 * Remembers the memory segments of the last few user buffers a communicator saw, so that a
 * program calling send/recv on the same arrays or Buffers again and again (the usual case) does
 * not create segment objects on every call. Keyed by buffer identity, byte length and base type;
 * entries are immutable, so a racy read under MPI_THREAD_MULTIPLE sees a whole entry or none.
 */
final class SegmentCache {
    private static final int SIZE = 4;

    private record Entry(Object buffer, long bytes, BaseType base, MemorySegment segment) {
    }

    /** Matches nothing: empty slots hold it, so the lookup has no null test (see find). */
    private static final Entry EMPTY = new Entry(new Object(), -1, null, null);

    private final Entry[] entries = {EMPTY, EMPTY, EMPTY, EMPTY};
    private int next;

    /**
     * The cached segment, or null. No branch here depends on whether the cache is new: code the
     * JIT compiled while MPI_Init's warm-up filled its own caches must not meet an untaken
     * branch (and be thrown out) at a program's first call on a new communicator.
     */
    MemorySegment find(Object buffer, long bytes, BaseType base) {
        for (Entry e : entries) {
            if (e.buffer == buffer && e.bytes == bytes && e.base == base) {
                return e.segment;
            }
        }
        return null;
    }

    void remember(Object buffer, long bytes, BaseType base, MemorySegment segment) {
        int i = next;
        entries[i] = new Entry(buffer, bytes, base, segment);
        next = (i + 1) % SIZE;
    }
}
