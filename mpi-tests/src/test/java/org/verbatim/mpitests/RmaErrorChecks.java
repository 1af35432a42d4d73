package org.verbatim.mpitests;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Win;

/**
 * Bad input and epoch misuse under ERRORS_RETURN: each gives its error class, nothing is written
 * on bad input, and nothing hangs. Run on a created window (operations as RDMA or records) and
 * an allocated one (contiguous operations done at once on the mapping, without the runtime's
 * lock: the same errors must come from there, and closed epochs must close that path too).
 */
final class RmaErrorChecks {
    private final RmaProgram t;
    private final Checks c;

    RmaErrorChecks(RmaProgram t) {
        this.t = t;
        this.c = t.c;
    }

    void all(int flavor) throws MPIException {
        if (flavor == 0 && t.p > 1) {
            atomicLocks();
        }
        int k = 4;
        Win win = t.window(flavor, k, MPI.INFO_NULL);
        win.setErrhandler(MPI.ERRORS_RETURN);
        for (int i = 0; i < k; i++) {
            win.getBase().setAtIndex(RmaProgram.I, i, 5);
        }
        IntBuffer o = RmaProgram.ints(2 * k);
        int next = (t.rank + 1) % t.p;
        c.expectError("put outside an epoch", MPI.ERR_RMA_SYNC, "MPI_Put",
                () -> win.put(o, 1, MPI.INT, next, 0, 1, MPI.INT));
        c.expectError("unlock without lock", MPI.ERR_RMA_SYNC, "MPI_Win_unlock",
                () -> win.unlock(next));
        c.expectError("complete without start", MPI.ERR_RMA_SYNC, "MPI_Win_complete",
                win::complete);
        c.expectError("wait without post", MPI.ERR_RMA_SYNC, "MPI_Win_wait", win::waitFor);
        c.expectError("flush outside a passive epoch", MPI.ERR_RMA_SYNC, "MPI_Win_flush",
                () -> win.flush(next));
        c.expectError("unlockAll without lockAll", MPI.ERR_RMA_SYNC, "MPI_Win_unlock_all",
                win::unlockAll);
        c.expectError("invalid lock type", MPI.ERR_LOCKTYPE, "MPI_Win_lock",
                () -> win.lock(77, next, 0));
        c.expectError("invalid assertion", MPI.ERR_ASSERT, "MPI_Win_fence",
                () -> win.fence(1 << 20));
        win.fence(0);
        c.expectError("rPut outside a passive epoch", MPI.ERR_RMA_SYNC, "MPI_Rput",
                () -> win.rPut(o, 1, MPI.INT, next, 0, 1, MPI.INT));
        c.expectError("displacement past the window", MPI.ERR_RMA_RANGE, "MPI_Put",
                () -> win.put(o, 1, MPI.INT, next, k, 1, MPI.INT));
        c.expectError("count past the window", MPI.ERR_RMA_RANGE, "MPI_Put",
                () -> win.put(o, k + 1, MPI.INT, next, 0, k + 1, MPI.INT));
        c.expectError("get past the window", MPI.ERR_RMA_RANGE, "MPI_Get",
                () -> win.get(o, 2, MPI.INT, next, k - 1, 2, MPI.INT));
        c.expectError("accumulate past the window", MPI.ERR_RMA_RANGE, "MPI_Accumulate",
                () -> win.accumulate(o, 2, MPI.INT, next, k - 1, 2, MPI.INT, MPI.SUM));
        IntBuffer res = RmaProgram.ints(2);
        c.expectError("getAccumulate past the window", MPI.ERR_RMA_RANGE, "MPI_Get_accumulate",
                () -> win.getAccumulate(o, 2, MPI.INT, res, 2, MPI.INT, next, k - 1, 2, MPI.INT,
                        MPI.SUM));
        c.expectError("fetchAndOp past the window", MPI.ERR_RMA_RANGE, "MPI_Fetch_and_op",
                () -> win.fetchAndOp(o, res, MPI.INT, next, k, MPI.SUM));
        c.expectError("compareAndSwap past the window", MPI.ERR_RMA_RANGE,
                "MPI_Compare_and_swap", () -> win.compareAndSwap(o, RmaProgram.ints(1), res,
                        MPI.INT, next, k));
        c.expectError("displacement whose bytes overflow", MPI.ERR_RMA_RANGE, "MPI_Put",
                () -> win.put(java.lang.foreign.MemorySegment.ofArray(new int[1]), 1, MPI.INT,
                        next, Long.MAX_VALUE / 2, 1, MPI.INT));
        c.expectError("get into a read-only buffer", MPI.ERR_BUFFER, "MPI_Get",
                () -> win.get(o.asReadOnlyBuffer(), 1, MPI.INT, next, 0, 1, MPI.INT));
        c.expectError("get into a too small buffer", MPI.ERR_BUFFER, "MPI_Get",
                () -> win.get(RmaProgram.ints(1), 2, MPI.INT, next, 0, 2, MPI.INT));
        c.expectError("negative displacement", MPI.ERR_DISP, "MPI_Put",
                () -> win.put(o, 1, MPI.INT, next, -1, 1, MPI.INT));
        c.expectError("rank out of range", MPI.ERR_RANK, "MPI_Put",
                () -> win.put(o, 1, MPI.INT, t.p, 0, 1, MPI.INT));
        c.expectError("negative count", MPI.ERR_COUNT, "MPI_Put",
                () -> win.put(o, -1, MPI.INT, next, 0, -1, MPI.INT));
        c.expectError("origin and target differ", MPI.ERR_TYPE, "MPI_Put",
                () -> win.put(o, 2, MPI.INT, next, 0, 1, MPI.INT));
        c.expectError("BAND on DOUBLE", MPI.ERR_OP, "MPI_Accumulate",
                () -> win.accumulate(MPI.newDoubleBuffer(1), 1, MPI.DOUBLE, next, 0, 1,
                        MPI.DOUBLE, MPI.BAND));
        Op user = new Op(new mpi.UserFunction() { }, true);
        c.expectError("user operation in accumulate", MPI.ERR_OP, "MPI_Accumulate",
                () -> win.accumulate(o, 1, MPI.INT, next, 0, 1, MPI.INT, user));
        c.expectError("compareAndSwap on DOUBLE", MPI.ERR_TYPE, "MPI_Compare_and_swap",
                () -> win.compareAndSwap(MPI.newDoubleBuffer(1), MPI.newDoubleBuffer(1),
                        MPI.newDoubleBuffer(1), MPI.DOUBLE, next, 0));
        try {
            win.put(IntBuffer.allocate(1), 1, MPI.INT, next, 0, 1, MPI.INT);
            c.fail("heap buffer origin", "nothing thrown");
        } catch (IllegalArgumentException e) {
            c.pass("heap buffer origin is IllegalArgumentException");
        }
        c.expectError("lock inside a fence epoch with operations", MPI.ERR_RMA_SYNC,
                "MPI_Win_lock", () -> {
                    win.put(RmaProgram.ints(1).put(0, 9), 1, MPI.INT, next, 0, 1, MPI.INT);
                    win.lock(MPI.LOCK_SHARED, next, 0);
                });
        win.fence(MPI.MODE_NOSUCCEED);
        boolean untouched = win.getBase().getAtIndex(RmaProgram.I, 0) == 9;
        for (int i = 1; i < k; i++) {
            untouched &= win.getBase().getAtIndex(RmaProgram.I, i) == 5;
        }
        c.check("bad input wrote nothing", untouched, "window changed");
        IntBuffer one = RmaProgram.ints(1);
        c.expectError("put after fence(NOSUCCEED)", MPI.ERR_RMA_SYNC, "MPI_Put",
                () -> win.put(one, 1, MPI.INT, next, 0, 1, MPI.INT));
        c.expectError("fetchAndOp after fence(NOSUCCEED)", MPI.ERR_RMA_SYNC, "MPI_Fetch_and_op",
                () -> win.fetchAndOp(one, res, MPI.INT, next, 0, MPI.SUM));
        win.lock(MPI.LOCK_SHARED, next, 0);
        c.expectError("fence inside a lock epoch", MPI.ERR_RMA_SYNC, "MPI_Win_fence",
                () -> win.fence(0));
        if (next != t.rank) {
            c.expectError("flush of a rank not locked", MPI.ERR_RMA_SYNC, "MPI_Win_flush",
                    () -> win.flush(t.rank));
            c.expectError("get from a rank not locked", MPI.ERR_RMA_SYNC, "MPI_Get",
                    () -> win.get(one, 1, MPI.INT, t.rank, 0, 1, MPI.INT));
        }
        IntBuffer got = RmaProgram.ints(1);
        win.fetchAndOp(null, got, MPI.INT, next, 1, MPI.NO_OP);
        win.flush(next);
        c.equal("fetchAndOp NO_OP without an origin reads the target", 5, got.get(0));
        win.unlock(next);
        c.expectError("get after unlock", MPI.ERR_RMA_SYNC, "MPI_Get",
                () -> win.get(one, 1, MPI.INT, next, 0, 1, MPI.INT));
        c.expectError("flush after unlock", MPI.ERR_RMA_SYNC, "MPI_Win_flush",
                () -> win.flush(next));
        win.lockAll(0);
        win.unlockAll();
        c.expectError("compareAndSwap after unlockAll", MPI.ERR_RMA_SYNC,
                "MPI_Compare_and_swap", () -> win.compareAndSwap(one, one, res, MPI.INT, next,
                        0));
        c.expectError("start twice", MPI.ERR_RMA_SYNC, "MPI_Win_start", () -> {
            win.start(t.world.getGroup().incl(new int[0]), 0);
            win.start(t.world.getGroup().incl(new int[0]), 0);
        });
        win.complete();
        c.expectError("accumulate after complete", MPI.ERR_RMA_SYNC, "MPI_Accumulate",
                () -> win.accumulate(one, 1, MPI.INT, next, 0, 1, MPI.INT, MPI.SUM));
        c.expectError("free with an open epoch", MPI.ERR_RMA_SYNC, "MPI_Win_free", () -> {
            win.lock(MPI.LOCK_SHARED, t.rank, 0);
            win.free();
        });
        win.unlock(t.rank);
        t.world.barrier();
        win.free();
        c.expectError("use after free", MPI.ERR_WIN, "MPI_Put",
                () -> win.put(o, 1, MPI.INT, next, 0, 1, MPI.INT));
    }

    /**
     * {@code verbatim.rma.lock=atomic} on a created window: between ranks that share memory the
     * locks are CPU atomics on lock words in shared segments, over ib ({@link RmaProgram#shm}
     * false) remote atomics; either way the window works and an exclusive epoch on the neighbour
     * puts a value that every rank then reads back. (Until 2026-11-28 it was
     * MPI_ERR_UNSUPPORTED_OPERATION between ranks that share memory.)
     */
    private void atomicLocks() throws MPIException {
        mpi.Info info = new mpi.Info();
        info.set("verbatim.rma.lock", "atomic");
        IntBuffer mem = RmaProgram.ints(4);
        Win win = new Win(mem, 4, 1, info, t.world);
        int next = (t.rank + 1) % t.p;
        t.world.barrier();
        win.lock(MPI.LOCK_EXCLUSIVE, next, 0);
        win.put(RmaProgram.ints(1).put(0, 100 + t.rank), 1, MPI.INT, next, 2, 1, MPI.INT);
        win.unlock(next);
        t.world.barrier();
        int prev = (t.rank + t.p - 1) % t.p;
        c.equal("verbatim.rma.lock=atomic", 100 + prev, mem.get(2));
        win.free();
    }
}
