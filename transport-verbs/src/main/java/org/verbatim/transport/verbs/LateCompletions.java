package org.verbatim.transport.verbs;

import java.util.Arrays;
import org.verbatim.spi.CompletionHandler;

/**
 * Completions decided without the device (an operation refused before it was posted, such as a
 * misaligned atomic), kept until the next progress pass so that they reach the runtime the way
 * every completion does: from inside {@code progress}, never from inside the post call.
 */
final class LateCompletions {
    private final CompletionHandler handler;
    private long[] ids = new long[4];
    private int[] statuses = new int[4];
    private int count;

    LateCompletions(CompletionHandler handler) {
        this.handler = handler;
    }

    void add(long wrId, int status) {
        if (count == ids.length) {
            ids = Arrays.copyOf(ids, count * 2);
            statuses = Arrays.copyOf(statuses, count * 2);
        }
        ids[count] = wrId;
        statuses[count++] = status;
    }

    boolean pending() {
        return count > 0;
    }

    /** Delivers what was there when called; returns how many. */
    int deliver() {
        int n = count;
        for (int i = 0; i < n; i++) {
            handler.onComplete(ids[i], statuses[i]);
        }
        // completions decided while delivering (a handler that posts again) stay for next time
        System.arraycopy(ids, n, ids, 0, count - n);
        System.arraycopy(statuses, n, statuses, 0, count - n);
        count -= n;
        return n;
    }
}
