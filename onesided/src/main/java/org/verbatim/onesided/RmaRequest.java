package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.RequestState;

/**
 * One operation in flight at the origin that waits for something: a get (or get-accumulate,
 * compare-and-swap) waits for its reply bytes, and its request completes when the last byte is
 * in {@code result}. Also the request of a request-based operation ({@code MPI_Rput} ...).
 */
final class RmaRequest extends RequestState {
    /** Where replies land (null for operations without a result). */
    final MemorySegment result;
    /** Group rank of the target. */
    final int target;
    private long remaining;
    /** Replies still to come (one per piece of a cut operation). */
    int replies;
    /** Places a staged result in the origin's derived datatype once it is all here, or null. */
    private final Runnable unpack;

    RmaRequest(MemorySegment result, int target, long expected) {
        this(result, target, expected, null);
    }

    RmaRequest(MemorySegment result, int target, long expected, Runnable unpack) {
        this.unpack = unpack;
        this.result = result;
        this.target = target;
        this.remaining = expected;
        this.statusBytes = expected;
        if (expected == 0) {
            markComplete();
        }
    }

    /** A request that is complete already (put, accumulate: local completion at issue). */
    static RmaRequest done(int target) {
        return new RmaRequest(null, target, 0);
    }

    /** {@code bytes} of the result have arrived; true when that completed the request. */
    boolean arrived(long bytes) {
        remaining -= bytes;
        if (remaining <= 0) {
            if (unpack != null && statusError == 0 && !isComplete()) {
                unpack.run();
            }
            markComplete();
            return true;
        }
        return false;
    }

    void failed(int errorClass) {
        statusError = errorClass;
        remaining = 0;
        markComplete();
    }
}
