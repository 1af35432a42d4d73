package org.verbatim.launcher.training;

import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * The training workload behind {@code mpirun --aot}: two ranks run the operations a typical
 * program's hot loop runs, long enough that the JVM loads and links every class on those paths
 * and profiles (and mostly compiles) their methods, so that the AOT cache recorded from rank 0
 * holds the classes and the method profiles (JEP 483, JEP 515) of Verbatim's hot path.
 *
 * <p>Every phase runs in both directions (the ranks swap roles), because the cache is recorded
 * by rank 0 alone and is then used by every rank: rank 0 must both send and receive, block and
 * not block. Phases: blocking ping-pong with direct buffers and {@code byte[]} from 8 B to 1 MiB
 * (eager and rendezvous), windows of {@code iSend}/{@code iRecv} with {@code Request.waitAll},
 * {@code sendRecv}, and barrier, broadcast and allreduce. Only the public {@code mpi} API is used.
 *
 * <p>Usage: {@code Training [scale=1.0] [budget-seconds=20]}; the default took 4-10 s on two
 * cores shared with other jobs. The scale multiplies every iteration count. On a machine so busy
 * that the budget runs out, rank 0 ends the training at the next phase: a shorter training still
 * records the classes and the profiles gathered so far, and the first of the three passes is
 * short (a tenth of the counts), so that every phase runs at least in it.
 */
public final class Training {
    private static final int TAG = 7;
    /** Message sizes: eager (8 B to 4 KiB) and rendezvous (64 KiB, 1 MiB) with the default limits. */
    private static final int[] SIZES = {8, 64, 512, 4096, 65536, 1 << 20};
    /** Round trips for each size at scale 1: small ones many times, so that their path gets hot. */
    private static final int[] ROUND_TRIPS = {6_000, 1_500, 800, 800, 100, 16};
    private static final int WINDOW = 64;
    /**
     * Every phase runs in three passes, with these shares of its count: a machine too busy to
     * finish in the time budget still gets every path loaded, linked and somewhat profiled.
     */
    private static final double[] PASSES = {0.1, 0.3, 0.6};

    private Training() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        double scale = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        long start = System.nanoTime();
        long deadline = start + (long) ((args.length > 1 ? Double.parseDouble(args[1]) : 20) * 1e9);
        Comm comm = MPI.COMM_WORLD;
        if (comm.getSize() != 2) {
            if (comm.getRank() == 0) {
                System.err.println("Training needs 2 ranks, got " + comm.getSize());
            }
            MPI.Finalize();
            System.exit(2);
        }
        int rank = comm.getRank();
        int peer = 1 - rank;
        int largest = SIZES[SIZES.length - 1];
        ByteBuffer direct = MPI.newByteBuffer(largest);
        byte[] array = new byte[largest];
        ByteBuffer[] windowBuffers = new ByteBuffer[WINDOW];
        byte[][] windowArrays = new byte[WINDOW][];
        for (int i = 0; i < WINDOW; i++) {
            windowBuffers[i] = MPI.newByteBuffer(4096);
            windowArrays[i] = new byte[4096];
        }
        Request[] requests = new Request[WINDOW];
        ByteBuffer other = MPI.newByteBuffer(64);
        boolean go = true;
        for (int p = 0; p < PASSES.length && go; p++) {
            double f = scale * PASSES[p];
            for (int lead = 0; lead < 2 && go; lead++) { // each rank leads once: both send first and receive first
                boolean leads = rank == lead;
                for (int s = 0; s < SIZES.length && go; s++) {
                    int n = scaled(ROUND_TRIPS[s], f);
                    pingPong(comm, direct, SIZES[s], n, peer, leads);
                    pingPong(comm, array, SIZES[s], n, peer, leads);
                    go = inTime(comm, deadline);
                }
                for (int size : new int[] {8, 4096}) {
                    if (go) {
                        int windows = scaled(size == 8 ? 80 : 20, f);
                        windows(comm, windowBuffers, requests, size, windows, peer, leads);
                        windows(comm, windowArrays, requests, size, windows, peer, leads);
                        go = inTime(comm, deadline);
                    }
                }
            }
            if (go) {
                int exchanges = scaled(1_500, f);
                for (int i = 0; i < exchanges; i++) {
                    comm.sendRecv(direct, 8, MPI.BYTE, peer, TAG, other, 8, MPI.BYTE, peer, TAG);
                }
                go = inTime(comm, deadline);
            }
            if (go) {
                collectives(comm, direct, array, scaled(600, f));
                go = inTime(comm, deadline);
            }
        }
        if (rank == 0) {
            System.out.printf("training workload: %.1f s%s%n", (System.nanoTime() - start) / 1e9,
                    go ? "" : " (the time budget ran out: ended early)");
            System.out.flush();
        }
        MPI.Finalize();
    }

    /** Rank 0's verdict, shared: true while the time budget lasts. */
    private static boolean inTime(Comm comm, long deadline) throws MPIException {
        byte[] verdict = {(byte) (System.nanoTime() < deadline ? 1 : 0)};
        comm.bcast(verdict, 1, MPI.BYTE, 0);
        return verdict[0] == 1;
    }

    private static int scaled(int n, double scale) {
        return Math.max(1, (int) Math.round(n * scale));
    }

    /** {@code n} round trips of {@code size} bytes; the leading rank sends first. */
    private static void pingPong(Comm comm, Object buf, int size, int n, int peer, boolean leads)
            throws MPIException {
        for (int i = 0; i < n; i++) {
            if (leads) {
                comm.send(buf, size, MPI.BYTE, peer, TAG);
                comm.recv(buf, size, MPI.BYTE, peer, TAG);
            } else {
                comm.recv(buf, size, MPI.BYTE, peer, TAG);
                comm.send(buf, size, MPI.BYTE, peer, TAG);
            }
        }
    }

    /** The leading rank posts a window of iSends, the other one of iRecvs; a 1-byte ack closes each. */
    private static void windows(Comm comm, Object[] bufs, Request[] requests, int size, int windows, int peer,
            boolean leads) throws MPIException {
        byte[] ack = new byte[1];
        for (int w = 0; w < windows; w++) {
            for (int i = 0; i < bufs.length; i++) {
                requests[i] = leads ? comm.iSend(bufs[i], size, MPI.BYTE, peer, TAG)
                        : comm.iRecv(bufs[i], size, MPI.BYTE, peer, TAG);
            }
            Request.waitAll(requests);
            if (leads) {
                comm.recv(ack, 1, MPI.BYTE, peer, TAG + 1);
            } else {
                comm.send(ack, 1, MPI.BYTE, peer, TAG + 1);
            }
        }
    }

    private static void collectives(Comm comm, ByteBuffer direct, byte[] array, int n) throws MPIException {
        int[] ints = new int[64];
        int[] intSums = new int[64];
        double[] doubles = new double[1024];
        double[] doubleSums = new double[1024];
        for (int i = 0; i < n; i++) {
            comm.barrier();
            comm.bcast(direct, 8, MPI.BYTE, i & 1);
            comm.bcast(array, 1024, MPI.BYTE, 0);
            comm.allReduce(ints, intSums, 1, MPI.INT, MPI.SUM);
            comm.allReduce(ints, intSums, 64, MPI.INT, MPI.MAX);
            comm.allReduce(doubles, doubleSums, i % 16 == 0 ? 1024 : 8, MPI.DOUBLE, MPI.SUM);
        }
    }
}
