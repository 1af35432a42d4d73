package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;

/**
 * MPI_Win_fence in the four designs of the fence-synchronization paper ({@link FenceDesign}).
 * A fence first completes the epoch it closes (unless MODE_NOPRECEDE says none preceded), then
 * opens the next one (unless MODE_NOSUCCEED says none follows): the immediate designs must keep
 * the next epoch's operations from reaching a target that is still finishing this one, so they
 * open it with flag messages or a barrier; the deferred design needs nothing, since its operations
 * leave only after the next fence's reduction, which every process enters after finishing this
 * fence. MODE_NOSTORE and MODE_NOPUT need no work in this unified memory model.
 */
final class FenceSync {
    /** Polls of the shared fence barrier before waiting with progress. */
    private final Window w;
    /** The per-target counts the reductions of each fence sum (reused: no allocation per fence). */
    private final int[] counts;
    private final int[] used;
    /** The round the mapped barrier waits past ({@link #barrierPassed}); fences never overlap. */
    private long waitRound;
    /**
     * The mapped barrier's wait condition, made once: with more ranks than cores the spins run
     * out on most fences, and a lambda per wait would allocate on every one. It reads shared
     * memory only, so it needs no runtime lock.
     */
    private final java.util.function.BooleanSupplier barrierPassed;
    /** Spins of the mapped barrier before it waits making progress ({@link SpinBudget}). */
    private final int spins;

    FenceSync(Window w) {
        this.w = w;
        this.spins = SpinBudget.forMembers(w.size);
        this.counts = new int[w.size + 1];
        this.used = new int[w.size];
        this.barrierPassed = () -> SharedControl.passed(w.memory.control[0], waitRound);
    }

    void fence(int assertion) {
        boolean noPrecede = (assertion & OneSidedExtension.MODE_NOPRECEDE) != 0;
        boolean noSucceed = (assertion & OneSidedExtension.MODE_NOSUCCEED) != 0;
        w.lock();
        try {
            w.epochs.checkFenceAllowed();
            if (noPrecede && (w.epochs.opsSinceFence || w.submitter.holdsAny())) {
                throw Window.syncError("fence(MODE_NOPRECEDE) after operations of this epoch");
            }
            if (w.memory.allMapped) {
                // Fence-Def's held operations are done here; the next epoch's state is set
                // before the barrier, which this thread waits in before its next operation
                w.submitter.issueHeld();
                w.epochs.fenceEpoch = !noSucceed;
                w.epochs.changed();
                w.epochs.opsSinceFence = false;
            }
        } finally {
            w.unlock();
        }
        w.ext.counters.epochs++;
        if (w.memory.allMapped) {
            mappedEverywhere(noPrecede, noSucceed);
            return;
        }
        switch (w.fenceDesign) {
            case DEF -> {
                if (!noPrecede) {
                    deferred();
                }
            }
            case IMM_NAIVE, IMM_OPT -> {
                if (!noPrecede) {
                    finishMessages();
                }
                if (!noSucceed) {
                    open(w.fenceDesign == FenceDesign.IMM_NAIVE);
                }
            }
            default -> {
                if (!noPrecede) {
                    countedRecords();
                }
                if (!noSucceed) {
                    open(false);
                }
            }
        }
        w.lock();
        try {
            w.epochs.fenceEpoch = !noSucceed;
            w.epochs.changed();
            w.epochs.opsSinceFence = false;
        } finally {
            w.unlock();
        }
    }

    /**
     * A window every member maps: every operation is a load, store or atomic made at once (or,
     * under Fence-Def, at the fence), so every design reduces to one barrier, which both
     * completes this epoch and opens the next: the counting barrier in rank 0's control words
     * ({@link SharedControl#arrive}), whose atomics also order the epoch's loads and stores.
     * It spins a while ({@link SpinBudget}: briefly when the members outnumber the cores), then
     * waits making progress (a peer that died ends the job there). The
     * held operations (Fence-Def) were done and the next epoch opened by {@link #fence} first.
     */
    private void mappedEverywhere(boolean noPrecede, boolean noSucceed) {
        if (!(noPrecede && noSucceed)) {
            MemorySegment root = w.memory.control[0];
            long round = SharedControl.arrive(root, w.size);
            if (round >= 0) {
                for (int i = 0; i < spins && !SharedControl.passed(root, round); i++) {
                    Thread.onSpinWait();
                }
                if (!SharedControl.passed(root, round)) {
                    waitRound = round;
                    long start = System.nanoTime();
                    w.ctx.awaitCondition(barrierPassed);
                    w.ext.counters.waitNanos += System.nanoTime() - start;
                }
            }
        }
    }

    /**
     * Fence-Def: learn the counts, send the held operations, wait for ours to arrive. Loads and
     * stores on mapped memory happen only after the reduction too (a target may still be
     * finishing the previous epoch before it), so when anyone made some, a barrier ends the
     * fence after them (the last count says how many there were).
     */
    private void deferred() {
        int[] counts = this.counts;
        java.util.Arrays.fill(counts, 0);
        w.lock();
        try {
            for (HeldOp h : w.submitter.held) {
                int n = w.issuer.pieces(h);
                counts[h.target()] += n;
                if (n == 0) {
                    counts[w.size]++;
                }
            }
        } finally {
            w.unlock();
        }
        w.group.allreduceSum(counts);
        w.lock();
        try {
            w.submitter.issueHeld();
            w.channels.flushAll();
            for (int r = 0; r < w.size; r++) {
                w.channels.get(r).counted = 0;
            }
        } finally {
            w.unlock();
        }
        awaitCounted(counts[w.me]);
        if (counts[w.size] > 0) {
            w.direct.completeAll();
            w.group.barrier();
        }
    }

    /**
     * Fence-Imm-Naive/Opt: a finish message on every channel used, then await ours. RDMA writes
     * are complete and placed before (a target that got only those needs no finish: it cannot
     * leave before the reduction, which we enter after them).
     */
    private void finishMessages() {
        w.direct.completeAll();
        int[] used = this.used;
        java.util.Arrays.fill(used, 0);
        w.lock();
        try {
            w.submitter.issueHeld();
            for (int r = 0; r < w.size; r++) {
                Channel c = w.channels.get(r);
                if (c.counted > 0) {
                    used[r] = 1;
                    c.counted = 0;
                    w.channels.sendSync(r, RmaWire.FINISH, 0);
                }
            }
            w.channels.flushAll();
        } finally {
            w.unlock();
        }
        w.group.allreduceSum(used);
        int expected = used[w.me];
        w.await(() -> w.target.finishes >= expected && repliesDone());
        w.lock();
        try {
            w.target.finishes -= expected;
        } finally {
            w.unlock();
        }
    }

    /**
     * Fence-Imm-RI: an allreduce of the per-target counts (records and writes with immediate,
     * both counted where they land), then await ours and the local completion of our own.
     * Writes without immediate (a transport that lacks it) and reads complete first.
     */
    private void countedRecords() {
        if (!allImmediate()) {
            w.direct.completeAll();
        }
        int[] counts = this.used; // one per member
        w.lock();
        try {
            w.submitter.issueHeld();
            for (int r = 0; r < w.size; r++) {
                Channel c = w.channels.get(r);
                counts[r] = c.counted;
                c.counted = 0;
            }
            w.channels.flushAll();
        } finally {
            w.unlock();
        }
        w.group.allreduceSum(counts);
        awaitCounted(counts[w.me]);
    }

    private boolean allImmediate() {
        if (w.rdma == null) {
            return true;
        }
        for (int r = 0; r < w.size; r++) {
            if (w.rdma.usable[r] && !w.rdma.immediates(r)) {
                return false;
            }
        }
        return true;
    }

    private void awaitCounted(int expected) {
        w.await(() -> w.target.counted >= expected && repliesDone() && w.direct.idle());
        w.lock();
        try {
            w.target.counted -= expected;
        } finally {
            w.unlock();
        }
    }

    private boolean repliesDone() {
        return w.replies.none(-1);
    }


    /** Opens the next epoch: flag messages to every other process, or a barrier. */
    private void open(boolean flags) {
        if (!flags) {
            w.group.barrier();
            return;
        }
        w.lock();
        try {
            for (int r = 0; r < w.size; r++) {
                if (r != w.me) {
                    w.channels.sendSync(r, RmaWire.FLAG, 0);
                }
            }
        } finally {
            w.unlock();
        }
        int expected = w.size - 1;
        w.await(() -> w.target.flags >= expected);
        w.lock();
        try {
            w.target.flags -= expected;
        } finally {
            w.unlock();
        }
    }
}
