package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.BaseType;

/**
 * Remembers the memory segments of user buffers a communicator saw, so that a program calling
 * send/recv on the same arrays or Buffers again and again (the usual case, also with a window of
 * 64 buffers each way for nonblocking calls) does not create segment objects on every call:
 * 128 entries in 64 sets of two, chosen by the buffer's identity hash. Keyed by buffer identity, byte length and
 * base type; entries are immutable, so a racy read under MPI_THREAD_MULTIPLE sees a whole entry
 * or none. It keeps at most 128 buffers reachable per communicator.
 */
final class SegmentCache {
    private static final int SETS = 64;

    private record Entry(Object buffer, long bytes, BaseType base, MemorySegment segment) {
    }

    /** Matches nothing: empty slots hold it, so the lookup has no null test (see find). */
    private static final Entry EMPTY = new Entry(new Object(), -1, null, null);

    private final Entry[] entries = new Entry[2 * SETS];
    /** Per set, which of its two slots the next new entry replaces. */
    private final boolean[] replaceSecond = new boolean[SETS];

    SegmentCache() {
        java.util.Arrays.fill(entries, EMPTY);
    }

    /**
     * The cached segment, or null. No branch here depends on whether the cache is new: code the
     * JIT compiled while MPI_Init's warm-up filled its own caches must not meet an untaken
     * branch (and be thrown out) at a program's first call on a new communicator.
     */
    MemorySegment find(Object buffer, long bytes, BaseType base) {
        int i = 2 * (System.identityHashCode(buffer) & (SETS - 1));
        Entry e = entries[i];
        if (e.buffer == buffer && e.bytes == bytes && e.base == base) {
            return e.segment;
        }
        e = entries[i + 1];
        if (e.buffer == buffer && e.bytes == bytes && e.base == base) {
            return e.segment;
        }
        return null;
    }

    void remember(Object buffer, long bytes, BaseType base, MemorySegment segment) {
        int set = System.identityHashCode(buffer) & (SETS - 1);
        boolean second = replaceSecond[set];
        entries[2 * set + (second ? 1 : 0)] = new Entry(buffer, bytes, base, segment);
        replaceSecond[set] = !second;
    }
}
