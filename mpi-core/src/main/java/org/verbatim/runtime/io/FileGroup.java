package org.verbatim.runtime.io;

import java.lang.foreign.MemorySegment;

/**
 * The processes that opened a file and the collectives MPI-IO needs among them, offered by the
 * API layer over a private duplicate of the file's communicator (so file traffic never matches
 * the program's). Collective: every member calls each method in the same order. Failures are
 * thrown as {@link org.verbatim.runtime.base.MpiError}.
 */
public interface FileGroup {
    /** This process's rank in the group. */
    int rank();

    int size();

    void barrier();

    /** Every member's {@code mine} (all of one length), concatenated in rank order. */
    long[] allgather(long[] mine);

    /**
     * All-to-all of byte blocks: {@code out[r]} goes to member r (null or empty for nothing);
     * returns what each member sent here, indexed by sender (empty segments for nothing),
     * valid until the next exchange (the buffers are reused).
     */
    MemorySegment[] exchange(MemorySegment[] out);
}
