package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

/**
 * PSCW epochs of one {@link Window}: post sends POST to each origin of the exposure group, start
 * waits for the POST of each target of the access group (unless MODE_NOCHECK), complete issues
 * what the scheduler holds, completes the RDMA and sends COMPLETE behind the records, and
 * wait/test wait for the COMPLETE of each origin. On a window every member maps, POST and
 * COMPLETE are counters in the peer's control words ({@link SharedControl#post},
 * {@link SharedControl#complete}) instead of messages: every operation there is complete once
 * issued, so the epochs need only these signals.
 */
final class Pscw {
    /** Polls of a shared PSCW counter before waiting with progress. */
    private final Window w;
    private int[] accessGroup;
    private final boolean[] inAccessGroup;
    private int[] exposureGroup;
    /** Shared counters consumed so far, per peer: posts to us, completions on us. */
    private final long[] postsSeen;
    private final long[] completesSeen;
    /**
     * The ranks {@link #awaitShared} waits on (start for posts, wait for completions) and its
     * two conditions, made once: with more ranks than cores the spins run out often, and a
     * lambda per wait would allocate each time. They read shared counters only: no runtime lock.
     */
    private int[] postsRanks;
    private int[] completesRanks;
    private final BooleanSupplier postsDone = () -> postsArrived(postsRanks);
    private final BooleanSupplier completesDone = () -> completesArrived(completesRanks);

    /** Spins on the shared counters before a wait makes progress ({@link SpinBudget}). */
    private final int spins;

    Pscw(Window w) {
        this.w = w;
        this.spins = SpinBudget.forMembers(w.size);
        this.inAccessGroup = new boolean[w.size];
        this.postsSeen = new long[w.size];
        this.completesSeen = new long[w.size];
    }

    private boolean shared() {
        return w.memory.allMapped;
    }

    private boolean postsArrived(int[] ranks) {
        if (shared()) {
            MemorySegment mine = w.memory.control[w.me];
            for (int r : ranks) {
                if (SharedControl.posts(mine, r) <= postsSeen[r]) {
                    return false;
                }
            }
            return true;
        }
        for (int r : ranks) {
            if (w.target.posts[r] == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Spins a while on the shared counters of posts ({@code completes} false) or completions,
     * then waits making progress; the spins make no lambda (a short epoch's usual case).
     */
    private void awaitShared(int[] ranks, boolean completes) {
        for (int i = 0; i < spins; i++) {
            if (completes ? completesArrived(ranks) : postsArrived(ranks)) {
                return;
            }
            Thread.onSpinWait();
        }
        if (completes) {
            completesRanks = ranks;
        } else {
            postsRanks = ranks;
        }
        long start = System.nanoTime();
        w.ctx.awaitCondition(completes ? completesDone : postsDone);
        w.ext.counters.waitNanos += System.nanoTime() - start;
    }

    /** True while an access epoch to {@code r} is open. */
    boolean accessTo(int r) {
        return inAccessGroup[r];
    }

    /** True while an access or exposure epoch is open. */
    boolean open() {
        return accessGroup != null || exposureGroup != null;
    }

    void start(int[] ranks, int assertion) {
        w.checkLive();
        w.lock();
        try {
            if (accessGroup != null) {
                throw Window.syncError("start while an access epoch is open");
            }
            w.epochs.leaveIdleFence("start");
            accessGroup = ranks; // the caller's to keep (RmaWindow#start)
            for (int r : ranks) {
                inAccessGroup[r] = true;
            }
            w.epochs.changed();
        } finally {
            w.unlock();
        }
        if ((assertion & OneSidedExtension.MODE_NOCHECK) == 0) {
            if (shared()) {
                awaitShared(ranks, false);
                for (int r : ranks) {
                    postsSeen[r]++;
                }
            } else {
                w.await(() -> postsArrived(ranks));
                w.lock();
                try {
                    for (int r : ranks) {
                        w.target.posts[r]--;
                    }
                } finally {
                    w.unlock();
                }
            }
        }
        w.ext.counters.epochs++;
    }

    void complete() {
        w.checkLive();
        int[] ranks;
        w.lock();
        try {
            if (accessGroup == null) {
                throw Window.syncError("complete without start");
            }
            ranks = accessGroup;
            w.submitter.issueHeld();
            if (shared()) { // every operation is complete once issued: signal in this pass
                endAccess(ranks);
                return;
            }
        } finally {
            w.unlock();
        }
        for (int r : ranks) {
            w.direct.complete(r);
        }
        w.lock();
        try {
            endAccess(ranks);
        } finally {
            w.unlock();
        }
        w.replies.await(-1);
        w.raiseDeferred();
    }

    /** COMPLETE to every target of the access epoch (counters or records), which then ends. */
    private void endAccess(int[] ranks) {
        for (int r : ranks) {
            if (shared()) {
                SharedControl.complete(w.memory.control[r], w.size, w.me);
            } else {
                w.channels.sendSync(r, RmaWire.COMPLETE, 0);
            }
        }
        accessGroup = null;
        for (int r : ranks) {
            inAccessGroup[r] = false;
        }
        w.epochs.changed();
    }

    void post(int[] ranks, int assertion) {
        w.checkLive();
        w.lock();
        try {
            if (exposureGroup != null) {
                throw Window.syncError("post while an exposure epoch is open");
            }
            w.epochs.leaveIdleFence("post");
            exposureGroup = ranks;
            for (int r : ranks) {
                if (shared()) {
                    SharedControl.post(w.memory.control[r], w.me);
                } else {
                    w.channels.sendSync(r, RmaWire.POST, 0);
                }
            }
        } finally {
            w.unlock();
        }
    }

    void waitFor() {
        w.checkLive();
        int[] ranks;
        w.lock();
        try {
            if (exposureGroup == null) {
                throw Window.syncError("wait without post");
            }
            ranks = exposureGroup;
        } finally {
            w.unlock();
        }
        if (shared()) {
            awaitShared(ranks, true);
        } else {
            w.await(() -> completesArrived(ranks));
        }
        w.lock();
        try {
            endExposure(ranks);
        } finally {
            w.unlock();
        }
    }

    boolean test() {
        w.checkLive();
        int[] ranks;
        w.lock();
        try {
            if (exposureGroup == null) {
                throw Window.syncError("test without post");
            }
            ranks = exposureGroup;
        } finally {
            w.unlock();
        }
        if (!shared()) {
            w.ctx.progress();
        }
        w.lock();
        try {
            if (!completesArrived(ranks)) {
                return false;
            }
            endExposure(ranks);
            return true;
        } finally {
            w.unlock();
        }
    }

    private boolean completesArrived(int[] ranks) {
        if (shared()) {
            MemorySegment mine = w.memory.control[w.me];
            for (int r : ranks) {
                if (SharedControl.completes(mine, w.size, r) <= completesSeen[r]) {
                    return false;
                }
            }
            return true;
        }
        for (int r : ranks) {
            if (w.target.completes[r] == 0) {
                return false;
            }
        }
        return true;
    }

    private void endExposure(int[] ranks) {
        for (int r : ranks) {
            if (shared()) {
                completesSeen[r]++;
            } else {
                w.target.completes[r]--;
            }
        }
        exposureGroup = null;
    }
}
