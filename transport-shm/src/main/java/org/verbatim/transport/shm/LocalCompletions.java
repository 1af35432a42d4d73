package org.verbatim.transport.shm;

import org.verbatim.spi.CompletionHandler;

/**
 * Operations that completed while being posted (cross-memory attach copies, direct atomics,
 * flushes with nothing before them), held until the next progress, when they are delivered in
 * the order they completed. A post first {@link #reserve}s its slot, so a full queue is a RETRY
 * before anything is done, never a lost completion.
 */
final class LocalCompletions {
    private final long[] wrIds;
    private final int[] statuses;
    private int head;
    private int count;
    /** Slots promised to posted operations and not yet delivered. */
    private int reserved;

    LocalCompletions(int capacity) {
        wrIds = new long[capacity];
        statuses = new int[capacity];
    }

    /** Promises {@code n} slots; false (nothing promised) when they are not free. */
    boolean reserve(int n) {
        if (reserved + n > wrIds.length) {
            return false;
        }
        reserved += n;
        return true;
    }

    /** Gives back {@code n} promised slots that will not be used. */
    void unreserve(int n) {
        reserved -= n;
    }

    /** Slots that can still be promised. */
    int available() {
        return wrIds.length - reserved;
    }

    /** Records a completion in a slot promised earlier. */
    void complete(long wrId, int status) {
        final int at = (head + count) % wrIds.length;
        wrIds[at] = wrId;
        statuses[at] = status;
        count++;
    }

    boolean pending() {
        return count > 0;
    }

    /** Delivers every recorded completion; returns how many. */
    int deliver(CompletionHandler handler) {
        int n = 0;
        while (count > 0) {
            final long wrId = wrIds[head];
            final int status = statuses[head];
            head = (head + 1) % wrIds.length;
            count--;
            reserved--;
            n++;
            handler.onComplete(wrId, status);
        }
        return n;
    }
}
