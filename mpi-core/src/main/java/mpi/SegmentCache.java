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

    private final Entry[] entries = new Entry[SIZE];
    private int next;

    MemorySegment find(Object buffer, long bytes, BaseType base) {
        for (Entry e : entries) {
            if (e != null && e.buffer == buffer && e.bytes == bytes && e.base == base) {
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
