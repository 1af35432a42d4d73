package org.verbatim.onesided;

/**
 * PSCW epochs of one {@link Window}: post sends POST to each origin of the exposure group, start
 * waits for the POST of each target of the access group (unless MODE_NOCHECK), complete issues
 * what the scheduler holds, completes the RDMA and sends COMPLETE behind the records, and
 * wait/test wait for the COMPLETE of each origin.
 */
final class Pscw {
    private final Window w;
    private int[] accessGroup;
    private final boolean[] inAccessGroup;
    private int[] exposureGroup;

    Pscw(Window w) {
        this.w = w;
        this.inAccessGroup = new boolean[w.size];
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
            w.leaveIdleFence("start");
            accessGroup = ranks.clone();
            for (int r : ranks) {
                inAccessGroup[r] = true;
            }
        } finally {
            w.unlock();
        }
        if ((assertion & OneSidedExtension.MODE_NOCHECK) == 0) {
            w.await(() -> {
                for (int r : ranks) {
                    if (w.target.posts[r] == 0) {
                        return false;
                    }
                }
                return true;
            });
        }
        w.lock();
        try {
            if ((assertion & OneSidedExtension.MODE_NOCHECK) == 0) {
                for (int r : ranks) {
                    w.target.posts[r]--;
                }
            }
        } finally {
            w.unlock();
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
            w.issueHeld();
        } finally {
            w.unlock();
        }
        for (int r : ranks) {
            w.direct.complete(r);
        }
        w.lock();
        try {
            for (int r : ranks) {
                w.sendSync(r, RmaWire.COMPLETE, 0);
            }
            accessGroup = null;
            for (int r : ranks) {
                inAccessGroup[r] = false;
            }
        } finally {
            w.unlock();
        }
        w.awaitReplies(-1);
        w.raiseDeferred();
    }

    void post(int[] ranks, int assertion) {
        w.checkLive();
        w.lock();
        try {
            if (exposureGroup != null) {
                throw Window.syncError("post while an exposure epoch is open");
            }
            w.leaveIdleFence("post");
            exposureGroup = ranks.clone();
            for (int r : ranks) {
                w.sendSync(r, RmaWire.POST, 0);
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
        w.await(() -> completesArrived(ranks));
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
        w.ctx.progress();
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
        for (int r : ranks) {
            if (w.target.completes[r] == 0) {
                return false;
            }
        }
        return true;
    }

    private void endExposure(int[] ranks) {
        for (int r : ranks) {
            w.target.completes[r]--;
        }
        exposureGroup = null;
    }
}
