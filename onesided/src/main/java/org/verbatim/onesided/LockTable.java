package org.verbatim.onesided;

import java.util.ArrayDeque;

/**
 * The target side of passive-target locks on one window: shared holders, an exclusive holder, and
 * a FIFO of waiting requests. Requests are granted strictly in arrival order, so a waiting
 * exclusive request holds back shared requests that arrive after it: neither readers nor writers
 * starve. Runs under the runtime's lock (message handlers).
 */
final class LockTable {
    private record Waiter(int origin, boolean exclusive) {
    }

    private int sharedHolders;
    private int exclusiveHolder = -1;
    private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();

    /** Called for each request granted. */
    interface Grant {
        void granted(int origin);
    }

    void request(int origin, boolean exclusive, Grant grant) {
        waiting.add(new Waiter(origin, exclusive));
        grantWaiting(grant);
    }

    /** Releases {@code origin}'s lock; false if it held none. */
    boolean release(int origin, Grant grant) {
        if (exclusiveHolder == origin) {
            exclusiveHolder = -1;
        } else if (sharedHolders > 0 && exclusiveHolder < 0) {
            sharedHolders--;
        } else {
            return false;
        }
        grantWaiting(grant);
        return true;
    }

    boolean idle() {
        return sharedHolders == 0 && exclusiveHolder < 0 && waiting.isEmpty();
    }

    private void grantWaiting(Grant grant) {
        while (!waiting.isEmpty()) {
            Waiter w = waiting.peek();
            if (exclusiveHolder >= 0) {
                return;
            }
            if (w.exclusive()) {
                if (sharedHolders > 0) {
                    return;
                }
                exclusiveHolder = w.origin();
            } else {
                sharedHolders++;
            }
            waiting.poll();
            grant.granted(w.origin());
        }
    }
}
