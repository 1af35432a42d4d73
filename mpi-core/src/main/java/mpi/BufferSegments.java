package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * The segments of the last few direct buffers a window's calls were given, by identity: a loop
 * of one-sided calls on the same buffers makes no new segment (and scope) per call. A direct
 * buffer's segment covers its whole capacity whatever its position and limit
 * ({@link Buffers#whole}), so the buffer object alone decides it. Entries are immutable pairs,
 * so threads calling at once see a buffer with its own segment or a miss, never a mix.
 */
final class BufferSegments {
    private record Entry(Buffer buffer, MemorySegment whole) {
    }

    private final Entry[] entries = new Entry[4];
    private int next;

    /** {@code b}'s whole segment ({@code b} direct), from the cache or made and cached. */
    MemorySegment whole(Buffer b, Datatype type) throws MPIException {
        for (Entry e : entries) {
            if (e != null && e.buffer == b) {
                return e.whole;
            }
        }
        MemorySegment s = Buffers.whole(b, type);
        int i = next;
        entries[i & (entries.length - 1)] = new Entry(b, s);
        next = i + 1;
        return s;
    }
}
