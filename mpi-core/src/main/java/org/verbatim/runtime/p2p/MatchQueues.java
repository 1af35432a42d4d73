package org.verbatim.runtime.p2p;

/**
 * The two MPI matching queues: posted receives in posting order and unexpected messages in
 * arrival order. Matching takes the first entry that fits, which gives MPI's non-overtaking
 * order per (source, tag, communicator) as long as each peer's messages arrive in order.
 * Intrusive doubly linked lists: no allocation to add or remove.
 */
final class MatchQueues {
    private RecvOp postedHead;
    private RecvOp postedTail;
    private Unexpected unexpectedHead;
    private Unexpected unexpectedTail;
    private int unexpectedCount;
    private long unexpectedTotal;

    void post(RecvOp r) {
        r.prev = postedTail;
        r.next = null;
        if (postedTail == null) {
            postedHead = r;
        } else {
            postedTail.next = r;
        }
        postedTail = r;
        r.posted = true;
    }

    /** Removes and returns the first posted receive matching the message, or null. */
    RecvOp takePosted(int context, int source, int tag) {
        for (RecvOp r = postedHead; r != null; r = r.next) {
            if (r.matches(context, source, tag)) {
                unlink(r);
                return r;
            }
        }
        return null;
    }

    void unlink(RecvOp r) {
        if (!r.posted) {
            return;
        }
        if (r.prev == null) {
            postedHead = r.next;
        } else {
            r.prev.next = r.next;
        }
        if (r.next == null) {
            postedTail = r.prev;
        } else {
            r.next.prev = r.prev;
        }
        r.prev = null;
        r.next = null;
        r.posted = false;
    }

    void addUnexpected(Unexpected u) {
        u.prev = unexpectedTail;
        u.next = null;
        if (unexpectedTail == null) {
            unexpectedHead = u;
        } else {
            unexpectedTail.next = u;
        }
        unexpectedTail = u;
        unexpectedCount++;
        unexpectedTotal++;
    }

    /** The unexpected message added last (null: none queued). */
    Unexpected lastUnexpected() {
        return unexpectedTail;
    }

    /** The first unexpected message matching the receive's pattern, or null; not removed. */
    Unexpected findUnexpected(int context, int source, int tag) {
        for (Unexpected u = unexpectedHead; u != null; u = u.next) {
            if (u.context == context
                    && (source == PointToPoint.ANY_SOURCE || source == u.source)
                    && (tag == PointToPoint.ANY_TAG || tag == u.tag)) {
                return u;
            }
        }
        return null;
    }

    void removeUnexpected(Unexpected u) {
        if (u.prev == null) {
            unexpectedHead = u.next;
        } else {
            u.prev.next = u.next;
        }
        if (u.next == null) {
            unexpectedTail = u.prev;
        } else {
            u.next.prev = u.prev;
        }
        u.prev = null;
        u.next = null;
        unexpectedCount--;
    }

    int unexpectedCount() {
        return unexpectedCount;
    }

    /** Messages that ever went through the unexpected queue (profiler). */
    long unexpectedTotal() {
        return unexpectedTotal;
    }

    boolean hasPosted() {
        return postedHead != null;
    }

    /** Calls {@code action} with every posted receive, oldest first. */
    void forEachPosted(java.util.function.Consumer<RecvOp> action) {
        for (RecvOp r = postedHead; r != null; r = r.next) {
            action.accept(r);
        }
    }
}
