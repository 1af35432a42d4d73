package org.verbatim.mpitests;

import java.nio.IntBuffer;
import mpi.Info;
import mpi.MPI;
import mpi.Win;

/**
 * Passive-target progress: rank 1 (the target) sits in a Java sleep of {@code SLEEP_MS}, calling
 * no MPI, while rank 0 runs an exclusive epoch (lock, put, get, unlock) and a shared one (lock,
 * get, unlock) on rank 1's window (created on a direct buffer). Rank 0 notes when its epochs
 * ended, rank 1 when it woke; both print them (wall clock, one host) and rank 0 checks the order.
 * Four windows: with the job's lock mode, puts and gets of 128 B taken by RDMA by the window's
 * {@code verbatim.rma.rdma-threshold=0}; with the job's lock mode and the default threshold, puts
 * and gets of 8 B with {@code verbatim.rma.lock-rdma} on (below the threshold: on windows locked
 * by remote atomics they still go by RDMA); the same
 * with the scheduler off, where a get after a put to the same place in one epoch must read what
 * the put wrote (one queue pair executes them in order); where the argument says what to expect
 * ({@code progress}: the epochs end while the target sleeps, locks by remote atomics;
 * {@code wait}: they end only after it wakes and calls MPI again). Last a window with
 * {@code verbatim.rma.lock=record}, which must wait (the check that shows the others can fail).
 * The data are checked every time.
 */
public final class RmaPassiveProgressProgram {
    static final long SLEEP_MS = 3000;
    private static final int N = 64;

    private RmaPassiveProgressProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Checks c = new Checks(MPI.COMM_WORLD.getRank());
        boolean progress = args.length > 0 && args[0].equals("progress");
        c.run("passive progress, the job's locks", () -> run(c, null, progress, N / 2, null));
        c.run("passive progress, 8 B puts and gets", () -> run(c, null, progress, 2, null));
        c.run("passive progress, 8 B, scheduler off", () -> run(c, null, progress, 2, "false"));
        c.run("passive progress, lock records", () -> run(c, "record", false, N / 2, null));
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }

    /**
     * One window: rank 0 puts {@code n} ints at 0, gets {@code n} from {@code N / 2} (and, with
     * {@code schedule} "false", {@code n} from 0 again: the put's values), unlocks, then reads the
     * window back under a shared lock. {@code n == N / 2} sets the window's RDMA threshold to 0;
     * a smaller {@code n} keeps the default threshold and turns {@code verbatim.rma.lock-rdma} on.
     */
    private static void run(Checks c, String lock, boolean progress, int n, String schedule)
            throws Exception {
        int rank = MPI.COMM_WORLD.getRank();
        IntBuffer mem = MPI.newIntBuffer(N);
        for (int i = 0; i < N; i++) {
            mem.put(i, -i);
        }
        Info info = new Info();
        if (n == N / 2) {
            info.set("verbatim.rma.rdma-threshold", "0");
        } else {
            info.set("verbatim.rma.lock-rdma", "true"); // the default; set so the check holds if it changes
        }
        if (lock != null) {
            info.set("verbatim.rma.lock", lock);
        }
        if (schedule != null) {
            info.set("verbatim.rma.schedule", schedule);
        }
        String mode = (lock == null ? "job's locks" : lock) + ", " + (4 * n) + " B"
                + (schedule == null ? "" : ", schedule=" + schedule);
        Win win = new Win(mem, N, 1, info, MPI.COMM_WORLD);
        long[] times = new long[2]; // [0] origin's epochs ended, [1] target woke
        MPI.COMM_WORLD.barrier();
        if (rank == 1) {
            long start = System.currentTimeMillis();
            Thread.sleep(SLEEP_MS); // no MPI call here
            times[1] = System.currentTimeMillis();
            System.out.println("TIMES " + mode + ": target slept " + start + " .. " + times[1]);
        } else if (rank == 0) {
            long start = System.currentTimeMillis();
            IntBuffer out = MPI.newIntBuffer(n);
            for (int i = 0; i < n; i++) {
                out.put(i, 1000 + i);
            }
            IntBuffer back = MPI.newIntBuffer(n);
            IntBuffer same = MPI.newIntBuffer(n);
            boolean ordered = "false".equals(schedule);
            win.lock(MPI.LOCK_EXCLUSIVE, 1, 0);
            win.put(out, n, MPI.INT, 1, 0, n, MPI.INT);
            win.get(back, n, MPI.INT, 1, N / 2, n, MPI.INT);
            if (ordered) {
                win.get(same, n, MPI.INT, 1, 0, n, MPI.INT);
            }
            win.unlock(1);
            IntBuffer again = MPI.newIntBuffer(N);
            win.lock(MPI.LOCK_SHARED, 1, 0);
            win.get(again, N, MPI.INT, 1, 0, N, MPI.INT);
            win.unlock(1);
            times[0] = System.currentTimeMillis();
            System.out.println("TIMES " + mode + ": origin epochs " + start + " .. " + times[0]);
            boolean ok = true;
            for (int i = 0; i < N; i++) {
                int expect = i < n ? 1000 + i : -i;
                ok &= again.get(i) == expect;
            }
            for (int i = 0; i < n; i++) {
                ok &= back.get(i) == -(N / 2 + i);
            }
            c.check("put and get of the epochs", ok, "unexpected values read back");
            if (ordered) {
                boolean seen = true;
                for (int i = 0; i < n; i++) {
                    seen &= same.get(i) == 1000 + i;
                }
                c.check("a get after a put to the same place reads the put", seen,
                        "the get read " + same.get(0) + " at 0, not 1000");
            }
        }
        MPI.COMM_WORLD.allReduce(times, 2, MPI.LONG, MPI.MAX);
        if (rank == 0) {
            String detail = mode + ": origin's epochs ended at " + times[0]
                    + ", target woke at " + times[1];
            if (progress) {
                c.check("epochs end while the target sleeps", times[0] < times[1], detail);
            } else {
                c.check("epochs wait for the target", times[0] >= times[1], detail);
            }
        } else if (rank == 1) {
            boolean ok = true;
            for (int i = 0; i < N; i++) {
                ok &= mem.get(i) == (i < n ? 1000 + i : -i);
            }
            c.check("the put landed", ok, "window holds other values");
        }
        MPI.COMM_WORLD.barrier();
        win.free();
    }
}
