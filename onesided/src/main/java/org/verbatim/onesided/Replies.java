package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;

/**
 * The origin side's replies of one {@link Window}: operations with a result sent as records
 * (gets, get-accumulates, compare-and-swap) wait here, by token, for their REPLY records, and
 * the count of replies outstanding per target tells flushes and epochs when they are all in.
 * Runs under the runtime's lock, except {@link #await}.
 */
final class Replies {
    private final Window w;
    private final Map<Integer, RmaRequest> awaiting = new HashMap<>();
    private int nextToken = 1;
    /** Replies outstanding per target. */
    final int[] outstanding;

    Replies(Window w) {
        this.w = w;
        this.outstanding = new int[w.size];
    }

    /** A token for {@code r}'s replies, the first of which is now expected. */
    int register(RmaRequest r) {
        int t = nextToken++;
        if (nextToken == Integer.MAX_VALUE) {
            nextToken = 1;
        }
        awaiting.put(t, r);
        expect(r);
        return t;
    }

    /** One more reply for {@code r} (each piece of a cut operation has its own). */
    void expect(RmaRequest r) {
        r.replies++;
        outstanding[r.target]++;
    }

    /** A REPLY record: {@code n} bytes for the result of {@code token} at {@code offset}. */
    void onReply(int src, int token, long offset, MemorySegment m, long payload, long n,
                 int error) {
        RmaRequest r = awaiting.get(token);
        if (r == null || r.target != src) {
            throw w.ctx.fail("one-sided reply from rank " + w.world[src]
                    + " for unknown operation " + token);
        }
        outstanding[src]--;
        if (--r.replies == 0) {
            awaiting.remove(token);
        }
        if (error != 0) {
            r.failed(error);
            if (w.deferredError == 0) {
                w.deferredError = error;
            }
            return;
        }
        if (n > 0) {
            MemorySegment.copy(m, payload, r.result, offset, n);
        }
        r.arrived(n);
    }

    /** True when no reply from {@code rank} (or any rank, -1) is outstanding. */
    boolean none(int rank) {
        if (rank >= 0) {
            return outstanding[rank] == 0;
        }
        for (int n : outstanding) {
            if (n != 0) {
                return false;
            }
        }
        return true;
    }

    /** Waits until every reply from {@code rank} (or every rank, -1) has arrived. */
    void await(int rank) {
        w.await(() -> none(rank));
    }
}
