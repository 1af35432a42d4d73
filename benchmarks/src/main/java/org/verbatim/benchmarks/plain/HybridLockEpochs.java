package org.verbatim.benchmarks.plain;

import java.nio.ByteBuffer;
import java.util.Arrays;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * Lock epochs on a window whose members mix same-host pairs and pairs on two hosts: rank 0 runs
 * exclusive lock + one put of {@code size} B + unlock on a same-host rank and on a rank of the
 * other host, on two windows created alike on direct buffers, one with
 * {@code verbatim.rma.lock=atomic} and one with {@code record}; the others wait in a barrier
 * (which makes progress, as records need). Each round times every (lock mode, target) pair in
 * turn, atomic and record alternating, {@code warmup} epochs untimed before {@code epochs} timed
 * ones; prints microseconds per epoch, one line per pair and round, and each round's ratio
 * atomic / record per target.
 *
 * <p>Usage: {@code HybridLockEpochs [epochs=300] [warmup=300] [rounds=3] [size=8]}, at least two
 * hosts with at least two ranks on rank 0's.
 */
public final class HybridLockEpochs {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int epochs = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int size = args.length > 3 ? Integer.parseInt(args[3]) : 8;
        int rank = MPI.COMM_WORLD.getRank();
        int p = MPI.COMM_WORLD.getSize();
        int[] hosts = new int[p];
        MPI.COMM_WORLD.allGather(new int[] {MPI.getProcessorName().hashCode()}, 1, MPI.INT, hosts,
                1, MPI.INT);
        int sameHost = -1;
        int otherHost = -1;
        for (int r = 1; r < p; r++) {
            if (hosts[r] == hosts[0] && sameHost < 0) {
                sameHost = r;
            } else if (hosts[r] != hosts[0] && otherHost < 0) {
                otherHost = r;
            }
        }
        if (sameHost < 0 || otherHost < 0) {
            if (rank == 0) {
                System.err.println("HybridLockEpochs: needs a rank on rank 0's host and one on "
                        + "another host, got hosts " + Arrays.toString(hosts));
            }
            MPI.Finalize();
            System.exit(2);
        }
        String[] modes = {"atomic", "record"};
        Win[] wins = new Win[modes.length];
        for (int m = 0; m < modes.length; m++) {
            Info info = new Info();
            info.set("verbatim.rma.lock", modes[m]);
            wins[m] = new Win(MPI.newByteBuffer(Math.max(size, 8)), Math.max(size, 8), 1, info,
                    MPI.COMM_WORLD);
        }
        int[] targets = {sameHost, otherHost};
        String[] kinds = {"same host", "other host"};
        ByteBuffer origin = MPI.newByteBuffer(Math.max(size, 1));
        for (int round = 1; round <= rounds; round++) {
            double[][] us = new double[modes.length][targets.length];
            for (int t = 0; t < targets.length; t++) {
                for (int m = 0; m < modes.length; m++) {
                    MPI.COMM_WORLD.barrier();
                    if (rank == 0) {
                        us[m][t] = epochs(wins[m], targets[t], origin, size, warmup, epochs);
                        System.out.printf("round %d lock=%s target rank %d (%s): %.1f us per "
                                + "lock + %d B put + unlock%n", round, modes[m], targets[t],
                                kinds[t], us[m][t], size);
                    }
                }
            }
            if (rank == 0) {
                for (int t = 0; t < targets.length; t++) {
                    System.out.printf("round %d %s: atomic / record = %.2f%n", round, kinds[t],
                            us[0][t] / us[1][t]);
                }
            }
        }
        MPI.COMM_WORLD.barrier();
        for (Win w : wins) {
            w.free();
        }
        MPI.Finalize();
    }

    private static double epochs(Win win, int target, ByteBuffer origin, int size, int warmup,
                                 int epochs) throws MPIException {
        long start = 0;
        for (int i = 0; i < warmup + epochs; i++) {
            if (i == warmup) {
                start = System.nanoTime();
            }
            win.lock(MPI.LOCK_EXCLUSIVE, target, 0);
            win.put(origin, size, MPI.BYTE, target, 0, size, MPI.BYTE);
            win.unlock(target);
        }
        return (System.nanoTime() - start) / 1e3 / epochs;
    }
}
