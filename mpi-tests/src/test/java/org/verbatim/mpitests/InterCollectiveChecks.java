package org.verbatim.mpitests;

import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Every inter-communicator collective checked on an inter-communicator however it was built
 * (connect/accept, spawn): each process contributes values made from its group ({@code 0} or
 * {@code 1}) and its rank in that group, so the results are known on both sides. The root of
 * the rooted collectives is rank 0 of group 0.
 */
final class InterCollectiveChecks {
    private final Checks c;
    private final Intercomm inter;
    private final int group;
    private final int lr;
    private final int ls;
    private final int rs;

    InterCollectiveChecks(Checks c, Intercomm inter, int group) throws MPIException {
        this.c = c;
        this.inter = inter;
        this.group = group;
        this.lr = inter.getRank();
        this.ls = inter.getSize();
        this.rs = inter.getRemoteSize();
    }

    /** The value of element {@code i} contributed by rank {@code r} of group {@code g}. */
    static int value(int g, int r, int i) {
        return g * 1_000_000 + r * 1000 + i;
    }

    private int[] mine(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = value(group, lr, i);
        }
        return a;
    }

    private int other() {
        return 1 - group;
    }

    private int rootArg() {
        return group == 0 ? (lr == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
    }

    private boolean atRoot() {
        return group == 0 && lr == 0;
    }

    /** Runs them all; {@code tag} names the checks (several inter-communicators per run). */
    void runAll(String tag) throws MPIException {
        String t = tag + ": ";
        inter.barrier();
        c.pass(t + "barrier");
        inter.iBarrier().waitFor();
        c.pass(t + "iBarrier");
        // point-to-point with every remote rank
        boolean ok = true;
        for (int r = 0; r < rs; r++) {
            int[] got = new int[1];
            inter.sendRecv(new int[] {value(group, lr, r)}, 1, MPI.INT, r, 9, got, 1, MPI.INT, r, 9);
            ok &= got[0] == value(other(), r, lr);
        }
        c.check(t + "sendRecv with every remote rank", ok, "");
        // bcast from group 0's root
        int[] b = {atRoot() ? 4242 : 0};
        inter.bcast(b, 1, MPI.INT, rootArg());
        if (group == 1) {
            c.equal(t + "bcast", 4242, b[0]);
        }
        IntBuffer nb = MPI.newIntBuffer(1).put(0, atRoot() ? 77 : 0);
        inter.iBcast(nb, 1, MPI.INT, rootArg()).waitFor();
        if (group == 1) {
            c.equal(t + "iBcast", 77, nb.get(0));
        }
        // allreduce: the sum over the remote group
        int expectSum = 0;
        for (int r = 0; r < rs; r++) {
            expectSum += value(other(), r, 0);
        }
        int[] sum = new int[1];
        inter.allReduce(mine(1), sum, 1, MPI.INT, MPI.SUM);
        c.equal(t + "allReduce", expectSum, sum[0]);
        IntBuffer in = MPI.newIntBuffer(1).put(0, value(group, lr, 0));
        IntBuffer out = MPI.newIntBuffer(1);
        inter.iAllReduce(in, out, 1, MPI.INT, MPI.SUM).waitFor();
        c.equal(t + "iAllReduce", expectSum, out.get(0));
        // allgather: every remote rank's two values
        int[] all = new int[2 * rs];
        inter.allGather(mine(2), 2, MPI.INT, all, 2, MPI.INT);
        c.check(t + "allGather", Arrays.equals(all, remoteBlocks(2)), Arrays.toString(all));
        // allgatherv: remote rank j gives j + 1 values
        int[] counts = new int[rs];
        int[] displs = new int[rs];
        int total = 0;
        for (int j = 0; j < rs; j++) {
            counts[j] = j + 1;
            displs[j] = total;
            total += j + 1;
        }
        int[] av = new int[total];
        inter.allGatherv(mine(lr + 1), lr + 1, MPI.INT, av, counts, displs, MPI.INT);
        ok = true;
        for (int j = 0; j < rs; j++) {
            for (int i = 0; i <= j; i++) {
                ok &= av[displs[j] + i] == value(other(), j, i);
            }
        }
        c.check(t + "allGatherv", ok, Arrays.toString(av));
        // gather and gatherv to group 0's root
        int[] g = new int[2 * rs];
        inter.gather(mine(2), 2, MPI.INT, g, 2, MPI.INT, rootArg());
        if (atRoot()) {
            c.check(t + "gather", Arrays.equals(g, remoteBlocks(2)), Arrays.toString(g));
        }
        int[] gv = new int[total];
        inter.gatherv(mine(lr + 1), lr + 1, MPI.INT, gv, counts, displs, MPI.INT, rootArg());
        if (atRoot()) {
            c.check(t + "gatherv", Arrays.equals(gv, av), Arrays.toString(gv));
        }
        // scatter and scatterv from group 0's root
        int[] src = new int[2 * rs];
        for (int j = 0; j < rs; j++) {
            src[2 * j] = 500 + j;
            src[2 * j + 1] = 600 + j;
        }
        int[] two = new int[2];
        inter.scatter(src, 2, MPI.INT, two, 2, MPI.INT, rootArg());
        if (group == 1) {
            c.check(t + "scatter", two[0] == 500 + lr && two[1] == 600 + lr, Arrays.toString(two));
        }
        int[] vsrc = new int[total];
        for (int i = 0; i < total; i++) {
            vsrc[i] = 900 + i;
        }
        int[] vpart = new int[lr + 1];
        inter.scatterv(vsrc, counts, displs, MPI.INT, vpart, lr + 1, MPI.INT, rootArg());
        if (group == 1) {
            int start = lr * (lr + 1) / 2;
            c.check(t + "scatterv", vpart[0] == 900 + start && vpart[lr] == 900 + start + lr,
                    Arrays.toString(vpart));
        }
        // reduce to group 0's root
        int[] red = new int[1];
        inter.reduce(mine(1), red, 1, MPI.INT, MPI.SUM, rootArg());
        if (atRoot()) {
            c.equal(t + "reduce", expectSum, red[0]);
        }
        // alltoall and alltoallv across the groups
        int[] send = new int[rs];
        for (int j = 0; j < rs; j++) {
            send[j] = value(group, lr, j);
        }
        int[] a2a = new int[rs];
        inter.allToAll(send, 1, MPI.INT, a2a, 1, MPI.INT);
        ok = true;
        for (int j = 0; j < rs; j++) {
            ok &= a2a[j] == value(other(), j, lr);
        }
        c.check(t + "allToAll", ok, Arrays.toString(a2a));
        int[] ones = new int[rs];
        int[] seq = new int[rs];
        Arrays.fill(ones, 1);
        Arrays.setAll(seq, j -> j);
        int[] a2av = new int[rs];
        inter.allToAllv(send, ones, seq, MPI.INT, a2av, ones, seq, MPI.INT);
        c.check(t + "allToAllv", Arrays.equals(a2av, a2a), Arrays.toString(a2av));
        // reduce-scatter: my group's vectors (2 per remote rank... by my group's counts) land on
        // the other group; here every rank of the receiving group gets 2 elements
        int[] myCounts = new int[ls];
        Arrays.fill(myCounts, 2);
        int[] piece = new int[2];
        inter.reduceScatter(mine(2 * rs), piece, myCounts, MPI.INT, MPI.SUM);
        int[] expect = new int[2];
        for (int r = 0; r < rs; r++) {
            for (int i = 0; i < 2; i++) {
                expect[i] += value(other(), r, 2 * lr + i);
            }
        }
        c.check(t + "reduceScatter", Arrays.equals(piece, expect),
                Arrays.toString(piece) + " vs " + Arrays.toString(expect));
        int[] block = new int[2];
        inter.reduceScatterBlock(mine(2 * rs), block, 2, MPI.INT, MPI.SUM);
        c.check(t + "reduceScatterBlock", Arrays.equals(block, expect),
                Arrays.toString(block) + " vs " + Arrays.toString(expect));
        Request last = inter.iBarrier();
        last.waitFor();
    }

    /** Each remote rank's first {@code n} values, in remote rank order. */
    private int[] remoteBlocks(int n) {
        int[] a = new int[n * rs];
        for (int j = 0; j < rs; j++) {
            for (int i = 0; i < n; i++) {
                a[n * j + i] = value(other(), j, i);
            }
        }
        return a;
    }
}
