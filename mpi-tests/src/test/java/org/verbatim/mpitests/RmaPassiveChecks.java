package org.verbatim.mpitests;

import java.lang.foreign.MemorySegment;
import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Win;

/**
 * Passive-target epochs: an exclusive-lock counter from every rank (no lost update), accumulate
 * and fetchAndOp under contention from every rank, request-based calls, flushes, and fairness (an
 * exclusive writer is granted while readers keep taking shared locks, within a bound).
 */
final class RmaPassiveChecks {
    private static final int ROUNDS = 20;
    private final RmaProgram t;

    RmaPassiveChecks(RmaProgram t) {
        this.t = t;
    }

    void all(String schedule) throws MPIException {
        for (int flavor : new int[] {0, 1, 3}) {
            exclusiveCounter(schedule, flavor);
            contention(schedule, flavor);
            requests(schedule, flavor);
            fairness(schedule, flavor);
        }
        if (schedule.equals("true")) {
            targetAsleep(schedule);
        }
    }

    /**
     * An allocated window on one host: rank 0 sleeps without calling MPI while every other rank
     * locks it exclusively, puts, accumulates, fetches and unlocks. Locks and accumulates run by
     * atomics on the mapping, so they finish while rank 0 still sleeps (checked when the ranks
     * share memory; without, only the values are).
     */
    private void targetAsleep(String schedule) throws MPIException {
        Win win = t.window(1, 2, RmaProgram.info(null, schedule));
        MemorySegment mem = win.getBase();
        mem.setAtIndex(RmaProgram.I, 0, 0);
        mem.setAtIndex(RmaProgram.I, 1, 0);
        long sleepMillis = 3000;
        t.world.barrier();
        long start = System.nanoTime();
        if (t.rank == 0) {
            try {
                Thread.sleep(sleepMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else {
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            win.put(RmaProgram.ints(1).put(0, 7), 1, MPI.INT, 0, 0, 1, MPI.INT);
            win.accumulate(RmaProgram.ints(1).put(0, t.rank), 1, MPI.INT, 0, 1, 1, MPI.INT,
                    MPI.SUM);
            IntBuffer f = RmaProgram.ints(1);
            win.fetchAndOp(RmaProgram.ints(1).put(0, 0), f, MPI.INT, 0, 1, MPI.NO_OP);
            win.unlock(0);
            long ms = (System.nanoTime() - start) / 1_000_000;
            if (RmaProgram.shm) {
                t.c.check("passive epoch done while the target sleeps", ms < sleepMillis - 500,
                        ms + " ms");
            } // else the window is private memory: its accumulates are records the target
              // applies when it calls MPI (RmaPassiveProgressProgram: epochs of RDMA only)
        }
        t.world.barrier();
        if (t.rank == 0) {
            t.expect("puts of the sleeping target's epochs", t.p > 1 ? 7 : 0,
                    mem.getAtIndex(RmaProgram.I, 0));
            t.expect("accumulates of the sleeping target's epochs", (long) t.p * (t.p - 1) / 2,
                    mem.getAtIndex(RmaProgram.I, 1));
        }
        win.free();
    }

    /** get, +1, put under an exclusive lock on rank 0, ROUNDS times from every rank. */
    private void exclusiveCounter(String schedule, int flavor) throws MPIException {
        Win win = t.window(flavor, 1, RmaProgram.info(null, schedule));
        win.getBase().setAtIndex(RmaProgram.I, 0, 0);
        t.world.barrier();
        IntBuffer v = RmaProgram.ints(1);
        for (int i = 0; i < ROUNDS; i++) {
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            win.get(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
            win.flush(0);
            v.put(0, v.get(0) + 1);
            win.put(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
            win.unlock(0);
        }
        t.world.barrier();
        if (t.rank == 0) {
            t.expect("exclusive lock: no lost update", (long) ROUNDS * t.p,
                    win.getBase().getAtIndex(RmaProgram.I, 0));
        }
        win.free();
    }

    /** accumulate SUM into every rank and fetchAndOp on rank 0, all ranks at once. */
    private void contention(String schedule, int flavor) throws MPIException {
        int n = 16;
        Win win = t.window(flavor, n + 1, RmaProgram.info(null, schedule));
        MemorySegment mem = win.getBase();
        for (int i = 0; i <= n; i++) {
            mem.setAtIndex(RmaProgram.I, i, 0);
        }
        t.world.barrier();
        win.lockAll(0);
        IntBuffer one = RmaProgram.ints(n);
        for (int i = 0; i < n; i++) {
            one.put(i, i + 1);
        }
        long fetchedSum = 0;
        IntBuffer f = RmaProgram.ints(1);
        for (int round = 0; round < ROUNDS; round++) {
            for (int target = 0; target < t.p; target++) {
                win.accumulate(one, n, MPI.INT, target, 0, n, MPI.INT, MPI.SUM);
            }
            win.fetchAndOp(RmaProgram.ints(1).put(0, 1), f, MPI.INT, 0, n, MPI.SUM);
            win.flush(0);
            fetchedSum += f.get(0);
        }
        win.flushAll();
        win.unlockAll();
        t.world.barrier();
        for (int i = 0; i < n; i++) {
            t.expect("accumulate under contention", (long) ROUNDS * t.p * (i + 1),
                    mem.getAtIndex(RmaProgram.I, i));
        }
        long[] all = new long[1];
        t.world.allReduce(new long[] {fetchedSum}, all, 1, MPI.LONG, MPI.SUM);
        long total = (long) ROUNDS * t.p;
        t.expect("fetchAndOp under contention: every old value once", total * (total - 1) / 2,
                all[0]);
        if (t.rank == 0) {
            t.expect("fetchAndOp total", total, mem.getAtIndex(RmaProgram.I, n));
        }
        win.free();
    }

    /** rPut, rGet, rAccumulate, rGetAccumulate inside lockAll; flushLocal, flushLocalAll. */
    private void requests(String schedule, int flavor) throws MPIException {
        int k = RmaProgram.K;
        Win win = t.window(flavor, 3 * k, RmaProgram.info(null, schedule));
        MemorySegment mem = win.getBase();
        for (int i = 0; i < 3 * k; i++) {
            mem.setAtIndex(RmaProgram.I, i, RmaProgram.initial(t.rank, i));
        }
        t.world.barrier();
        int next = (t.rank + 1) % t.p;
        win.lockAll(0);
        IntBuffer o = RmaProgram.ints(k);
        for (int j = 0; j < k; j++) {
            o.put(j, RmaProgram.putValue(t.rank, 9, j));
        }
        Request rp = win.rPut(o, k, MPI.INT, next, 0, k, MPI.INT);
        IntBuffer g = RmaProgram.ints(k);
        Request rg = win.rGet(g, k, MPI.INT, next, k, k, MPI.INT);
        Request ra = win.rAccumulate(RmaProgram.ints(1).put(0, 5), 1, MPI.INT, next, 2 * k, 1,
                MPI.INT, MPI.SUM);
        IntBuffer old = RmaProgram.ints(1);
        Request rga = win.rGetAccumulate(RmaProgram.ints(1).put(0, 2), 1, MPI.INT, old, 1, MPI.INT,
                next, 2 * k + 1, 1, MPI.INT, MPI.PROD);
        Request.waitAll(new Request[] {rp, rg, ra, rga});
        win.flushLocal(next);
        for (int j = 0; j < k; j++) {
            t.expect("rGet", RmaProgram.initial(next, k + j), g.get(j));
        }
        t.expect("rGetAccumulate old value", RmaProgram.initial(next, 2 * k + 1), old.get(0));
        win.flushLocalAll();
        win.flushAll();
        win.unlockAll();
        t.world.barrier();
        int prev = (t.rank + t.p - 1) % t.p;
        for (int j = 0; j < k; j++) {
            t.expect("rPut", RmaProgram.putValue(prev, 9, j), mem.getAtIndex(RmaProgram.I, j));
        }
        t.expect("rAccumulate", RmaProgram.initial(t.rank, 2 * k) + 5,
                mem.getAtIndex(RmaProgram.I, 2 * k));
        t.expect("rGetAccumulate PROD", RmaProgram.initial(t.rank, 2 * k + 1) * 2L,
                mem.getAtIndex(RmaProgram.I, 2 * k + 1));
        win.free();
    }

    /**
     * Rank 0's word is read by every other rank under shared locks in a loop; the last rank, once
     * the readers are running, writes it once under an exclusive lock. The readers stop when they
     * see the write; a writer that starved would leave them looping until the bound fails them.
     */
    private void fairness(String schedule, int flavor) throws MPIException {
        Win win = t.window(flavor, 1, RmaProgram.info(null, schedule));
        win.getBase().setAtIndex(RmaProgram.I, 0, 0);
        t.world.barrier();
        int writer = t.p - 1;
        int bound = 200_000;
        if (t.rank == writer) {
            writeOnce(win);
            t.c.pass("writer got the exclusive lock");
        } else {
            int i = readUntilWritten(win, bound);
            t.c.check("readers see the exclusive writer within the bound", i < bound,
                    "still 0 after " + bound + " shared epochs");
        }
        t.world.barrier();
        win.free();
    }

    /** Puts 42 into rank 0's word 0 under an exclusive lock (the fairness checks' writer). */
    static void writeOnce(Win win) throws MPIException {
        win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
        win.put(RmaProgram.ints(1).put(0, 42), 1, MPI.INT, 0, 0, 1, MPI.INT);
        win.unlock(0);
    }

    /**
     * Reads rank 0's word 0 under shared locks until it is 42 ({@link #writeOnce}), at most
     * {@code bound} times; the number of epochs before it was seen ({@code bound} if never).
     */
    static int readUntilWritten(Win win, int bound) throws MPIException {
        IntBuffer v = RmaProgram.ints(1);
        int i = 0;
        for (; i < bound; i++) {
            win.lock(MPI.LOCK_SHARED, 0, 0);
            win.get(v, 1, MPI.INT, 0, 0, 1, MPI.INT);
            win.unlock(0);
            if (v.get(0) == 42) {
                break;
            }
        }
        return i;
    }
}
