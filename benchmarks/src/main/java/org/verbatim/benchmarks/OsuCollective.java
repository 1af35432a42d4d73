package org.verbatim.benchmarks;

import java.util.ArrayList;
import java.util.List;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Collective latency, as OSU's osu_barrier, osu_bcast, osu_reduce, osu_allreduce, osu_gather,
 * osu_scatter, osu_allgather, osu_alltoall and osu_reduce_scatter: for each size, a barrier, then
 * warm-up and timed iterations, each timing one call of the collective and followed by an untimed
 * barrier (not for the barrier itself). Each rank averages its timed calls; the figure is the
 * average of that over the ranks (OSU's "Avg Latency"); {@code --full} adds the minimum and
 * maximum over the ranks. {@link CollectiveOp} says how each collective is called.
 *
 * <p>{@code --op} picks the collectives: one name, a comma-separated list, or {@code all}. The
 * other options are those of {@link OsuOptions}, with the OSU collective defaults: sizes 4 B to
 * 1 MiB, 1000 timed and 200 warm-up iterations up to 8 KiB, 100 and 10 above. With
 * {@code --batches N}, each rank takes its best batch before the average over the ranks.
 *
 * <p>{@code --jit-warmup N} first runs each collective N times, untimed, cycling through the
 * run's sizes up to 8 KiB: OSU's warm-up (200 calls) leaves a JVM's first sizes interpreted or
 * half compiled, and code warmed at one size only is deoptimized at the next, so without it the
 * rows measure the JIT compiler rather than the library. The C twin accepts and ignores it.
 */
public final class OsuCollective {
    private static final String PROGRAM = "OsuCollective";
    /** The OSU collective defaults, ahead of the user's options so that those override them. */
    private static final String[] DEFAULTS = {"--size", "4:1M", "--iterations", "1000",
        "--warmup", "200", "--iterations-large", "100", "--warmup-large", "10"};

    private OsuCollective() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        List<CollectiveOp> ops = new ArrayList<>();
        boolean full = false;
        int jitWarmup = 0;
        List<String> rest = new ArrayList<>(List.of(DEFAULTS));
        OsuOptions o;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--op", "-o" -> ops.addAll(ops(args[++i]));
                    case "--full", "-f" -> full = true;
                    case "--jit-warmup" -> jitWarmup = Integer.parseInt(args[++i]);
                    case "-h", "--help" -> throw new IllegalArgumentException((String) null);
                    default -> rest.add(args[i]);
                }
            }
            if (ops.isEmpty()) {
                throw new IllegalArgumentException("--op is required");
            }
            o = OsuOptions.parse(PROGRAM, OsuOptions.Kind.LATENCY, rest.toArray(new String[0]));
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            if (MPI.COMM_WORLD.getRank() == 0) {
                usage(e instanceof ArrayIndexOutOfBoundsException ? "--op needs a value" : e.getMessage());
            }
            o = null;
        }
        if (o == null) {
            MPI.Finalize();
            System.exit(2);
        }
        for (CollectiveOp op : ops) {
            measure(MPI.COMM_WORLD, op, o, full, jitWarmup);
        }
        MPI.Finalize();
    }

    private static void measure(Comm comm, CollectiveOp op, OsuOptions o, boolean full,
                                int jitWarmup) throws MPIException {
        int rank = comm.getRank();
        int ranks = comm.getSize();
        CollectiveBuffers b = new CollectiveBuffers(op, o.direct, op.sized() ? o.maxSize : 4, ranks);
        if (rank == 0) {
            header(op, o, ranks, full);
        }
        int[] warmSizes = jitWarmupSizes(op, o);
        int[][] warmCounts = new int[warmSizes.length][];
        for (int k = 0; k < warmSizes.length; k++) {
            warmCounts[k] = op.recvCounts(warmSizes[k], ranks);
        }
        for (int i = 0, k = 0; i < jitWarmup; i += JIT_CHUNK, k = (k + 1) % warmSizes.length) {
            bestBatch(comm, op, b, warmSizes[k], warmCounts[k], 0, 1, JIT_CHUNK);
        }
        double[] mine = new double[1];
        double[] min = new double[1];
        double[] max = new double[1];
        double[] sum = new double[1];
        for (int size : op.sized() ? Osu.sizes(o) : new int[] {0}) {
            int[] counts = op.recvCounts(size, ranks);
            int perBatch = o.perBatch(size);
            comm.barrier();
            double best = bestBatch(comm, op, b, size, counts, o.warmup(size), o.batches, perBatch);
            mine[0] = best * 1e6 / perBatch;
            comm.reduce(mine, min, 1, MPI.DOUBLE, MPI.MIN, 0);
            comm.reduce(mine, max, 1, MPI.DOUBLE, MPI.MAX, 0);
            comm.reduce(mine, sum, 1, MPI.DOUBLE, MPI.SUM, 0);
            if (rank == 0) {
                if (full) {
                    System.out.printf("%-10d%20.2f%20.2f%20.2f%12d%n", size, sum[0] / ranks, min[0],
                            max[0], o.batches * perBatch);
                } else {
                    System.out.printf("%-10d%20.2f%n", size, sum[0] / ranks);
                }
                System.out.flush();
            }
        }
    }

    /** Calls per {@link #bestBatch} of the JIT warm-up. */
    private static final int JIT_CHUNK = 50;

    /**
     * {@code warmup} untimed calls, then {@code batches} batches of {@code perBatch} timed calls,
     * each call followed by an untimed barrier (not for the barrier itself); returns the best
     * batch's total in seconds. The JIT warm-up runs this very method, so the timed loop is
     * compiled code: run once per size, its loop would stay in the interpreter (too few
     * iterations for the JVM to compile it), and interpreted timing calls around each
     * collective added 0.3 to 1 us to the 8-byte rows.
     */
    private static double bestBatch(Comm comm, CollectiveOp op, CollectiveBuffers b, int size,
                                    int[] counts, int warmup, int batches, int perBatch)
            throws MPIException {
        double best = Double.MAX_VALUE;
        double batch = 0;
        for (int i = 0; i < warmup + batches * perBatch; i++) {
            double start = MPI.wtime();
            op.run(comm, b.send, b.recv, size, counts);
            double took = MPI.wtime() - start;
            if (i >= warmup) {
                batch += took;
                if ((i - warmup + 1) % perBatch == 0) {
                    best = Math.min(best, batch);
                    batch = 0;
                }
            }
            if (op != CollectiveOp.BARRIER) {
                comm.barrier();
            }
        }
        return best;
    }

    /**
     * The sizes the JIT warm-up cycles through: every size of the run up to
     * {@link OsuOptions#LARGE_MESSAGE} (or the smallest). Warming at one size only left the JIT
     * code speculating on that size: the next row deoptimized it and ran in the interpreter and
     * C1 code until it was compiled again, thousands of calls later.
     */
    private static int[] jitWarmupSizes(CollectiveOp op, OsuOptions o) {
        if (!op.sized()) {
            return new int[] {0};
        }
        int[] all = Osu.sizes(o);
        int n = 0;
        while (n < all.length && all[n] <= OsuOptions.LARGE_MESSAGE) {
            n++;
        }
        return n == 0 ? new int[] {all[0]} : java.util.Arrays.copyOf(all, n);
    }

    private static void header(CollectiveOp op, OsuOptions o, int ranks, boolean full) {
        System.out.println("# OSU-style MPI " + op.title + " Latency Test (Verbatim benchmarks)");
        System.out.println("# op " + op.option + ", " + ranks + " ranks, bindings: " + Osu.bindings()
                + ", buffers: " + (o.direct ? "direct" : "array") + ", java "
                + System.getProperty("java.version")
                + (o.batches > 1 ? ", best of " + o.batches + " batches per rank" : ""));
        if (full) {
            System.out.printf("%-10s%20s%20s%20s%12s%n", "# Size", "Avg Latency(us)",
                    "Min Latency(us)", "Max Latency(us)", "Iterations");
        } else {
            System.out.printf("%-10s%20s%n", "# Size", "Avg Latency(us)");
        }
        System.out.flush();
    }

    private static List<CollectiveOp> ops(String list) {
        List<CollectiveOp> ops = new ArrayList<>();
        for (String name : list.split(",")) {
            if (name.equals("all")) {
                ops.addAll(List.of(CollectiveOp.values()));
            } else {
                ops.add(CollectiveOp.of(name.trim()));
            }
        }
        return ops;
    }

    private static void usage(String problem) {
        if (problem != null) {
            System.err.println(PROGRAM + ": " + problem);
        }
        StringBuilder names = new StringBuilder();
        for (CollectiveOp op : CollectiveOp.values()) {
            names.append(names.length() == 0 ? "" : ", ").append(op.option);
        }
        System.err.println("Usage: mpirun -np N ... " + PROGRAM + " --op OP[,OP...]|all [--full]"
                + " [options]\n"
                + "  --op       " + names + ", or all\n"
                + "  --full     also the minimum and maximum over the ranks, and the iterations\n"
                + "  --jit-warmup N   first N untimed calls, cycling through the sizes up to 8 KiB (default 0)\n"
                + "Defaults for collectives: " + String.join(" ", DEFAULTS) + "\n"
                + "Otherwise the options of the point-to-point programs:");
        OsuOptions.parse(PROGRAM, OsuOptions.Kind.LATENCY, new String[] {"-h"});
    }
}
