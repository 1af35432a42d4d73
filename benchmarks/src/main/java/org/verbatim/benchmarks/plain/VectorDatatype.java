package org.verbatim.benchmarks.plain;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The datatype paper's tests on Verbatim, the Java twin of {@code
 * benchmarks/src/main/c/datatype_vector.c} (same modes, arguments and output lines, so {@code
 * benchmarks/compare-datatypes} prints them side by side):
 * <pre>
 *   VectorDatatype pack      [columns] [megabytes]  Comm.pack / unpack throughput (rank 0)
 *   VectorDatatype latency   [columns] [iterations] vector ping-pong, ranks 0 and 1
 *   VectorDatatype bandwidth [columns] [windows]    100-message window, ranks 0 -> 1
 *   VectorDatatype alltoall  [lasts]   [iterations] allToAll of the growing struct, all ranks
 * </pre>
 * The vector: x columns of a 128 x 4096 int matrix ({@code createVector(128, x, 4096, INT)}) in
 * a direct IntBuffer; "contiguous" is always the same bytes as 128 * x INTs, in the same run.
 * The struct (the paper's figure 10): blocks of 1, 2, 4, ..., last ints, each followed by a gap
 * as long as itself (none after the last), {@code createStruct} of INTs. Output after a '#'
 * header: {@code <mode> <x> <bytes> <vector> <contiguous> <ratio>}; pack prints {@code pack <x>
 * <bytes> <pack GB/s> <unpack GB/s> <contiguous pack GB/s> <pack/contiguous>} (GB = 10^9 B; into
 * and from a native {@code MemorySegment}, Verbatim's overload, and a second line {@code
 * pack-array} with Open MPI's {@code byte[]} one); latency and alltoall in microseconds (ratio
 * vector / contiguous), bandwidth in MB/s with MB = 2^20 B as in the paper (ratio contiguous /
 * vector: the time multiple). Lower ratios are better. Every mode runs its list of points twice
 * and prints the second pass only (the first is the JIT's warm-up; the C twin does the same).
 */
public final class VectorDatatype {
    private static final int ROWS = 128;
    private static final int COLS = 4096;
    private static final int WINDOW = 100;

    private VectorDatatype() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Comm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        String mode = args.length > 0 ? args[0] : "latency";
        if (mode.equals("alltoall")) {
            allToAll(comm, rank, args.length > 1 ? args[1] : "2048,8192,32768,131072",
                    args.length > 2 ? Integer.parseInt(args[2]) : 50);
            MPI.Finalize();
            return;
        }
        String[] xs = (args.length > 1 ? args[1] : "1,4,16,64,256,1024,4096").split(",");
        IntBuffer matrix = MPI.newIntBuffer(ROWS * COLS);
        for (int i = 0; i < ROWS * COLS; i++) {
            matrix.put(i, i);
        }
        if (rank == 0) {
            System.out.println(switch (mode) {
                case "pack" -> "# pack: columns, bytes, pack GB/s, unpack GB/s, contiguous pack GB/s, pack/contiguous";
                case "latency" -> "# latency: columns, bytes, vector us, contiguous us, vector/contiguous";
                default -> "# bandwidth (window " + WINDOW + "): columns, bytes, vector MB/s, contiguous MB/s, contiguous/vector";
            });
        }
        // two passes over the points, the first one untimed: the JIT compiles every path first
        for (int pass = 0; pass < 2; pass++) {
            for (String s : xs) {
                point(comm, rank, mode, Integer.parseInt(s.trim()), matrix, args, pass == 1);
            }
        }
        MPI.Finalize();
    }

    /** One point (x columns) of {@code mode}; prints its line when {@code print}. */
    private static void point(Comm comm, int rank, String mode, int x, IntBuffer matrix,
                              String[] args, boolean print) throws MPIException {
        Datatype vec = Datatype.createVector(ROWS, x, COLS, MPI.INT);
        vec.commit();
        int ints = ROWS * x;
        long bytes = ints * 4L;
        switch (mode) {
            case "pack" -> {
                if (rank == 0) {
                    double megabytes = args.length > 2 ? Double.parseDouble(args[2]) : 4096;
                    pack(comm, matrix, vec, x, ints, bytes, print ? megabytes : megabytes / 4,
                            print);
                }
            }
            case "latency" -> {
                int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
                double v = pingPong(comm, rank, matrix, 1, vec, iterations);
                double c = pingPong(comm, rank, matrix, ints, MPI.INT, iterations);
                if (rank == 0 && print) {
                    System.out.printf("latency %d %d %.2f %.2f %.3f%n", x, bytes, v, c, v / c);
                }
            }
            case "bandwidth" -> {
                int windows = args.length > 2 ? Integer.parseInt(args[2]) : 20;
                double v = windowBandwidth(comm, rank, matrix, 1, vec, bytes, windows);
                double c = windowBandwidth(comm, rank, matrix, ints, MPI.INT, bytes, windows);
                if (rank == 0 && print) {
                    System.out.printf("bandwidth %d %d %.1f %.1f %.3f%n", x, bytes, v, c, c / v);
                }
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        comm.barrier();
        vec.free();
    }

    private static void pack(Comm comm, IntBuffer matrix, Datatype vec, int x, int ints,
                             long bytes, double megabytes, boolean print) throws MPIException {
        long n = Math.max(10, (long) (megabytes * 1e6 / bytes));
        double gb = (double) bytes * n / 1e9;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment packed = arena.allocate(bytes, 64);
            double[] t = new double[3];
            for (int which = 0; which < 3; which++) {
                packLoop(comm, which, matrix, vec, ints, packed, n / 4 + 1);
                t[which] = packLoop(comm, which, matrix, vec, ints, packed, n);
            }
            if (print) {
                System.out.printf("pack %d %d %.2f %.2f %.2f %.3f%n", x, bytes, gb / t[0],
                        gb / t[1], gb / t[2], t[0] / t[2]);
            }
        }
        byte[] array = new byte[(int) bytes];
        double[] t = new double[3];
        for (int which = 0; which < 3; which++) {
            packLoopArray(comm, which, matrix, vec, ints, array, n / 4 + 1);
            t[which] = packLoopArray(comm, which, matrix, vec, ints, array, n);
        }
        if (print) {
            System.out.printf("pack-array %d %d %.2f %.2f %.2f %.3f%n", x, bytes, gb / t[0],
                    gb / t[1], gb / t[2], t[0] / t[2]);
        }
    }

    /** Seconds for n calls of pack (which 0), unpack (1) or pack of the contiguous ints (2). */
    private static double packLoop(Comm comm, int which, IntBuffer matrix, Datatype vec, int ints,
                                   MemorySegment packed, long n) throws MPIException {
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) {
            switch (which) {
                case 0 -> comm.pack(matrix, 1, vec, packed, 0);
                case 1 -> comm.unpack(packed, 0, matrix, 1, vec);
                default -> comm.pack(matrix, ints, MPI.INT, packed, 0);
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static double packLoopArray(Comm comm, int which, IntBuffer matrix, Datatype vec,
                                        int ints, byte[] packed, long n) throws MPIException {
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) {
            switch (which) {
                case 0 -> comm.pack(matrix, 1, vec, packed, 0);
                case 1 -> comm.unpack(packed, 0, matrix, 1, vec);
                default -> comm.pack(matrix, ints, MPI.INT, packed, 0);
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** Average half round trip in microseconds (a tenth of the iterations warm up first). */
    private static double pingPong(Comm comm, int rank, IntBuffer buf, int count, Datatype type,
                                   int iterations) throws MPIException {
        int warmup = Math.max(10, iterations / 10);
        long start = 0;
        for (int i = 0; i < warmup + iterations; i++) {
            if (i == warmup) {
                comm.barrier();
                start = System.nanoTime();
            }
            if (rank == 0) {
                comm.send(buf, count, type, 1, 7);
                comm.recv(buf, count, type, 1, 7);
            } else if (rank == 1) {
                comm.recv(buf, count, type, 0, 7);
                comm.send(buf, count, type, 0, 7);
            }
        }
        return (System.nanoTime() - start) / 1e3 / iterations / 2;
    }

    /** MB/s (2^20 B) of windows of 100 messages 0 -> 1, each window closed by a 4-byte reply. */
    private static double windowBandwidth(Comm comm, int rank, IntBuffer buf, int count,
                                          Datatype type, long bytes, int windows)
            throws MPIException {
        Request[] requests = new Request[WINDOW];
        IntBuffer ack = MPI.newIntBuffer(1);
        int warmup = Math.max(2, windows / 10);
        long start = 0;
        for (int w = 0; w < warmup + windows; w++) {
            if (w == warmup) {
                comm.barrier();
                start = System.nanoTime();
            }
            if (rank == 0) {
                for (int i = 0; i < WINDOW; i++) {
                    requests[i] = comm.iSend(buf, count, type, 1, 9);
                }
                Request.waitAll(requests);
                comm.recv(ack, 1, MPI.INT, 1, 10);
            } else if (rank == 1) {
                for (int i = 0; i < WINDOW; i++) {
                    requests[i] = comm.iRecv(buf, count, type, 0, 9);
                }
                Request.waitAll(requests);
                comm.send(ack, 1, MPI.INT, 0, 10);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return (double) bytes * WINDOW * windows / seconds / (1 << 20);
    }

    /**
     * The paper's growing struct: blocks of 1, 2, 4, ..., last ints, each followed by a gap as
     * long as itself (none after the last). Returns the committed type; extent in ints in
     * {@code extentInts[0]}.
     */
    public static Datatype growingStruct(int last, long[] extentInts) throws MPIException {
        int n = 0;
        for (int b = 1; b <= last; b *= 2) {
            n++;
        }
        int[] lengths = new int[n];
        int[] displs = new int[n];
        Datatype[] types = new Datatype[n];
        long at = 0;
        int i = 0;
        for (int b = 1; b <= last; b *= 2, i++) {
            lengths[i] = b;
            displs[i] = (int) (at * 4);
            types[i] = MPI.INT;
            at += b + (b < last ? b : 0);
        }
        Datatype t = Datatype.createStruct(lengths, displs, types);
        t.commit();
        extentInts[0] = at;
        return t;
    }

    private static void allToAll(Comm comm, int rank, String lasts, int iterations)
            throws MPIException {
        int size = comm.getSize();
        if (rank == 0) {
            System.out.printf("# alltoall on %d ranks: last block (ints), bytes per peer, struct us, contiguous us, ratio%n", size);
        }
        for (int pass = 0; pass < 2; pass++) {
            for (String s : lasts.split(",")) {
                allToAllPoint(comm, rank, size, Integer.parseInt(s.trim()), iterations, pass == 1);
            }
        }
    }

    private static void allToAllPoint(Comm comm, int rank, int size, int last, int iterations,
                                      boolean print) throws MPIException {
        long[] extent = new long[1];
        Datatype t = growingStruct(last, extent);
        int ints = 2 * last - 1;
        // a struct's base type is BYTE (Open MPI's bindings): byte buffers on both sides
        ByteBuffer send = MPI.newByteBuffer((int) (extent[0] * 4 * size));
        ByteBuffer recv = MPI.newByteBuffer((int) (extent[0] * 4 * size));
        double st = allToAllTime(comm, send, recv, 1, t, iterations);
        double ct = allToAllTime(comm, send, recv, ints * 4, MPI.BYTE, iterations);
        if (rank == 0 && print) {
            System.out.printf("alltoall %d %d %.2f %.2f %.3f%n", last, ints * 4L, st, ct, st / ct);
        }
        t.free();
    }

    /** Microseconds per allToAll, the slowest rank's average (a tenth warms up first). */
    private static double allToAllTime(Comm comm, ByteBuffer send, ByteBuffer recv, int count,
                                       Datatype type, int iterations) throws MPIException {
        int warmup = Math.max(2, iterations / 10);
        long start = 0;
        for (int i = 0; i < warmup + iterations; i++) {
            if (i == warmup) {
                comm.barrier();
                start = System.nanoTime();
            }
            comm.allToAll(send, count, type, recv, count, type);
        }
        double[] local = {(System.nanoTime() - start) / 1e3 / iterations};
        double[] worst = new double[1];
        comm.allReduce(local, worst, 1, MPI.DOUBLE, MPI.MAX);
        return worst[0];
    }
}
