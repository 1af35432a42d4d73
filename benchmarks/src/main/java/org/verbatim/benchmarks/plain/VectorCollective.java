package org.verbatim.benchmarks.plain;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * Collectives of a derived (vector) type against the same bytes as contiguous ints, on all
 * ranks of COMM_WORLD:
 * <pre>
 *   VectorCollective [ops] [sizes] [buffers] [batches]
 *     ops      bcast,gatherv (default both)
 *     sizes    packed bytes per rank, comma-separated, k/m suffixes (default 4k,16k,...,4m)
 *     buffers  direct (MPI.newIntBuffer, default) or array (int[])
 *     batches  timed batches per point (default 3); each rank keeps its best batch
 * </pre>
 * The vector: blocks of 64 ints (256 B) every 128 ints ({@code createVector(bytes / 256, 64, 128,
 * INT)}), so the buffer is twice the message. bcast: the root (0) sends one element; gatherv:
 * every rank sends one element to rank 0, which receives rank r's at displacement r (one
 * extent each, so every rank's part of the receive buffer has the vector's gaps). Each
 * iteration is timed alone
 * between barriers (as OSU does); a point prints the average over ranks of each rank's best
 * batch mean: {@code <op> <ranks> <bytes> <vector us> <contiguous us> <vector/contiguous>}.
 * Every point list runs twice and only the second pass prints (the first is the JIT's warm-up).
 */
public final class VectorCollective {
    private static final int BLOCK_INTS = 64;
    private static final int STRIDE_INTS = 128;

    private VectorCollective() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Comm comm = MPI.COMM_WORLD;
        String[] ops = (args.length > 0 ? args[0] : "bcast,gatherv").split(",");
        String[] sizes = (args.length > 1 ? args[1]
                : "4k,8k,16k,32k,64k,128k,256k,512k,1m,2m,4m").split(",");
        boolean direct = args.length <= 2 || !args[2].equals("array");
        int batches = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        if (comm.getRank() == 0) {
            System.out.println("# " + (direct ? "direct buffers" : "int[]")
                    + ": op, ranks, bytes, vector us, contiguous us, vector/contiguous");
        }
        for (int pass = 0; pass < 2; pass++) {
            for (String op : ops) {
                for (String size : sizes) {
                    point(comm, op.trim(), parse(size.trim()), direct, batches, pass == 1);
                }
            }
        }
        MPI.Finalize();
    }

    private static int parse(String s) {
        char last = Character.toLowerCase(s.charAt(s.length() - 1));
        int unit = last == 'k' ? 1024 : last == 'm' ? 1024 * 1024 : 1;
        return Integer.parseInt(unit == 1 ? s : s.substring(0, s.length() - 1)) * unit;
    }

    private static void point(Comm comm, String op, int bytes, boolean direct, int batches,
                              boolean print) throws MPIException {
        int blocks = Math.max(1, bytes / (BLOCK_INTS * 4));
        Datatype vec = Datatype.createVector(blocks, BLOCK_INTS, STRIDE_INTS, MPI.INT);
        vec.commit();
        int ints = blocks * BLOCK_INTS;
        int extent = (blocks - 1) * STRIDE_INTS + BLOCK_INTS;
        int p = comm.getSize();
        int iterations = (int) Math.max(10, Math.min(500, (64L << 20) / ((long) ints * 4 * p)));
        double v = time(comm, op, vec, 1, extent, direct, iterations, batches);
        double c = time(comm, op, MPI.INT, ints, ints, direct, iterations, batches);
        if (comm.getRank() == 0 && print) {
            System.out.printf("%s %d %d %.2f %.2f %.3f%n", op, p, ints * 4L, v, c, v / c);
        }
        vec.free();
    }

    /**
     * Mean microseconds of one call, averaged over the ranks (each rank's best batch): {@code
     * count} elements of {@code type} whose extent spans {@code span} ints.
     */
    private static double time(Comm comm, String op, Datatype type, int count, int span,
                               boolean direct, int iterations, int batches) throws MPIException {
        int p = comm.getSize();
        int rank = comm.getRank();
        // gatherv: rank r's element at displacement r (elements of `count`), spans overlap-free
        int rootSpan = span + (p - 1) * (type == MPI.INT ? count : span);
        Object send = buffer(direct, span, rank);
        Object recv = buffer(direct, op.equals("gatherv") && rank == 0 ? rootSpan : span, -1);
        int[] counts = new int[p];
        int[] displs = new int[p];
        for (int r = 0; r < p; r++) {
            counts[r] = count;
            displs[r] = type == MPI.INT ? r * count : r;
        }
        double best = Double.MAX_VALUE;
        for (int b = 0; b < batches; b++) {
            long total = 0;
            for (int i = 0; i < iterations; i++) {
                comm.barrier();
                long t0 = System.nanoTime();
                if (op.equals("bcast")) {
                    comm.bcast(rank == 0 ? send : recv, count, type, 0);
                } else if (op.equals("gatherv")) {
                    comm.gatherv(send, count, type, recv, counts, displs, type, 0);
                } else {
                    throw new IllegalArgumentException("unknown op " + op);
                }
                total += System.nanoTime() - t0;
            }
            best = Math.min(best, total / 1e3 / iterations);
        }
        double[] sum = {best};
        comm.allReduce(sum, 1, MPI.DOUBLE, MPI.SUM);
        return sum[0] / p;
    }

    private static Object buffer(boolean direct, int ints, int rank) {
        if (direct) {
            IntBuffer b = MPI.newIntBuffer(ints);
            for (int i = 0; i < ints; i++) {
                b.put(i, rank * 1_000_000 + i);
            }
            return b;
        }
        int[] a = new int[ints];
        for (int i = 0; i < ints; i++) {
            a[i] = rank * 1_000_000 + i;
        }
        return a;
    }
}
