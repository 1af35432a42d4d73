package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.BaseType;

/**
 * Remembers the memory segments of user buffers a communicator saw, so that a program calling
 * send/recv on the same arrays or Buffers again and again (the usual case, also with a window of
 * 64 buffers each way for nonblocking calls) does not create segment objects on every call:
 * 512 entries in 128 sets of four, chosen by the buffer's identity hash, each set replacing its
 * entries in turn. The old 64 sets of two left about one buffer in six of a 64-buffer window
 * without a slot of its own (sets that three or more buffers share thrash: every call on them
 * created a segment and its session again, a fifth of a small {@code iRecv}'s time, issue 17);
 * with 128 sets of four, 64 buffers overflow a set in about one program of fifty. Keyed by buffer identity, byte length and base
 * type; entries are immutable, so a racy read under MPI_THREAD_MULTIPLE sees a whole entry or
 * none. It keeps at most 512 buffers reachable per communicator.
 */
final class SegmentCache {
    private static final int SETS = 128;
    private static final int WAYS = 4;

    private record Entry(Object buffer, long bytes, BaseType base, MemorySegment segment) {
    }

    /** Matches nothing: empty slots hold it, so the lookup has no null test (see find). */
    private static final Entry EMPTY = new Entry(new Object(), -1, null, null);

    private final Entry[] entries = new Entry[WAYS * SETS];
    /** Per set, which of its ways the next new entry replaces. */
    private final byte[] victim = new byte[SETS];

    SegmentCache() {
        java.util.Arrays.fill(entries, EMPTY);
    }

    /**
     * The cached segment, or null. No branch here depends on whether the cache is new: code the
     * JIT compiled while MPI_Init's warm-up filled its own caches must not meet an untaken
     * branch (and be thrown out) at a program's first call on a new communicator.
     */
    MemorySegment find(Object buffer, long bytes, BaseType base) {
        final int first = WAYS * (System.identityHashCode(buffer) & (SETS - 1));
        for (int i = first; i < first + WAYS; i++) {
            final Entry e = entries[i];
            if (e.buffer == buffer && e.bytes == bytes && e.base == base) {
                return e.segment;
            }
        }
        return null;
    }

    void remember(Object buffer, long bytes, BaseType base, MemorySegment segment) {
        final int set = System.identityHashCode(buffer) & (SETS - 1);
        final int way = victim[set];
        entries[WAYS * set + way] = new Entry(buffer, bytes, base, segment);
        victim[set] = (byte) ((way + 1) & (WAYS - 1));
    }
}
