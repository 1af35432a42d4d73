package org.verbatim.benchmarks;

import java.nio.ByteBuffer;
import mpi.Group;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * One-sided figures between two ranks, as OSU's osu_put_latency, osu_get_latency, osu_put_bw,
 * osu_get_bw, osu_acc_latency, osu_fop_latency and osu_cas_latency: rank 0 is the origin, rank 1
 * the target.
 * <pre>
 *   OsuOneSided [put-latency|get-latency|put-bw|get-bw|put-get-bw|acc-latency|fop-latency|
 *                cas-latency] [--sync lock|flush|fence|pscw] [--win create|allocate]
 *               [--min B] [--max B] [--step F] [--iterations N] [--warmup N] [--window N]
 *               [--schedule true|false]
 *               [--aggregate true|false] [--rdma true|false]
 * </pre>
 * {@code put-get-bw} is the scheduling paper's throughput test: per epoch {@code --window}/2 puts
 * and then as many gets (of another range), bytes of both counted; {@code --schedule} and
 * {@code --aggregate} set the window's {@code verbatim.rma.schedule} and {@code aggregate}, so
 * one run with each shows what reordering and aggregation do; {@code --rdma false} sends puts and
 * gets of a created window as two-sided records (where aggregation applies).
 * Epochs: {@code lock} locks and unlocks (shared) around every operation, {@code flush} locks
 * once and flushes after every operation, {@code fence} and {@code pscw} open and close an active
 * epoch per operation (per window of operations for the bandwidth tests). Latency is per
 * operation (with its synchronisation); bandwidth in MB/s (10^6 B) over {@code --window}
 * operations per epoch. Windows are created on a direct buffer or allocated (allocated windows of
 * one host are loads and stores). {@code --warmup N}: N epochs at the first size, in calls of 10,
 * before anything is timed (the JIT compiles the whole path; a tenth of the timed epochs at each
 * size is not enough for short runs). Before each size is timed, the program waits (150 ms or more)
 * until the JIT has stopped compiling: a rank is bound to one core with its compiler threads, so a
 * compilation that the untimed epochs queued would otherwise run inside the timed ones (this
 * process's own JIT only; C runs have none and skip the wait). The program compiles against Open
 * MPI's Java bindings too, and benchmarks/src/main/c/osu_onesided.c is its C twin
 * (benchmarks/compare-onesided).
 */
public final class OsuOneSided {
    private final String test;
    private final String sync;
    private final boolean allocate;
    private final int min;
    private final int max;
    private final int iterations;
    private final int warmup;
    /** Each size is {@code step} times the one before; the last is {@code max}. */
    private final int step;
    private final int window;
    private final int rank;
    private final String schedule;
    private final String aggregate;
    private final String rdma;
    private Win win;
    /** Fewest untimed operations before a size up to 64 KiB is timed ({@link #untimed}). */
    static final int UNTIMED_OPS = 30_000;
    /**
     * Epochs per call of {@link #epochs} in the untimed pass before each size: short calls, so
     * that the timed call enters {@link #epochs} compiled whole. HotSpot compiles a method whole
     * (tier 4) only after 600 calls or more; a method called fewer times, or deoptimized by a path
     * the new size takes, runs one long call in on-stack-replaced code compiled while that call
     * runs: with one untimed call per size, the first timed size (get + lock, 8 B) measured
     * 0.12-0.14 us and the next 0.05.
     */
    static final int UNTIMED_CALL = 10;
    /**
     * Epochs per call of {@link #epochs} during the warm-up: thousands of calls, so that HotSpot
     * compiles {@link #epochs} whole before the first size is timed (it does so once a method
     * has been called more than 5,000 times, or 600 with many loop iterations, tested only every
     * 1,024 calls). In calls of 200 (1,000 calls) the compilation came as the first timed call
     * entered it, on the rank's one core: get + lock at 8 B, the first size, 0.14-0.18 us against
     * 0.05-0.07 at 64 B; in calls of 10, 0.07 and 0.05.
     */
    private static final int WARMUP_CALL = 10;

    private OsuOneSided(String[] args) throws MPIException {
        String t = "put-latency";
        String s = "flush";
        String w = "allocate";
        int lo = 8;
        int hi = 1 << 22;
        int it = 2000;
        int warm = 0;
        int st = 2;
        int wnd = 64;
        String sched = null;
        String aggr = null;
        String rd = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sync" -> s = args[++i];
                case "--win" -> w = args[++i];
                case "--min" -> lo = OsuOptions.size(args[++i]);
                case "--max" -> hi = OsuOptions.size(args[++i]);
                case "--iterations" -> it = Integer.parseInt(args[++i]);
                case "--warmup" -> warm = Integer.parseInt(args[++i]);
                case "--step" -> st = Integer.parseInt(args[++i]);
                case "--window" -> wnd = Integer.parseInt(args[++i]);
                case "--schedule" -> sched = args[++i];
                case "--aggregate" -> aggr = args[++i];
                case "--rdma" -> rd = args[++i];
                default -> t = args[i];
            }
        }
        this.test = t;
        this.sync = s;
        this.allocate = w.equals("allocate");
        this.min = t.startsWith("fop") || t.startsWith("cas") ? 8 : lo;
        this.max = t.startsWith("fop") || t.startsWith("cas") ? 8 : hi;
        this.iterations = it;
        this.warmup = warm;
        this.step = Math.max(2, st);
        this.window = t.equals("put-get-bw") && wnd == 64 ? 32 : wnd;
        this.schedule = sched;
        this.aggregate = aggr;
        this.rdma = rd;
        this.rank = MPI.COMM_WORLD.getRank();
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (!Osu.twoRanks("OsuOneSided")) {
            MPI.Finalize();
            System.exit(1);
        }
        OsuOneSided b = new OsuOneSided(args);
        b.run();
        MPI.Finalize();
    }

    private void run() throws MPIException {
        ByteBuffer origin = MPI.newByteBuffer(max);
        ByteBuffer result = MPI.newByteBuffer(max);
        ByteBuffer compare = MPI.newByteBuffer(8);
        Info info = new Info();
        if (schedule != null) {
            info.set("verbatim.rma.schedule", schedule);
        }
        if (aggregate != null) {
            info.set("verbatim.rma.aggregate", aggregate);
        }
        if (rdma != null) {
            info.set("verbatim.rma.rdma", rdma);
        }
        if (allocate) {
            // the constructor both Verbatim and Open MPI's Java bindings have (MPI_Win_allocate)
            win = new Win(2 * max, 1, info, MPI.COMM_WORLD, MPI.newByteBuffer(1),
                    Win.FLAVOR_PRIVATE);
        } else {
            win = new Win(MPI.newByteBuffer(2 * max), 2 * max, 1, info, MPI.COMM_WORLD);
        }
        boolean bw = test.endsWith("-bw");
        if (rank == 0) {
            System.out.println("# OSU-style one-sided " + test + " (Verbatim benchmarks), sync "
                    + sync + ", window " + (allocate ? "allocated" : "created") + ", schedule "
                    + (schedule == null ? "default" : schedule) + ", aggregate "
                    + (aggregate == null ? "default" : aggregate) + ", rdma "
                    + (rdma == null ? "default" : rdma) + " (" + Osu.bindings() + ")");
            System.out.printf("%-10s%20s%n", "# Size", bw ? "Bandwidth (MB/s)" : "Latency (us)");
        }
        Group target = MPI.COMM_WORLD.getGroup().incl(new int[] {1 - rank});
        if (warmup > 0) {
            // Many short calls, not one long one: a method entered a few times runs its loop in
            // on-stack-replaced or profiled code, and the JIT compiles it whole (as the timed
            // calls enter it) only once it has been called some hundreds of times; left to the
            // first timed size, that compilation shares the rank's core with it.
            for (int done = 0; done < warmup; done += WARMUP_CALL) {
                epochs(min, Math.min(WARMUP_CALL, warmup - done), bw ? window : 1, origin, result,
                        compare, target);
            }
        }
        for (int size = min; size <= max; size = size == max ? max + 1
                : (int) Math.min(max, (long) size * step)) {
            int iters = size > 65536 ? Math.max(10, iterations / 20) : iterations;
            int perEpoch = bw ? window : 1;
            int epochs = bw ? Math.max(2, iters / window) : iters;
            int untimed = untimed(size, epochs, perEpoch);
            for (int done = 0; done < untimed; done += UNTIMED_CALL) {
                epochs(size, Math.min(UNTIMED_CALL, untimed - done), perEpoch, origin, result,
                        compare, target);
            }
            Osu.settleJit();
            MPI.COMM_WORLD.barrier();
            double start = MPI.wtime();
            epochs(size, epochs, perEpoch, origin, result, compare, target);
            double seconds = MPI.wtime() - start;
            if (rank == 0) {
                double ops = (double) epochs * perEpoch;
                System.out.printf("%-10d%20.2f%n", size, bw ? size * ops / seconds / 1e6
                        : seconds * 1e6 / ops);
                System.out.flush();
            }
            MPI.COMM_WORLD.barrier();
        }
        win.free();
    }

    /**
     * Untimed epochs before a size is timed: a tenth of the timed ones, and up to 64 KiB at least
     * {@link #UNTIMED_OPS} operations. A path a size takes for the first time (accumulate's
     * in-place loops from 128 ints on) deoptimizes the compiled callers; they are compiled again
     * only once their new profiled code has been called some thousands of times (HotSpot's tier-4
     * threshold: 5,000 calls, or 600 calls with 15,000 calls and loop iterations together, tested
     * every 1,024 calls), so with fewer untimed calls the JIT is quiet when the timed loop
     * starts, and compiles the path during it: accumulate at 512 B measured 1.75 us with a
     * 4,000-epoch pass (--iterations 40000), 0.1-0.2 us once compiled; with 10,000 operations
     * in calls of 10 (1,000 calls of {@link #epochs}, 11,000 calls and iterations) one epoch kind
     * in each run still measured 0.5-0.8 us.
     */
    static int untimed(int size, int epochs, int perEpoch) {
        int floor = size <= 65536 ? (UNTIMED_OPS + perEpoch - 1) / perEpoch : 0;
        return Math.max(Math.max(2, epochs / 10), floor);
    }

    private void epochs(int size, int epochs, int perEpoch, ByteBuffer origin, ByteBuffer result,
                        ByteBuffer compare, Group target) throws MPIException {
        switch (sync) {
            case "fence" -> {
                win.fence(MPI.MODE_NOPRECEDE);
                for (int e = 0; e < epochs; e++) {
                    if (rank == 0) {
                        ops(size, perEpoch, origin, result, compare);
                    }
                    win.fence(0);
                }
                win.fence(MPI.MODE_NOSUCCEED);
            }
            case "pscw" -> {
                for (int e = 0; e < epochs; e++) {
                    if (rank == 0) {
                        win.start(target, 0);
                        ops(size, perEpoch, origin, result, compare);
                        win.complete();
                    } else {
                        win.post(target, 0);
                        win.waitFor();
                    }
                }
            }
            case "lock" -> {
                if (rank == 0) {
                    for (int e = 0; e < epochs; e++) {
                        win.lock(MPI.LOCK_SHARED, 1, 0);
                        ops(size, perEpoch, origin, result, compare);
                        win.unlock(1);
                    }
                }
            }
            default -> {
                if (rank == 0) {
                    win.lock(MPI.LOCK_SHARED, 1, 0);
                    for (int e = 0; e < epochs; e++) {
                        ops(size, perEpoch, origin, result, compare);
                        win.flush(1);
                    }
                    win.unlock(1);
                }
            }
        }
        if (!sync.equals("fence") && !sync.equals("pscw")) {
            MPI.COMM_WORLD.barrier();
        }
    }

    private void ops(int size, int n, ByteBuffer origin, ByteBuffer result, ByteBuffer compare)
            throws MPIException {
        if (test.equals("put-get-bw")) {
            for (int i = 0; i < n / 2; i++) {
                win.put(origin, size, MPI.BYTE, 1, 0, size, MPI.BYTE);
            }
            for (int i = 0; i < n - n / 2; i++) {
                win.get(result, size, MPI.BYTE, 1, max, size, MPI.BYTE);
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            switch (test) {
                case "get-latency", "get-bw" -> win.get(result, size, MPI.BYTE, 1, 0, size, MPI.BYTE);
                case "acc-latency" -> win.accumulate(origin, size / 4, MPI.INT, 1, 0, size / 4,
                        MPI.INT, MPI.SUM);
                case "fop-latency" -> win.fetchAndOp(origin, result, MPI.LONG, 1, 0, MPI.SUM);
                case "cas-latency" -> win.compareAndSwap(origin, compare, result, MPI.LONG, 1, 0);
                default -> win.put(origin, size, MPI.BYTE, 1, 0, size, MPI.BYTE);
            }
        }
    }
}
