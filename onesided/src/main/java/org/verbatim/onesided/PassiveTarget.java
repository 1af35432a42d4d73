package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * Passive-target epochs of one {@link Window}: lock, unlock, lockAll, unlockAll and the flushes.
 * Three ways: on memory every member maps, the lock word is run by CPU atomics
 * ({@link SharedControl}) and operations are complete once issued; where every pair of members
 * is on one host or has native remote atomics (and {@code verbatim.rma.lock} allows), the lock is
 * taken and released by atomics ({@link AtomicLocks}: CPU atomics from the target's host, remote
 * atomics from other hosts) and unlock completes the epoch as a flush does; elsewhere
 * LOCK, UNLOCK and FLUSH records go to the target's {@link LockTable} and are answered
 * (LOCK_GRANTED, DONE). A FLUSH is skipped when only RDMA went to the target since the last one.
 */
final class PassiveTarget {
    private final Window w;
    private final boolean[] lockNoCheck;
    private final boolean[] lockExclusive;

    PassiveTarget(Window w) {
        this.w = w;
        this.lockNoCheck = new boolean[w.size];
        this.lockExclusive = new boolean[w.size];
    }

    void lock(boolean exclusive, int rank, int assertion) {
        w.checkLive();
        boolean nocheck = (assertion & OneSidedExtension.MODE_NOCHECK) != 0;
        w.lock();
        try {
            if (w.epochs.passive(rank)) {
                throw Window.syncError("rank " + rank + " is locked already");
            }
            w.epochs.leaveIdleFence("lock");
            w.epochs.locked[rank] = true;
            w.epochs.changed();
            lockNoCheck[rank] = nocheck;
            lockExclusive[rank] = exclusive;
            if (!nocheck && !w.memory.allMapped && w.locks == null) {
                w.granted[rank] = false;
                w.channels.sendSync(rank, RmaWire.LOCK, exclusive ? RmaWire.LOCK_EXCLUSIVE : 0);
            }
        } finally {
            w.unlock();
        }
        if (!nocheck) {
            if (w.memory.allMapped) {
                acquireMapped(rank, exclusive);
            } else if (w.locks != null) {
                w.locks.acquire(rank, exclusive);
            } else {
                w.await(() -> w.granted[rank]);
            }
        }
        w.ext.counters.epochs++;
    }

    void unlock(int rank) {
        w.checkLive();
        w.lock();
        try {
            if (!w.epochs.locked[rank] || w.epochs.lockAll) {
                throw Window.syncError("unlock of rank " + rank + " without lock");
            }
            if (w.memory.allMapped) { // every operation is complete once issued
                w.submitter.issueHeldFor(rank);
                w.epochs.locked[rank] = false;
                w.epochs.changed();
            }
        } finally {
            w.unlock();
        }
        if (w.memory.allMapped) {
            releaseMapped(rank);
            return;
        }
        boolean atomic = w.locks != null;
        // with atomic locks the epoch is completed as a flush does, then the word released
        closeAtTarget(rank, lockNoCheck[rank] || atomic ? RmaWire.FLUSH : RmaWire.UNLOCK);
        if (atomic && !lockNoCheck[rank]) {
            w.locks.release(rank, lockExclusive[rank]);
        }
        w.lock();
        try {
            w.epochs.locked[rank] = false;
            w.epochs.changed();
        } finally {
            w.unlock();
        }
        w.raiseDeferred();
    }

    /** The lock word of {@code rank}'s mapped memory, by CPU atomics (the target does nothing). */
    private void acquireMapped(int rank, boolean exclusive) {
        MemorySegment c = w.memory.control[rank];
        if (exclusive) {
            SharedControl.announceWriter(c);
            if (!SharedControl.tryExclusive(c)) {
                w.await(() -> SharedControl.tryExclusive(c));
            }
        } else if (!SharedControl.tryShared(c)) {
            w.await(() -> SharedControl.tryShared(c));
        }
    }

    /**
     * Releases the lock word: its atomic orders the epoch's loads and stores before it (a
     * volatile read-modify-write); under MODE_NOCHECK, with no word to release, a fence does.
     */
    private void releaseMapped(int rank) {
        if (lockNoCheck[rank]) {
            VarHandle.fullFence();
        } else {
            if (lockExclusive[rank]) {
                SharedControl.releaseExclusive(w.memory.control[rank]);
            } else {
                SharedControl.releaseShared(w.memory.control[rank]);
            }
        }
    }

    /**
     * Issues what is held for {@code rank}, sends {@code type}, waits for its DONE and replies
     * (not on memory every member maps, where every operation is complete once issued).
     */
    private void closeAtTarget(int rank, int type) {
        int expected;
        w.lock();
        try {
            w.submitter.issueHeldFor(rank);
        } finally {
            w.unlock();
        }
        w.direct.complete(rank);
        w.lock();
        try {
            if (type == RmaWire.FLUSH && w.recordsSinceSync[rank] == 0) {
                return; // only RDMA since the last flush: complete and placed already
            }
            w.recordsSinceSync[rank] = 0;
            expected = w.doneReceived[rank] + 1;
            w.channels.sendSync(rank, type, 0);
        } finally {
            w.unlock();
        }
        w.await(() -> w.doneReceived[rank] >= expected && w.replies.outstanding[rank] == 0);
    }

    void lockAll(int assertion) {
        w.checkLive();
        boolean nocheck = (assertion & OneSidedExtension.MODE_NOCHECK) != 0;
        w.lock();
        try {
            if (w.epochs.lockAll || w.epochs.anyLocked()) {
                throw Window.syncError("lockAll while a lock is held");
            }
            w.epochs.leaveIdleFence("lockAll");
            w.epochs.lockAll = true;
            w.epochs.changed();
            for (int r = 0; r < w.size; r++) {
                lockNoCheck[r] = nocheck;
                lockExclusive[r] = false;
                if (!nocheck && !w.memory.allMapped && w.locks == null) {
                    w.granted[r] = false;
                    w.channels.sendSync(r, RmaWire.LOCK, 0);
                }
            }
        } finally {
            w.unlock();
        }
        if (!nocheck && w.memory.allMapped) {
            for (int r = 0; r < w.size; r++) {
                acquireMapped(r, false);
            }
        } else if (!nocheck && w.locks != null) {
            for (int r = 0; r < w.size; r++) { // shared only: no order between members needed
                w.locks.acquire(r, false);
            }
        } else if (!nocheck) {
            w.await(() -> {
                for (boolean g : w.granted) {
                    if (!g) {
                        return false;
                    }
                }
                return true;
            });
        }
        w.ext.counters.epochs++;
    }

    void unlockAll() {
        w.checkLive();
        int[] expected = new int[w.size];
        w.lock();
        try {
            if (!w.epochs.lockAll) {
                throw Window.syncError("unlockAll without lockAll");
            }
            w.submitter.issueHeld();
        } finally {
            w.unlock();
        }
        w.direct.completeAll();
        w.lock();
        try {
            for (int r = 0; r < w.size && !w.memory.allMapped; r++) {
                if ((w.locks != null || lockNoCheck[r]) && w.recordsSinceSync[r] == 0) {
                    expected[r] = w.doneReceived[r]; // a FLUSH is due, but only RDMA went
                    continue;
                }
                w.recordsSinceSync[r] = 0;
                expected[r] = w.doneReceived[r] + 1;
                w.channels.sendSync(r, lockNoCheck[r] || w.locks != null ? RmaWire.FLUSH
                        : RmaWire.UNLOCK, 0);
            }
        } finally {
            w.unlock();
        }
        if (w.memory.allMapped) {
            for (int r = 0; r < w.size; r++) {
                releaseMapped(r);
            }
        } else {
            awaitDone(expected);
            for (int r = 0; r < w.size && w.locks != null; r++) {
                if (!lockNoCheck[r]) {
                    w.locks.release(r, false);
                }
            }
        }
        w.lock();
        try {
            w.epochs.lockAll = false;
            w.epochs.changed();
        } finally {
            w.unlock();
        }
        w.raiseDeferred();
    }

    private void awaitDone(int[] expected) {
        w.await(() -> {
            for (int r = 0; r < w.size; r++) {
                if (w.doneReceived[r] < expected[r] || w.replies.outstanding[r] != 0) {
                    return false;
                }
            }
            return true;
        });
    }

    private void checkPassive(int rank, String call) {
        if (rank >= 0 ? !w.epochs.passive(rank) : !(w.epochs.lockAll || w.epochs.anyLocked())) {
            throw Window.syncError(call + " outside a passive-target epoch");
        }
    }

    void flush(int rank) {
        w.checkLive();
        boolean mapped = w.memory.allMapped;
        w.lock();
        try {
            checkPassive(rank, "flush");
            if (mapped) {
                w.submitter.issueHeldFor(rank);
            }
        } finally {
            w.unlock();
        }
        if (mapped) {
            VarHandle.fullFence(); // every operation is complete once issued: order them
        } else {
            closeAtTarget(rank, RmaWire.FLUSH);
        }
        w.raiseDeferred();
    }

    void flushAll() {
        w.checkLive();
        int[] expected = new int[w.size];
        w.lock();
        try {
            checkPassive(-1, "flushAll");
            w.submitter.issueHeld();
        } finally {
            w.unlock();
        }
        w.direct.completeAll();
        w.lock();
        try {
            for (int r = 0; r < w.size && !w.memory.allMapped; r++) {
                boolean needed = w.epochs.passive(r) && w.recordsSinceSync[r] > 0;
                expected[r] = w.doneReceived[r] + (needed ? 1 : 0);
                if (needed) {
                    w.recordsSinceSync[r] = 0;
                    w.channels.sendSync(r, RmaWire.FLUSH, 0);
                }
            }
        } finally {
            w.unlock();
        }
        awaitDone(expected);
        w.raiseDeferred();
    }

    void flushLocal(int rank) {
        w.checkLive();
        w.lock();
        try {
            checkPassive(rank, "flushLocal");
            w.submitter.issueHeldFor(rank);
            w.channels.get(rank).flush();
        } finally {
            w.unlock();
        }
        w.replies.await(rank);
        w.await(() -> w.direct.outstanding[rank] == 0);
    }

    void flushLocalAll() {
        w.checkLive();
        w.lock();
        try {
            checkPassive(-1, "flushLocalAll");
            w.submitter.issueHeld();
            w.channels.flushAll();
        } finally {
            w.unlock();
        }
        w.replies.await(-1);
        w.await(w.direct::idle);
    }
}
