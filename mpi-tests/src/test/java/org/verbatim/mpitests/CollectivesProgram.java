package org.verbatim.mpitests;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Comm;
import mpi.Datatype;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.UserFunction;

/**
 * Every collective and variant against a sequential reference that each rank computes itself:
 * rank r contributes value(r, i) at index i, so everyone knows what everyone sent. Counts cross
 * every algorithm switch (binomial/scatter-allgather bcast, recursive doubling/Rabenseifner
 * allreduce, binomial/linear gather, recursive-doubling/ring allgather, Bruck/linear/pairwise
 * alltoall). Args: none.
 */
public final class CollectivesProgram {
    private static int p;
    private static int me;
    private static Checks c;

    private CollectivesProgram() {
    }

    static int value(int r, int i) {
        return (r + 1) * 1_000_003 + i * 7;
    }

    static double dvalue(int r, int i) {
        return (r + 1) * 0.1 + i * 1e-3 + 1.0 / (r + 3);
    }

    static int[] contribution(int r, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = value(r, i);
        }
        return a;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        p = w.getSize();
        me = w.getRank();
        c = new Checks(me);
        c.run("barrier", () -> {
            w.barrier();
            w.iBarrier().waitFor();
            c.pass("barrier and iBarrier");
        });
        int[] counts = {0, 1, 100, 5000, 300_000};
        for (int n : counts) {
            c.run("bcast " + n, () -> bcast(w, n));
            c.run("reduce " + n, () -> reduce(w, n));
            c.run("allreduce " + n, () -> allreduce(w, n));
        }
        for (int n : new int[] {1, 100, 3000}) {
            c.run("gather/scatter " + n, () -> gatherScatter(w, n));
            c.run("allgather " + n, () -> allgather(w, n));
        }
        for (int n : new int[] {1, 50, 100, 20_000}) {
            c.run("alltoall " + n, () -> alltoall(w, n));
        }
        c.run("v and w variants", () -> vVariants(w));
        c.run("reduce-scatter and scans", () -> scans(w));
        c.run("reproducible doubles", () -> reproducible(w));
        for (int n : new int[] {1, 3000}) {
            c.run("allreduce rank order " + n, () -> allreduceOrder(w, n));
        }
        c.run("communicators", () -> communicators(w));
        c.run("intercommunicators", () -> intercomms(w));
        c.run("nonblocking overlap", () -> overlap(w));
        c.run("bad input", () -> badInput(w));
        int status = c.summary();
        MPI.Finalize();
        System.exit(status);
    }

    static void bcast(Intracomm w, int n) throws MPIException {
        for (int root = 0; root < p; root++) {
            int[] a = me == root ? contribution(root, n) : new int[n];
            w.bcast(a, n, MPI.INT, root);
            c.check("bcast n=" + n + " root=" + root, Arrays.equals(a, contribution(root, n)),
                    "wrong data");
        }
        IntBuffer b = MPI.newIntBuffer(n);
        if (me == 0) {
            b.put(contribution(0, n)).clear();
        }
        w.iBcast(b, n, MPI.INT, 0).waitFor();
        int[] got = new int[n];
        b.clear();
        b.get(got);
        c.check("iBcast direct n=" + n, Arrays.equals(got, contribution(0, n)), "wrong data");
    }

    static int[] sumOfAll(int n) {
        int[] s = new int[n];
        for (int r = 0; r < p; r++) {
            for (int i = 0; i < n; i++) {
                s[i] += value(r, i);
            }
        }
        return s;
    }

    static void reduce(Intracomm w, int n) throws MPIException {
        int root = n % p;
        int[] out = new int[n];
        w.reduce(contribution(me, n), out, n, MPI.INT, MPI.SUM, root);
        if (me == root) {
            c.check("reduce SUM n=" + n, Arrays.equals(out, sumOfAll(n)), "wrong sum");
        }
        int[] inPlace = contribution(me, n);
        w.reduce(inPlace, n, MPI.INT, MPI.SUM, root);
        if (me == root) {
            c.check("reduce in place n=" + n, Arrays.equals(inPlace, sumOfAll(n)), "wrong sum");
        }
    }

    static void allreduce(Intracomm w, int n) throws MPIException {
        int[] out = new int[n];
        w.allReduce(contribution(me, n), out, n, MPI.INT, MPI.SUM);
        c.check("allreduce SUM n=" + n, Arrays.equals(out, sumOfAll(n)), "wrong sum");
        int[] inPlace = contribution(me, n);
        w.allReduce(inPlace, n, MPI.INT, MPI.MAX);
        c.check("allreduce MAX in place n=" + n, Arrays.equals(inPlace, contribution(p - 1, n)),
                "wrong max");
        IntBuffer sb = MPI.newIntBuffer(n);
        IntBuffer rb = MPI.newIntBuffer(n);
        sb.put(contribution(me, n)).clear();
        w.iAllReduce(sb, rb, n, MPI.INT, MPI.SUM).waitFor();
        int[] got = new int[n];
        rb.clear();
        rb.get(got);
        c.check("iAllReduce direct n=" + n, Arrays.equals(got, sumOfAll(n)), "wrong sum");
    }

    static void gatherScatter(Intracomm w, int n) throws MPIException {
        for (int root = 0; root < p; root++) {
            int[] all = new int[n * p];
            w.gather(contribution(me, n), n, MPI.INT, all, n, MPI.INT, root);
            if (me == root) {
                c.check("gather n=" + n + " root=" + root, Arrays.equals(all, concat(n)), "wrong");
            }
            int[] inPlace = new int[n * p];
            if (me == root) {
                System.arraycopy(contribution(me, n), 0, inPlace, me * n, n);
                w.gather(inPlace, n, MPI.INT, root);
                c.check("gather in place n=" + n, Arrays.equals(inPlace, concat(n)), "wrong");
            } else {
                w.gather(contribution(me, n), n, MPI.INT, root);
            }
            int[] mine = new int[n];
            w.scatter(me == root ? concat(n) : null, n, MPI.INT, mine, n, MPI.INT, root);
            c.check("scatter n=" + n + " root=" + root, Arrays.equals(mine, contribution(me, n)),
                    "wrong");
            int[] buf = me == root ? concat(n) : new int[n];
            w.scatter(buf, n, MPI.INT, root);
            c.check("scatter in place n=" + n, me == root ? Arrays.equals(buf, concat(n))
                    : Arrays.equals(buf, contribution(me, n)), "wrong");
        }
    }

    static int[] concat(int n) {
        int[] all = new int[n * p];
        for (int r = 0; r < p; r++) {
            System.arraycopy(contribution(r, n), 0, all, r * n, n);
        }
        return all;
    }

    static void allgather(Intracomm w, int n) throws MPIException {
        int[] all = new int[n * p];
        w.allGather(contribution(me, n), n, MPI.INT, all, n, MPI.INT);
        c.check("allgather n=" + n, Arrays.equals(all, concat(n)), "wrong");
        int[] inPlace = new int[n * p];
        System.arraycopy(contribution(me, n), 0, inPlace, me * n, n);
        w.allGather(inPlace, n, MPI.INT);
        c.check("allgather in place n=" + n, Arrays.equals(inPlace, concat(n)), "wrong");
    }

    static int block(int from, int to, int i) {
        return from * 100_000 + to * 1000 + i;
    }

    static void alltoall(Intracomm w, int n) throws MPIException {
        int[] send = new int[n * p];
        int[] expect = new int[n * p];
        for (int q = 0; q < p; q++) {
            for (int i = 0; i < n; i++) {
                send[q * n + i] = block(me, q, i);
                expect[q * n + i] = block(q, me, i);
            }
        }
        int[] recv = new int[n * p];
        w.allToAll(send, n, MPI.INT, recv, n, MPI.INT);
        c.check("alltoall n=" + n, Arrays.equals(recv, expect), "wrong");
    }

    static void vVariants(Intracomm w) throws MPIException {
        int[] cnt = new int[p];
        int[] displs = new int[p];
        int total = 0;
        for (int r = 0; r < p; r++) {
            cnt[r] = r + 1;
            displs[r] = total + r; // gaps between blocks
            total += cnt[r] + r;
        }
        int[] all = new int[total];
        int root = p - 1;
        w.gatherv(contribution(me, me + 1), me + 1, MPI.INT, all, cnt, displs, MPI.INT, root);
        boolean ok = true;
        if (me == root) {
            for (int r = 0; r < p; r++) {
                ok &= Arrays.equals(Arrays.copyOfRange(all, displs[r], displs[r] + cnt[r]),
                        contribution(r, r + 1));
            }
            c.check("gatherv", ok, "wrong");
        }
        int[] back = new int[me + 1];
        w.scatterv(all, cnt, displs, MPI.INT, back, me + 1, MPI.INT, root);
        c.check("scatterv", Arrays.equals(back, contribution(me, me + 1)),
                "got " + Arrays.toString(back));
        int[] everyone = new int[total];
        w.allGatherv(contribution(me, me + 1), me + 1, MPI.INT, everyone, cnt, displs, MPI.INT);
        ok = true;
        for (int r = 0; r < p; r++) {
            ok &= Arrays.equals(Arrays.copyOfRange(everyone, displs[r], displs[r] + cnt[r]),
                    contribution(r, r + 1));
        }
        c.check("allgatherv", ok, "wrong");
        // alltoallv: rank a sends (a + b + 1) ints to rank b
        int[] sc = new int[p];
        int[] sd = new int[p];
        int[] rc = new int[p];
        int[] rd = new int[p];
        int st = 0;
        int rt = 0;
        for (int q = 0; q < p; q++) {
            sc[q] = me + q + 1;
            sd[q] = st;
            st += sc[q];
            rc[q] = q + me + 1;
            rd[q] = rt;
            rt += rc[q];
        }
        int[] sbuf = new int[st];
        for (int q = 0; q < p; q++) {
            for (int i = 0; i < sc[q]; i++) {
                sbuf[sd[q] + i] = block(me, q, i);
            }
        }
        int[] rbuf = new int[rt];
        w.allToAllv(sbuf, sc, sd, MPI.INT, rbuf, rc, rd, MPI.INT);
        ok = true;
        for (int q = 0; q < p; q++) {
            for (int i = 0; i < rc[q]; i++) {
                ok &= rbuf[rd[q] + i] == block(q, me, i);
            }
        }
        c.check("alltoallv", ok, "wrong");
        int[] bd = new int[p];
        int[] brd = new int[p];
        Datatype[] types = new Datatype[p];
        for (int q = 0; q < p; q++) {
            bd[q] = sd[q] * 4;
            brd[q] = rd[q] * 4;
            types[q] = MPI.INT;
        }
        int[] wbuf = new int[rt];
        w.allToAllw(sbuf, sc, bd, types, wbuf, rc, brd, types);
        c.check("alltoallw", Arrays.equals(wbuf, rbuf), "wrong");
    }

    static void scans(Intracomm w) throws MPIException {
        int n = 10;
        int[] rc = new int[p];
        Arrays.fill(rc, n);
        int[] mine = new int[n];
        w.reduceScatter(concatOf(me), mine, rc, MPI.INT, MPI.SUM);
        int[] expect = new int[n];
        for (int r = 0; r < p; r++) {
            for (int i = 0; i < n; i++) {
                expect[i] += value(r, me * n + i);
            }
        }
        c.check("reduceScatter", Arrays.equals(mine, expect), "got " + Arrays.toString(mine));
        int[] block = new int[n];
        w.reduceScatterBlock(concatOf(me), block, n, MPI.INT, MPI.SUM);
        c.check("reduceScatterBlock", Arrays.equals(block, expect), "wrong");
        int[] scan = new int[n];
        w.scan(contribution(me, n), scan, n, MPI.INT, MPI.SUM);
        int[] pre = new int[n];
        for (int r = 0; r <= me; r++) {
            for (int i = 0; i < n; i++) {
                pre[i] += value(r, i);
            }
        }
        c.check("scan", Arrays.equals(scan, pre), "wrong");
        int[] ex = new int[n];
        w.exScan(contribution(me, n), ex, n, MPI.INT, MPI.SUM);
        if (me > 0) {
            int[] pre2 = new int[n];
            for (int r = 0; r < me; r++) {
                for (int i = 0; i < n; i++) {
                    pre2[i] += value(r, i);
                }
            }
            c.check("exScan", Arrays.equals(ex, pre2), "wrong");
        }
    }

    static int[] concatOf(int r) {
        return contribution(r, 10 * p);
    }

    /**
     * A non-commutative user operation sees rank order (the result is rank 0's contribution for
     * "keep the left operand"), and MAXLOC keeps the lowest rank among equal values, blocking
     * (small and large vectors) and nonblocking alike.
     */
    static void allreduceOrder(Intracomm w, int n) throws MPIException {
        Op first = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                System.arraycopy(in, 0, inOut, 0, count);
            }
        }, false);
        int[] out = new int[n];
        w.allReduce(contribution(me, n), out, n, MPI.INT, first);
        c.check("allreduce non-commutative n=" + n, Arrays.equals(out, contribution(0, n)),
                "not rank 0's values");
        IntBuffer sb = MPI.newIntBuffer(n);
        IntBuffer rb = MPI.newIntBuffer(n);
        sb.put(contribution(me, n)).clear();
        w.iAllReduce(sb, rb, n, MPI.INT, first).waitFor();
        int[] nb = new int[n];
        rb.clear();
        rb.get(nb);
        c.check("iAllreduce non-commutative n=" + n, Arrays.equals(nb, contribution(0, n)),
                "not rank 0's values");
        first.free();
        byte[] pairs = new byte[8 * n]; // MPI_2INT pairs in native order, as Open MPI's bindings
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(pairs).order(java.nio.ByteOrder.nativeOrder());
        for (int i = 0; i < n; i++) {
            in.putInt(8 * i, i % 2 == 0 ? 5 : me); // even: all equal, odd: the highest rank wins
            in.putInt(8 * i + 4, me);
        }
        byte[] loc = new byte[8 * n];
        w.allReduce(pairs, loc, n, MPI.INT2, MPI.MAXLOC);
        java.nio.ByteBuffer got = java.nio.ByteBuffer.wrap(loc).order(java.nio.ByteOrder.nativeOrder());
        boolean ok = true;
        for (int i = 0; i < n; i++) {
            ok &= got.getInt(8 * i) == (i % 2 == 0 ? 5 : p - 1)
                    && got.getInt(8 * i + 4) == (i % 2 == 0 ? 0 : p - 1);
        }
        c.check("allreduce MAXLOC INT2 n=" + n, ok, "wrong value or index");
    }

    /** Allreduce of doubles gives the same bits as reduce + bcast, whatever the size class. */
    static void reproducible(Intracomm w) throws MPIException {
        for (int n : new int[] {3, 40_000}) {
            double[] in = new double[n];
            for (int i = 0; i < n; i++) {
                in[i] = dvalue(me, i);
            }
            double[] a = new double[n];
            w.allReduce(in, a, n, MPI.DOUBLE, MPI.SUM);
            double[] b = new double[n];
            w.reduce(in, b, n, MPI.DOUBLE, MPI.SUM, 0);
            w.bcast(b, n, MPI.DOUBLE, 0);
            c.check("allreduce bits == reduce+bcast bits n=" + n, Arrays.equals(a, b), "differ");
            double[] again = new double[n];
            w.allReduce(in, again, n, MPI.DOUBLE, MPI.SUM);
            c.check("allreduce run to run n=" + n, Arrays.equals(a, again), "differ");
            double ref = 0;
            for (int r = 0; r < p; r++) {
                ref += dvalue(r, n - 1);
            }
            c.check("allreduce double close to reference n=" + n,
                    Math.abs(a[n - 1] - ref) < 1e-9 * Math.abs(ref), a[n - 1] + " vs " + ref);
        }
    }

    static void communicators(Intracomm w) throws MPIException {
        Intracomm half = w.split(me % 2, -me);
        int size = (p + 1 - me % 2) / 2;
        c.equal("split size", size, half.getSize());
        int[] ranks = new int[1];
        half.allGather(new int[] {me}, 1, MPI.INT, ranks = new int[size], 1, MPI.INT);
        boolean descending = true;
        for (int i = 1; i < size; i++) {
            descending &= ranks[i - 1] > ranks[i];
        }
        c.check("split orders by key (descending world rank)", descending, Arrays.toString(ranks));
        int[] sum = new int[1];
        half.allReduce(new int[] {me}, sum, 1, MPI.INT, MPI.SUM);
        int expect = 0;
        for (int r = me % 2; r < p; r += 2) {
            expect += r;
        }
        c.equal("allreduce on split comm", expect, sum[0]);
        Intracomm none = w.split(me == 0 ? MPI.UNDEFINED : 1, 0);
        c.check("split with UNDEFINED", me == 0 ? none.isNull() : none.getSize() == p - 1, "");
        Intracomm local = w.splitType(Comm.TYPE_SHARED, 0, null);
        int[] hostHashes = new int[p];
        w.allGather(new int[] {MPI.getProcessorName().hashCode()}, 1, MPI.INT, hostHashes, 1, MPI.INT);
        int sameHost = 0;
        for (int h : hostHashes) {
            sameHost += h == hostHashes[me] ? 1 : 0;
        }
        c.equal("distinct hosts (-Dverbatim.test.hosts)", (long) Integer.getInteger("verbatim.test.hosts", 1),
                java.util.Arrays.stream(hostHashes).distinct().count());
        c.equal("splitType TYPE_SHARED: the ranks on this host", sameHost, local.getSize());
        Group g = w.getGroup().incl(new int[] {0});
        Intracomm only0 = w.create(g);
        c.check("create", me == 0 ? only0.getSize() == 1 : only0.isNull(), "");
        if (me == 0) {
            Intracomm g0 = w.createGroup(g, 5);
            c.equal("createGroup", 1, g0.getSize());
        }
        Intracomm d = w.dup();
        c.equal("dup compare", MPI.CONGRUENT, Comm.compare(w, d));
        int[] x = {me};
        d.bcast(x, 1, MPI.INT, 0);
        c.equal("bcast on dup", 0, x[0]);
        d.free();
        half.free();
    }

    static void intercomms(Intracomm w) throws MPIException {
        if (p < 2) {
            return;
        }
        int colour = me < p / 2 ? 0 : 1;
        Intracomm local = w.split(colour, me);
        int remoteLeader = colour == 0 ? p / 2 : 0;
        Intercomm inter = w.createIntercomm(local, 0, remoteLeader, 77);
        int remoteSize = colour == 0 ? p - p / 2 : p / 2;
        c.equal("intercomm remote size", remoteSize, inter.getRemoteSize());
        c.check("isInter", inter.isInter(), "");
        int[] sum = new int[1];
        inter.allReduce(new int[] {me}, sum, 1, MPI.INT, MPI.SUM);
        int expect = 0;
        for (int r = 0; r < p; r++) {
            if ((r < p / 2 ? 0 : 1) != colour) {
                expect += r;
            }
        }
        c.equal("intercomm allreduce gives the other group's sum", expect, sum[0]);
        int[] v = {colour == 0 && local.getRank() == 0 ? 4242 : 0};
        if (colour == 0) {
            inter.bcast(v, 1, MPI.INT, local.getRank() == 0 ? MPI.ROOT : MPI.PROC_NULL);
        } else {
            inter.bcast(v, 1, MPI.INT, 0);
            c.equal("intercomm bcast", 4242, v[0]);
        }
        inter.barrier();
        int[] peer = new int[1];
        if (local.getRank() == 0) {
            inter.sendRecv(new int[] {me}, 1, MPI.INT, 0, 3, peer, 1, MPI.INT, 0, 3);
            c.equal("intercomm p2p between leaders", remoteLeader, peer[0]);
        }
        interRooted(inter, local, colour, remoteSize);
        Intracomm merged = inter.merge(colour == 1);
        c.equal("merge size", p, merged.getSize());
        c.equal("merge order (low group first)", me, merged.getRank());
        int[] all = new int[1];
        merged.allReduce(new int[] {1}, all, 1, MPI.INT, MPI.SUM);
        c.equal("allreduce on merged", p, all[0]);
    }

    /** Rooted and vector collectives across the two groups; group 0's local rank 0 is the root. */
    static void interRooted(Intercomm inter, Intracomm local, int colour, int remoteSize)
            throws MPIException {
        int lr = local.getRank();
        int ls = local.getSize();
        boolean rootGroup = colour == 0;
        int rootArg = rootGroup ? (lr == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
        // gather: the root gets every remote rank's block
        int[] got = new int[2 * remoteSize];
        inter.gather(new int[] {me, me * 2}, 2, MPI.INT, got, 2, MPI.INT, rootArg);
        if (rootGroup && lr == 0) {
            boolean ok = true;
            for (int j = 0; j < remoteSize; j++) {
                int world = p / 2 + j;
                ok &= got[2 * j] == world && got[2 * j + 1] == world * 2;
            }
            c.check("intercomm gather", ok, Arrays.toString(got));
        }
        // scatter from the root to the remote group
        int[] all = new int[remoteSize];
        for (int j = 0; j < remoteSize; j++) {
            all[j] = 500 + j;
        }
        int[] one = new int[1];
        inter.scatter(all, 1, MPI.INT, one, 1, MPI.INT, rootArg);
        if (!rootGroup) {
            c.equal("intercomm scatter", 500 + lr, one[0]);
        }
        // reduce: the root gets the sum over the remote group
        int[] sum = new int[1];
        inter.reduce(new int[] {me}, sum, 1, MPI.INT, MPI.SUM, rootArg);
        if (rootGroup && lr == 0) {
            int expect = 0;
            for (int r = p / 2; r < p; r++) {
                expect += r;
            }
            c.equal("intercomm reduce", expect, sum[0]);
        }
        // allgatherv: every rank gets each remote rank's (j+1) ints
        int[] cnt = new int[remoteSize];
        int[] displs = new int[remoteSize];
        int total = 0;
        for (int j = 0; j < remoteSize; j++) {
            cnt[j] = j + 1;
            displs[j] = total;
            total += j + 1;
        }
        int[] av = new int[total];
        inter.allGatherv(contribution(me, lr + 1), lr + 1, MPI.INT, av, cnt, displs, MPI.INT);
        boolean ok = true;
        int remoteBase = rootGroup ? p / 2 : 0;
        for (int j = 0; j < remoteSize; j++) {
            ok &= Arrays.equals(Arrays.copyOfRange(av, displs[j], displs[j] + cnt[j]),
                    contribution(remoteBase + j, j + 1));
        }
        c.check("intercomm allgatherv", ok, Arrays.toString(av));
        // alltoall across the groups
        int[] a2a = new int[remoteSize];
        int[] mine = new int[remoteSize];
        for (int j = 0; j < remoteSize; j++) {
            mine[j] = block(me, remoteBase + j, 0);
        }
        inter.allToAll(mine, 1, MPI.INT, a2a, 1, MPI.INT);
        ok = true;
        for (int j = 0; j < remoteSize; j++) {
            ok &= a2a[j] == block(remoteBase + j, me, 0);
        }
        c.check("intercomm alltoall", ok, Arrays.toString(a2a));
        // reduce-scatter: my group's vectors (sum of the remote counts long) scatter over the remote group
        int[] myCounts = new int[ls];
        Arrays.fill(myCounts, 2);
        int[] piece = new int[2];
        inter.reduceScatter(contribution(me, 2 * remoteSize), piece, myCounts, MPI.INT, MPI.SUM);
        int[] expect = new int[2];
        int otherBase = rootGroup ? p / 2 : 0;
        for (int r = otherBase; r < otherBase + remoteSize; r++) {
            for (int i = 0; i < 2; i++) {
                expect[i] += value(r, 2 * lr + i);
            }
        }
        c.check("intercomm reduceScatter", Arrays.equals(piece, expect),
                Arrays.toString(piece) + " vs " + Arrays.toString(expect));
    }

    static void overlap(Intracomm w) throws MPIException {
        int n = 1000;
        DoubleBuffer in = MPI.newDoubleBuffer(n);
        DoubleBuffer out = MPI.newDoubleBuffer(n);
        for (int i = 0; i < n; i++) {
            in.put(i, me + i);
        }
        Request coll = w.iAllReduce(in, out, n, MPI.DOUBLE, MPI.SUM);
        int right = (me + 1) % p;
        int left = (me - 1 + p) % p;
        int[] token = new int[1];
        for (int k = 0; k < 20; k++) {
            w.sendRecv(new int[] {me * 100 + k}, 1, MPI.INT, right, k, token, 1, MPI.INT, left, k);
        }
        c.equal("p2p during iAllReduce", left * 100 + 19, token[0]);
        Request b = w.iBarrier();
        coll.waitFor();
        b.waitFor();
        double expect = 0;
        for (int r = 0; r < p; r++) {
            expect += r + (n - 1);
        }
        c.check("iAllReduce overlapped with p2p", out.get(n - 1) == expect, out.get(n - 1) + "");
    }

    static void badInput(Intracomm w) throws MPIException {
        int[] a = new int[4];
        c.expectError("bcast invalid root", MPI.ERR_ROOT, "MPI_Bcast",
                () -> w.bcast(a, 1, MPI.INT, p));
        c.expectError("reduce negative count", MPI.ERR_COUNT, "MPI_Reduce",
                () -> w.reduce(a, new int[4], -1, MPI.INT, MPI.SUM, 0));
        c.expectError("allreduce null op", MPI.ERR_OP, "MPI_Allreduce",
                () -> w.allReduce(a, new int[4], 1, MPI.INT, null));
        c.expectError("allreduce BAND on DOUBLE", MPI.ERR_OP, "MPI_Allreduce",
                () -> w.allReduce(new double[1], new double[1], 1, MPI.DOUBLE, MPI.BAND));
        c.expectError("gather null receive buffer at root", MPI.ERR_BUFFER, "MPI_Gather",
                () -> w.gather(a, 1, MPI.INT, null, 1, MPI.INT, me));
        Intracomm d = w.dup();
        d.setErrhandler(MPI.ERRORS_RETURN);
        d.free();
        c.expectError("collective on freed communicator", MPI.ERR_COMM, "MPI_Barrier", d::barrier);
        w.barrier();
    }
}
