package org.verbatim.spi;

import java.lang.foreign.MemorySegment;

/**
 * Memory that same-host ranks map together, for one-sided windows that peers load from, store
 * to and run atomics on directly: a transport extension ({@link Transport#extension(Class)}),
 * offered by shm. One rank {@link #create}s a segment, passes its {@link Segment#handle()} to the
 * peers (in a protocol message or through the bootstrap), and each peer {@link #attach}es it.
 * Every mapping sees the same bytes; the addresses differ per process.
 *
 * <p>Registering memory inside a segment ({@link Transport#register}) gives a registration that
 * peers who attached the same segment serve directly: atomics issued through the endpoint then
 * run as CPU atomics on the shared mapping instead of as active messages. Peers that did not
 * attach still reach it the ordinary way.
 *
 * <p>No file outlives the mapping: the backing file is unlinked as soon as its creator has mapped
 * it, and a job that dies leaves nothing behind.
 */
public interface SharedSegments {
    /** Creates a segment of {@code byteSize} zeroed bytes mapped by this rank. */
    Segment create(long byteSize);

    /**
     * Maps the segment that a rank on this host created, named by its {@link Segment#handle()}.
     * IllegalArgumentException if the handle is malformed; IllegalStateException if the segment
     * cannot be mapped (its creator is gone or closed it).
     */
    Segment attach(String handle);

    /** True when {@code handle} names a segment this process can attach (same host). */
    boolean attachable(String handle);

    /** One mapping of a shared segment. Closing it unmaps it here; the others keep theirs. */
    interface Segment extends AutoCloseable {
        /** The mapped memory (valid until {@link #close()}). */
        MemorySegment memory();

        /** What a peer passes to {@link SharedSegments#attach}: printable, no spaces. */
        String handle();

        /** True in the rank that created the segment. */
        boolean creator();

        /** Unmaps; the creator's close also stops new attachments. */
        @Override
        void close();
    }
}
