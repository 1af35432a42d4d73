package org.verbatim.benchmarks;

import java.nio.ByteBuffer;
import mpi.Group;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * The one-sided papers' patterns (docs/benchmarks.md, "The papers' figures"):
 * <pre>
 *   OneSidedPatterns overlap  [--fence LIST] [--win create|allocate] [--min B] [--max B]
 *                             [--iterations N] [--warmup N]
 *   OneSidedPatterns halo     [--fence LIST] [--neighbours K] [--compute US] [--min B] [--max B]
 *                             [--iterations N] [--win create|allocate]
 *   OneSidedPatterns pingpong [--op put|get] [--aggregate true|false] [--min B] [--max B]
 *                             [--iterations N] [--win create|allocate]
 * </pre>
 * {@code overlap} (fence paper, figure 6): every rank puts one message to the next rank between
 * two fences; the epoch alone takes t; then a computation of t (a busy loop, no MPI call) runs
 * between the put and the closing fence, and the epoch takes T. Overlap = (2t - T) / t, the
 * share of the communication hidden behind the computation (100%: T = t; 0%: T = 2t).
 * {@code halo} (figures 10a, 10b): every rank puts one message to each of K neighbours (rank
 * r + 1 + j mod p, j = 0..K-1, each into its own slot of the target's window, so with 2 ranks
 * all K go to the other one) and computes {@code --compute} us, between two fences; time per
 * iteration. Both run once per fence design in {@code --fence} (set by the window's info key
 * verbatim.rma.fence). {@code pingpong} (scheduling paper, figures 9 and 10): rank 0 opens an
 * access epoch (start), does one put or get, completes it, then exposes its window (post, wait);
 * rank 1 the reverse; half an iteration is the latency; {@code --aggregate} sets
 * verbatim.rma.aggregate (the operation travels with the completion record, or on its own).
 * {@code --warmup N} (default 20000): N epochs (rounds) of every design at the smallest size
 * before anything is timed, so that the JIT has compiled every path.
 * Windows are created on a direct buffer by default (the designs and aggregation apply to the
 * two-sided and RDMA paths; on allocated windows of one host operations are loads and stores).
 */
public final class OneSidedPatterns {
    private final String test;
    private final String[] fences;
    private final boolean allocate;
    private final int min;
    private final int max;
    private final int iterations;
    private final int neighbours;
    private final double computeMicros;
    private final String op;
    private final String aggregate;
    /** Epochs (ping-pong rounds) of every design at the smallest size before anything is timed. */
    private final int warmup;
    private final int rank;
    private final int size;

    private OneSidedPatterns(String[] args) throws MPIException {
        String t = "overlap";
        String f = "def,imm-naive,imm-opt,imm-ri";
        String w = "create";
        int lo = 1024;
        int hi = 1 << 20;
        int it = 2000;
        int k = 4;
        double c = 50;
        String o = "put";
        String a = null;
        int warm = 20000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--fence" -> f = args[++i];
                case "--win" -> w = args[++i];
                case "--min" -> lo = OsuOptions.size(args[++i]);
                case "--max" -> hi = OsuOptions.size(args[++i]);
                case "--iterations" -> it = Integer.parseInt(args[++i]);
                case "--neighbours" -> k = Integer.parseInt(args[++i]);
                case "--compute" -> c = Double.parseDouble(args[++i]);
                case "--op" -> o = args[++i];
                case "--aggregate" -> a = args[++i];
                case "--warmup" -> warm = Integer.parseInt(args[++i]);
                default -> t = args[i];
            }
        }
        this.test = t;
        this.fences = f.split(",");
        this.allocate = w.equals("allocate");
        this.min = lo;
        this.max = hi;
        this.iterations = it;
        this.neighbours = k;
        this.computeMicros = c;
        this.op = o;
        this.aggregate = a;
        this.warmup = warm;
        this.rank = MPI.COMM_WORLD.getRank();
        this.size = MPI.COMM_WORLD.getSize();
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        OneSidedPatterns b = new OneSidedPatterns(args);
        switch (b.test) {
            case "overlap" -> b.overlap();
            case "halo" -> b.halo();
            case "pingpong" -> b.pingpong();
            default -> {
                if (b.rank == 0) {
                    System.err.println("OneSidedPatterns: unknown test " + b.test);
                }
                MPI.Finalize();
                System.exit(2);
            }
        }
        MPI.Finalize();
    }

    private Win window(int bytes, Info info) throws MPIException {
        if (allocate) {
            return new Win(bytes, 1, info, MPI.COMM_WORLD, MPI.newByteBuffer(1),
                    Win.FLAVOR_PRIVATE);
        }
        return new Win(MPI.newByteBuffer(bytes), bytes, 1, info, MPI.COMM_WORLD);
    }

    private Info fenceInfo(String design) throws MPIException {
        Info info = new Info();
        info.set("verbatim.rma.fence", design);
        return info;
    }

    private void header(String title, String columns) {
        if (rank == 0) {
            System.out.println("# " + title + ", " + size + " ranks, window "
                    + (allocate ? "allocated" : "created") + " (" + Osu.bindings() + ")");
            System.out.println(columns);
        }
    }

    // ------------------------------------------------------------------ overlap

    private void overlap() throws MPIException {
        header("overlap of computation with a fence epoch (one put to the next rank)",
                String.format("%-10s%-12s%14s%14s%12s", "# Size", "fence", "epoch (us)",
                        "+compute (us)", "overlap"));
        ByteBuffer origin = MPI.newByteBuffer(max);
        int next = (rank + 1) % size;
        for (String design : fences) { // the JIT compiles every design's path first
            Win win = window(max, fenceInfo(design));
            fenced(win, origin, min, next, warmup, 0);
            win.free();
        }
        for (String design : fences) {
            Win win = window(max, fenceInfo(design));
            for (int s = min; s <= max; s *= 4) {
                int iters = s > 65536 ? Math.max(20, iterations / 10) : iterations;
                fenced(win, origin, s, next, iters / 5 + 1, 0); // warm-up
                double t = maxOverRanks(fenced(win, origin, s, next, iters, 0));
                double total = maxOverRanks(fenced(win, origin, s, next, iters, t));
                double overlap = Math.max(0, Math.min(1, (2 * t - total) / t));
                if (rank == 0) {
                    System.out.printf("%-10d%-12s%14.2f%14.2f%11.0f%%%n", s, design, t * 1e6,
                            total * 1e6, overlap * 100);
                    System.out.flush();
                }
            }
            win.free();
        }
    }

    /** Seconds per epoch: fence, put {@code s} B to {@code to}, compute, fence. */
    private double fenced(Win win, ByteBuffer origin, int s, int to, int iters, double compute)
            throws MPIException {
        MPI.COMM_WORLD.barrier();
        win.fence(MPI.MODE_NOPRECEDE);
        double start = MPI.wtime();
        for (int i = 0; i < iters; i++) {
            win.put(origin, s, MPI.BYTE, to, 0, s, MPI.BYTE);
            spin(compute);
            win.fence(0);
        }
        double seconds = (MPI.wtime() - start) / iters;
        win.fence(MPI.MODE_NOSUCCEED);
        return seconds;
    }

    /** A computation of {@code seconds}: a busy loop that calls no MPI function. */
    private static void spin(double seconds) {
        if (seconds <= 0) {
            return;
        }
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static double maxOverRanks(double v) throws MPIException {
        double[] b = {v};
        MPI.COMM_WORLD.allReduce(b, 1, MPI.DOUBLE, MPI.MAX);
        return b[0];
    }

    // ------------------------------------------------------------------ halo

    private void halo() throws MPIException {
        header("halo exchange, " + neighbours + " neighbours, " + computeMicros
                + " us of computation per iteration", String.format("%-10s%-12s%14s", "# Size",
                "fence", "iteration (us)"));
        ByteBuffer origin = MPI.newByteBuffer(max);
        int[] to = new int[neighbours];
        for (int j = 0; j < neighbours; j++) {
            to[j] = (rank + 1 + j) % size;
            if (to[j] == rank) {
                to[j] = (to[j] + 1) % size;
            }
        }
        for (String design : fences) {
            Win win = window(Math.multiplyExact(max, neighbours), fenceInfo(design));
            exchange(win, origin, min, to, warmup);
            win.free();
        }
        for (String design : fences) {
            Win win = window(Math.multiplyExact(max, neighbours), fenceInfo(design));
            for (int s = min; s <= max; s *= 4) {
                int iters = s > 65536 ? Math.max(20, iterations / 10) : iterations;
                exchange(win, origin, s, to, iters / 5 + 1);
                double t = maxOverRanks(exchange(win, origin, s, to, iters));
                if (rank == 0) {
                    System.out.printf("%-10d%-12s%14.2f%n", s, design, t * 1e6);
                    System.out.flush();
                }
            }
            win.free();
        }
    }

    private double exchange(Win win, ByteBuffer origin, int s, int[] to, int iters)
            throws MPIException {
        MPI.COMM_WORLD.barrier();
        win.fence(MPI.MODE_NOPRECEDE);
        double start = MPI.wtime();
        for (int i = 0; i < iters; i++) {
            for (int j = 0; j < to.length; j++) {
                win.put(origin, s, MPI.BYTE, to[j], j * s, s, MPI.BYTE);
            }
            spin(computeMicros * 1e-6);
            win.fence(0);
        }
        double seconds = (MPI.wtime() - start) / iters;
        win.fence(MPI.MODE_NOSUCCEED);
        return seconds;
    }

    // ------------------------------------------------------------------ ping-pong

    private void pingpong() throws MPIException {
        if (!Osu.twoRanks("OneSidedPatterns pingpong")) {
            return;
        }
        header(op + " ping-pong, start/complete then post/wait per half, aggregate "
                + (aggregate == null ? "default" : aggregate), String.format("%-10s%14s",
                "# Size", "Latency (us)"));
        Info info = new Info();
        if (aggregate != null) {
            info.set("verbatim.rma.aggregate", aggregate);
        }
        Win win = window(max, info);
        ByteBuffer buf = MPI.newByteBuffer(max);
        Group other = MPI.COMM_WORLD.getGroup().incl(new int[] {1 - rank});
        rounds(win, buf, other, min, warmup);
        for (int s = min; s <= max; s *= 2) {
            int iters = s > 65536 ? Math.max(20, iterations / 10) : iterations;
            rounds(win, buf, other, s, iters / 5 + 1);
            MPI.COMM_WORLD.barrier();
            double start = MPI.wtime();
            rounds(win, buf, other, s, iters);
            double us = (MPI.wtime() - start) * 1e6 / iters / 2;
            if (rank == 0) {
                System.out.printf("%-10d%14.2f%n", s, us);
                System.out.flush();
            }
        }
        win.free();
    }

    private void rounds(Win win, ByteBuffer buf, Group other, int s, int iters)
            throws MPIException {
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                access(win, buf, other, s);
                expose(win, other);
            } else {
                expose(win, other);
                access(win, buf, other, s);
            }
        }
    }

    private void access(Win win, ByteBuffer buf, Group other, int s) throws MPIException {
        win.start(other, 0);
        if (op.equals("get")) {
            win.get(buf, s, MPI.BYTE, 1 - rank, 0, s, MPI.BYTE);
        } else {
            win.put(buf, s, MPI.BYTE, 1 - rank, 0, s, MPI.BYTE);
        }
        win.complete();
    }

    private static void expose(Win win, Group other) throws MPIException {
        win.post(other, 0);
        win.waitFor();
    }
}
