package org.verbatim.runtime;

import java.util.Arrays;
import org.verbatim.runtime.ext.Retryable;

/**
 * The runtime's one queue of work that a transport refused for now (sends, control replies,
 * rendezvous reads, CTS messages, RPUT writes, and whatever extensions queue), retried on every
 * progress pass in queue order. An item that keeps a peer's order blocks the later ordered items
 * of the same peer for the rest of the pass, so messages to one peer never overtake each other.
 */
final class PendingQueue {
    private Retryable[] items = new Retryable[16];
    /** Each item's ordered peer as it was when queued (its own answer may change later). */
    private int[] itemPeers = new int[16];
    private int count;
    /** Ordered items queued per world rank. */
    private final int[] orderedCount;
    /** The pass in which a peer's ordered item stayed queued (blocks later ones that pass). */
    private final int[] blockedInPass;
    private int pass;

    PendingQueue(int worldSize) {
        orderedCount = new int[worldSize];
        blockedInPass = new int[worldSize];
    }

    void add(Retryable work) {
        if (count == items.length) {
            items = Arrays.copyOf(items, count * 2);
            itemPeers = Arrays.copyOf(itemPeers, count * 2);
        }
        int peer = work.orderedPeer();
        items[count] = work;
        itemPeers[count] = peer;
        count++;
        if (peer >= 0) {
            orderedCount[peer]++;
        }
    }

    int orderedFor(int world) {
        return orderedCount[world];
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** Retries every item once, in order; returns how many left the queue. */
    int retryAll() {
        int n = count;
        if (n == 0) {
            return 0;
        }
        pass++;
        int kept = 0;
        int done = 0;
        for (int i = 0; i < n; i++) {
            Retryable r = items[i];
            int peer = itemPeers[i];
            boolean finished;
            if (peer >= 0 && blockedInPass[peer] == pass) {
                finished = false;
            } else {
                finished = r.retry();
            }
            if (finished) {
                done++;
                if (peer >= 0) {
                    orderedCount[peer]--;
                }
            } else {
                if (peer >= 0) {
                    blockedInPass[peer] = pass;
                }
                itemPeers[kept] = peer;
                items[kept++] = r;
            }
        }
        // Items queued during the pass (by the retries themselves) follow the kept ones.
        int added = count - n;
        System.arraycopy(items, n, items, kept, added);
        System.arraycopy(itemPeers, n, itemPeers, kept, added);
        Arrays.fill(items, kept + added, count, null);
        count = kept + added;
        return done;
    }
}
