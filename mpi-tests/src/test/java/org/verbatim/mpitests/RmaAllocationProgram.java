package org.verbatim.mpitests;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * The now path of an allocated window (every rank on one host) allocates nothing: bytes allocated
 * by the calling thread per put + flush, get + flush, fetch-and-op + flush, compare-and-swap +
 * flush and small accumulate + flush under a lockAll epoch, per lock + put + unlock, per fence
 * epoch and per PSCW epoch with one put, measured with the JDK's per-thread allocation counter once
 * warm. A per-call object (a target record, a request, a lambda, a segment slice) would be 16 B or
 * more per call; the bound is under 1 B per call. Values are checked too: the window ends with this
 * rank's sums. Args: none.
 */
public final class RmaAllocationProgram {
    private static final int CALLS = 20_000;
    /**
     * Fence epochs warmed and measured: fewer, since with more ranks than cores each fence waits
     * for a rank to get a core (each spins a while on the shared barrier word first).
     */
    private static final int FENCES = 2_000;

    private RmaAllocationProgram() {
    }

    private interface Call {
        void run() throws MPIException;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int p = MPI.COMM_WORLD.getSize();
        int next = (rank + 1) % p;
        Checks c = new Checks(rank);
        // one 8 B word per rank (fetch-and-op, compare-and-swap, accumulate), then 64 B of puts
        Win win = Win.allocate(8L * p + 64, 8, MPI.INFO_NULL, MPI.COMM_WORLD);
        win.setErrhandler(MPI.ERRORS_RETURN);
        ByteBuffer bytes = MPI.newByteBuffer(64);
        LongBuffer one = MPI.newLongBuffer(1).put(0, 1);
        LongBuffer result = MPI.newLongBuffer(1);
        LongBuffer compare = MPI.newLongBuffer(1);
        int fop = rank; // this rank's word in next's window
        int puts = p;
        win.lockAll(0);
        c.run("put + flush", () -> measure(c, "put + flush", () -> {
            win.put(bytes, 64, MPI.BYTE, next, puts, 64, MPI.BYTE);
            win.flush(next);
        }));
        c.run("get + flush", () -> measure(c, "get + flush", () -> {
            win.get(bytes, 64, MPI.BYTE, next, puts, 64, MPI.BYTE);
            win.flush(next);
        }));
        c.run("fetchAndOp + flush", () -> measure(c, "fetchAndOp + flush", () -> {
            win.fetchAndOp(one, result, MPI.LONG, next, fop, MPI.SUM);
            win.flush(next);
        }));
        c.run("compareAndSwap + flush", () -> measure(c, "compareAndSwap + flush", () -> {
            win.compareAndSwap(one, compare, result, MPI.LONG, next, fop);
            win.flush(next);
        }));
        c.run("accumulate + flush", () -> measure(c, "accumulate + flush", () -> {
            win.accumulate(one, 1, MPI.LONG, next, fop, 1, MPI.LONG, MPI.SUM);
            win.flush(next);
        }));
        win.unlockAll();
        c.run("lock + put + unlock", () -> measure(c, "lock + put + unlock", () -> {
            win.lock(MPI.LOCK_SHARED, next, 0);
            win.put(bytes, 8, MPI.BYTE, next, puts, 8, MPI.BYTE);
            win.unlock(next);
        }));
        MPI.COMM_WORLD.barrier();
        c.run("fence + put", () -> {
            win.fence(MPI.MODE_NOPRECEDE);
            measure(c, "fence + put", FENCES, () -> {
                win.put(bytes, 8, MPI.BYTE, next, puts, 8, MPI.BYTE);
                win.fence(0);
            });
            win.fence(MPI.MODE_NOSUCCEED);
        });
        MPI.COMM_WORLD.barrier();
        mpi.Group world = MPI.COMM_WORLD.getGroup();
        mpi.Group toNext = world.incl(new int[] {next});
        mpi.Group toPrev = world.incl(new int[] {(rank + p - 1) % p});
        c.run("pscw + put", () -> measure(c, "post + start + put + complete + wait", FENCES,
                () -> {
                    win.post(toPrev, 0);
                    win.start(toNext, 0);
                    win.put(bytes, 8, MPI.BYTE, next, puts, 8, MPI.BYTE);
                    win.complete();
                    win.waitFor();
                }));
        MPI.COMM_WORLD.barrier();
        // fetch-and-op and accumulate each added 1 per call (compare-and-swap never matched 0)
        long expected = 2L * (2 * CALLS);
        c.equal("fetch-and-op and accumulate sums in the window", expected,
                win.getBase().getAtIndex(java.lang.foreign.ValueLayout.JAVA_LONG,
                        (rank + p - 1) % p));
        win.free();
        int status = c.summary();
        MPI.Finalize();
        System.exit(status);
    }

    private static void measure(Checks c, String name, Call call) throws MPIException {
        measure(c, name, CALLS, call);
    }

    /** {@code calls} calls to warm up, then {@code calls} measured: under 1 B per call. */
    private static void measure(Checks c, String name, int calls, Call call)
            throws MPIException {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < calls; i++) {
            call.run();
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++) {
            call.run();
        }
        long total = threads.getCurrentThreadAllocatedBytes() - before;
        c.check(name + ": " + total + " B in " + calls + " calls", total < calls,
                "allocates about " + total / calls + " B per call");
    }
}
