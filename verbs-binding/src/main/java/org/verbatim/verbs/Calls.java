package org.verbatim.verbs;

import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.raw.RuntimeHelper;

/** Result checks for set-up calls: NULL or non-zero results become {@link VerbsException}s. */
final class Calls {

    private Calls() { }

    /** Returns {@code result}, or throws with the errno captured in {@code state} if it is NULL. */
    static MemorySegment nonNull(MemorySegment result, MemorySegment state, String call) {
        if (result.equals(MemorySegment.NULL)) {
            throw new VerbsException(call, RuntimeHelper.errno(state));
        }
        return result;
    }

    /**
     * Throws unless {@code rc} is 0. Verbs return either an errno value or -1 with errno set;
     * both are reported as the errno.
     */
    static void zero(int rc, MemorySegment state, String call) {
        if (rc != 0) {
            throw new VerbsException(call, rc == -1 ? RuntimeHelper.errno(state) : Math.abs(rc));
        }
    }
}
