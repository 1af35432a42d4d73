package org.verbatim.mpitests;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.List;
import mpi.CartComm;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * Derived types through the collectives whose receive buffers are not written whole: v-variants
 * with holes between the blocks, the in-place forms (the block a rank keeps, the tail an
 * in-place reduce-scatter leaves), neighbours that are PROC_NULL (a non-periodic ring), the
 * rooted and v collectives of an inter-communicator, and nonblocking forms. A vector, an indexed
 * type and a struct with gaps; every receive buffer is checked int by int: data where the type
 * maps say, and every other int (the types' gaps, the holes, the blocks nobody writes) as it was.
 */
public final class DatatypeGapsProgram {
    private static final int COUNT = 2;
    private final Checks c;
    private final Intracomm world = MPI.COMM_WORLD;
    private final int rank;
    private final int size;

    private DatatypeGapsProgram(Checks c, int rank, int size) {
        this.c = c;
        this.rank = rank;
        this.size = size;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Checks c = new Checks(rank);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        DatatypeGapsProgram p = new DatatypeGapsProgram(c, rank, size);
        for (DatatypeCases.Case t : cases(rank, size)) {
            c.run(t.name() + " holes", () -> p.holes(t));
            c.run(t.name() + " in place", () -> p.inPlace(t));
            c.run(t.name() + " PROC_NULL neighbours", () -> p.neighbours(t));
            c.run(t.name() + " inter-communicator", () -> p.inter(t));
        }
        int status = c.summary();
        MPI.Finalize();
        System.exit(status);
    }

    /** A vector, an indexed type, and a struct of ints with gaps (ints 0, 3, 4; extent 6). */
    private static List<DatatypeCases.Case> cases(int rank, int size) throws Exception {
        List<DatatypeCases.Case> picked = new java.util.ArrayList<>();
        for (DatatypeCases.Case t : DatatypeCases.all(rank, size)) {
            if (t.name().equals("vector(4,2,5)") || t.name().equals("indexed")) {
                picked.add(t);
            }
        }
        Datatype struct = Datatype.createResized(Datatype.createStruct(new int[] {1, 2},
                new int[] {0, 12}, new Datatype[] {MPI.INT, MPI.INT}), 0, 24);
        struct.commit();
        picked.add(new DatatypeCases.Case("struct with gaps", struct, new int[] {0, 3, 4}, 6));
        return picked;
    }

    /** Block i of n at element (n - 1 - i) * (COUNT + 1): reversed, a one-element hole between. */
    private static int[] holes(int n) {
        int[] d = new int[n];
        for (int i = 0; i < n; i++) {
            d[i] = (n - 1 - i) * (COUNT + 1);
        }
        return d;
    }

    private static int[] counts(int n) {
        int[] k = new int[n];
        Arrays.fill(k, COUNT);
        return k;
    }

    private static void place(int[] into, DatatypeCases.Case t, int from, int to, int sender, int n) {
        for (int k = 0; k < n; k++) {
            into[t.index(to + k)] = DatatypeCases.value(sender, t.index(from + k));
        }
    }

    private void same(String name, int[] want, int[] got) {
        c.check(name, Arrays.equals(want, got), DatatypeCases.diff(want, got));
    }

    private static int[] get(IntBuffer b) {
        int[] a = new int[b.capacity()];
        b.get(0, a);
        return a;
    }

    private static IntBuffer direct(int[] a) {
        return MPI.newIntBuffer(a.length).put(0, a);
    }

    private void holes(DatatypeCases.Case t) throws Exception {
        Datatype T = t.type();
        int m = t.map().length;
        int ints = t.ints(COUNT);
        int len = t.span(COUNT);
        int[] counts = counts(size);
        int[] displs = holes(size);
        int all = t.span(displs[0] + COUNT);
        int root = size - 1;
        int[] send = DatatypeCases.sendBuffer(rank, len);
        int[] gathered = DatatypeCases.sentinels(all);
        for (int r = 0; r < size; r++) {
            place(gathered, t, 0, displs[r] * m, r, ints);
        }
        int[] g = DatatypeCases.sentinels(all);
        world.gatherv(send, COUNT, T, g, counts, displs, T, root);
        if (rank == root) {
            same(t.name() + " gatherv", gathered, g);
        }
        IntBuffer gb = direct(DatatypeCases.sentinels(all));
        world.iGatherv(direct(send), COUNT, T, gb, counts, displs, T, root).waitFor();
        if (rank == root) {
            same(t.name() + " iGatherv", gathered, get(gb));
        }
        int[] ag = DatatypeCases.sentinels(all);
        world.allGatherv(send, COUNT, T, ag, counts, displs, T);
        same(t.name() + " allGatherv", gathered, ag);
        // scatterv from the root's holes: rank r gets the root's block at displs[r]
        int[] rootBuf = DatatypeCases.sendBuffer(root, all);
        int[] mine = DatatypeCases.sentinels(len);
        place(mine, t, displs[rank] * m, 0, root, ints);
        int[] sv = DatatypeCases.sentinels(len);
        world.scatterv(rootBuf, counts, displs, T, sv, COUNT, T, root);
        same(t.name() + " scatterv", mine, sv);
        IntBuffer svb = direct(DatatypeCases.sentinels(len));
        world.iScatterv(direct(rootBuf), counts, displs, T, svb, COUNT, T, root).waitFor();
        same(t.name() + " iScatterv", mine, get(svb));
        // allToAllv with holes on both sides: my block at displs[j] goes to rank j
        int[] mine2 = DatatypeCases.sendBuffer(rank, all);
        int[] want = DatatypeCases.sentinels(all);
        for (int r = 0; r < size; r++) {
            place(want, t, displs[rank] * m, displs[r] * m, r, ints);
        }
        int[] a2av = DatatypeCases.sentinels(all);
        world.allToAllv(mine2, counts, displs, T, a2av, counts, displs, T);
        same(t.name() + " allToAllv", want, a2av);
        IntBuffer a2avb = direct(DatatypeCases.sentinels(all));
        world.iAllToAllv(direct(mine2), counts, displs, T, a2avb, counts, displs, T).waitFor();
        same(t.name() + " iAllToAllv", want, get(a2avb));
    }

    private void inPlace(DatatypeCases.Case t) throws Exception {
        Datatype T = t.type();
        int m = t.map().length;
        int ints = t.ints(COUNT);
        int len = t.span(COUNT);
        int[] counts = counts(size);
        int[] displs = holes(size);
        int all = t.span(displs[0] + COUNT);
        int root = 0;
        int[] send = DatatypeCases.sendBuffer(rank, len);
        // gatherv in place: the root's own block stays, the holes and gaps keep its values
        int[] g = rank == root ? DatatypeCases.sendBuffer(root, all) : send.clone();
        if (rank == root) {
            world.gatherv(g, counts, displs, T, root);
            int[] w = DatatypeCases.sendBuffer(root, all);
            for (int r = 0; r < size; r++) {
                if (r != root) {
                    place(w, t, 0, displs[r] * m, r, ints);
                }
            }
            same(t.name() + " gatherv in place", w, g);
        } else {
            world.gatherv(g, COUNT, T, root);
        }
        // allGatherv in place: own block (the values the others expect) read from the buffer
        int[] ip = DatatypeCases.sendBuffer(rank, all);
        place(ip, t, 0, displs[rank] * m, rank, ints);
        int[] w = DatatypeCases.sendBuffer(rank, all);
        for (int r = 0; r < size; r++) {
            place(w, t, 0, displs[r] * m, r, ints);
        }
        IntBuffer ipb = direct(ip);
        world.allGatherv(ip, counts, displs, T);
        same(t.name() + " allGatherv in place", w, ip);
        world.iAllGatherv(ipb, counts, displs, T).waitFor();
        same(t.name() + " iAllGatherv in place", w, get(ipb));
        // scatterv in place: the root's buffer is only read
        int[] rootBuf = DatatypeCases.sendBuffer(root, all);
        if (rank == root) {
            world.scatterv(rootBuf, counts, displs, T, root);
            same(t.name() + " scatterv in place (root)", DatatypeCases.sendBuffer(root, all),
                    rootBuf);
        } else {
            int[] sv = DatatypeCases.sentinels(len);
            world.scatterv(sv, COUNT, T, root);
            int[] ws = DatatypeCases.sentinels(len);
            place(ws, t, displs[rank] * m, 0, root, ints);
            same(t.name() + " scatterv in place", ws, sv);
        }
        // reductions in place: the layout's ints combined, its gaps keep this rank's values
        int[] rd = send.clone();
        if (rank == root) {
            world.reduce(rd, COUNT, T, MPI.SUM, root);
            same(t.name() + " reduce in place", summed(t, send, size, 0), rd);
        } else {
            world.reduce(rd, COUNT, T, MPI.SUM, root);
        }
        int[] sc = send.clone();
        world.scan(sc, COUNT, T, MPI.SUM);
        same(t.name() + " scan in place", summed(t, send, rank + 1, 0), sc);
        IntBuffer ex = direct(send);
        world.iExScan(ex, COUNT, T, MPI.SUM).waitFor();
        same(t.name() + " iExScan in place", rank == 0 ? send : summed(t, send, rank, 0), get(ex));
        // reduce-scatter in place: the first block is the result, the rest is as it was
        int[] big = DatatypeCases.sendBuffer(rank, t.span(COUNT * size));
        int[] wr = big.clone();
        for (int k = 0; k < ints; k++) {
            int v = 0;
            for (int r = 0; r < size; r++) {
                v += DatatypeCases.value(r, t.index(rank * ints + k));
            }
            wr[t.index(k)] = v;
        }
        world.reduceScatter(big, counts, T, MPI.SUM);
        same(t.name() + " reduceScatter in place", wr, big);
    }

    /**
     * {@code mine} with the layout's ints (COUNT elements) replaced by the sum over ranks
     * {@code first..first+n-1} of their send values.
     */
    private static int[] summed(DatatypeCases.Case t, int[] mine, int n, int first) {
        int[] w = mine.clone();
        for (int k = 0; k < t.ints(COUNT); k++) {
            int idx = t.index(k);
            int v = 0;
            for (int r = first; r < first + n; r++) {
                v += DatatypeCases.value(r, idx);
            }
            w[idx] = v;
        }
        return w;
    }

    /** A non-periodic ring: rank 0 has no left neighbour, the last rank no right one. */
    private void neighbours(DatatypeCases.Case t) throws Exception {
        Datatype T = t.type();
        int m = t.map().length;
        int ints = t.ints(COUNT);
        int left = rank - 1;
        int right = rank + 1 < size ? rank + 1 : -1;
        CartComm line = world.createCart(new int[] {size}, new boolean[] {false}, false);
        int[] send = DatatypeCases.sendBuffer(rank, t.span(2 * COUNT + 1));
        // allGather: block 0 from the left, block 1 from the right; a PROC_NULL's stays as it was
        int[] w = DatatypeCases.sentinels(t.span(2 * COUNT));
        if (left >= 0) {
            place(w, t, 0, 0, left, ints);
        }
        if (right >= 0) {
            place(w, t, 0, ints, right, ints);
        }
        int[] nb = DatatypeCases.sentinels(t.span(2 * COUNT));
        line.neighborAllGather(send, COUNT, T, nb, COUNT, T);
        same(t.name() + " neighborAllGather", w, nb);
        IntBuffer nbb = direct(DatatypeCases.sentinels(t.span(2 * COUNT)));
        line.iNeighborAllGather(direct(send), COUNT, T, nbb, COUNT, T).waitFor();
        same(t.name() + " iNeighborAllGather", w, get(nbb));
        // allGatherv: block 0 at element COUNT + 1, block 1 at 0 (a hole between)
        int[] vd = {COUNT + 1, 0};
        int vlen = t.span(2 * COUNT + 1);
        int[] wv = DatatypeCases.sentinels(vlen);
        if (left >= 0) {
            place(wv, t, 0, vd[0] * m, left, ints);
        }
        if (right >= 0) {
            place(wv, t, 0, vd[1] * m, right, ints);
        }
        int[] nv = DatatypeCases.sentinels(vlen);
        line.neighborAllGatherv(send, COUNT, T, nv, counts(2), vd, T);
        same(t.name() + " neighborAllGatherv", wv, nv);
        // allToAll: my block 0 goes left, block 1 right
        int[] wa = DatatypeCases.sentinels(t.span(2 * COUNT));
        if (left >= 0) {
            place(wa, t, ints, 0, left, ints);
        }
        if (right >= 0) {
            place(wa, t, 0, ints, right, ints);
        }
        int[] na = DatatypeCases.sentinels(t.span(2 * COUNT));
        line.neighborAllToAll(send, COUNT, T, na, COUNT, T);
        same(t.name() + " neighborAllToAll", wa, na);
        // allToAllv with the blocks at vd on both sides
        int[] wav = DatatypeCases.sentinels(vlen);
        if (left >= 0) {
            place(wav, t, vd[1] * m, vd[0] * m, left, ints);
        }
        if (right >= 0) {
            place(wav, t, vd[0] * m, vd[1] * m, right, ints);
        }
        int[] nav = DatatypeCases.sentinels(vlen);
        line.neighborAllToAllv(send, counts(2), vd, T, nav, counts(2), vd, T);
        same(t.name() + " neighborAllToAllv", wav, nav);
        line.free();
    }

    /**
     * Across an inter-communicator of the even (group A, root: world rank 0) and the odd world
     * ranks (group B): bcast, gatherv and scatterv with holes, reduce, allGatherv with holes,
     * allToAll(v); A's other ranks (PROC_NULL) must see their buffers untouched.
     */
    private void inter(DatatypeCases.Case t) throws Exception {
        Datatype T = t.type();
        int m = t.map().length;
        int ints = t.ints(COUNT);
        int colour = rank % 2;
        Intracomm local = world.split(colour, rank);
        Intercomm inter = world.createIntercomm(local, 0, 1 - colour, 78);
        int q = inter.getRemoteSize();
        int me = inter.getRank();
        int role = colour == 1 ? 0 : me == 0 ? MPI.ROOT : MPI.PROC_NULL;
        int len = t.span(COUNT);
        int[] send = DatatypeCases.sendBuffer(rank, len);
        int[] qd = holes(q);
        int qall = t.span(qd[0] + COUNT);
        // bcast from world rank 0 to group B
        int[] b = colour == 0 ? send.clone() : DatatypeCases.sentinels(len);
        inter.bcast(b, COUNT, T, role);
        same(t.name() + " inter bcast", colour == 0 ? send
                : DatatypeCases.expected(t, t, 0, COUNT, len, 0), b);
        // gatherv: the root gathers group B's blocks at holes(q)
        int[] g = DatatypeCases.sentinels(qall);
        inter.gatherv(send, COUNT, T, g, counts(q), qd, T, role);
        int[] wg = DatatypeCases.sentinels(qall);
        if (role == MPI.ROOT) {
            for (int j = 0; j < q; j++) {
                place(wg, t, 0, qd[j] * m, 2 * j + 1, ints);
            }
        }
        same(t.name() + " inter gatherv", wg, g);
        // scatterv: B's rank j gets the root's block at qd[j]
        int[] rootBuf = colour == 0 ? DatatypeCases.sendBuffer(rank, qall) : null;
        int[] s = DatatypeCases.sentinels(len);
        inter.scatterv(rootBuf, counts(q), qd, T, s, COUNT, T, role);
        int[] ws = DatatypeCases.sentinels(len);
        if (colour == 1) {
            place(ws, t, holes(inter.getSize())[me] * m, 0, 0, ints);
        }
        same(t.name() + " inter scatterv", ws, s);
        // reduce: the root gets group B's sum
        int[] rd = DatatypeCases.sentinels(len);
        inter.reduce(send, rd, COUNT, T, MPI.SUM, role);
        int[] wr = DatatypeCases.sentinels(len);
        if (role == MPI.ROOT) {
            for (int k = 0; k < ints; k++) {
                int v = 0;
                for (int j = 0; j < q; j++) {
                    v += DatatypeCases.value(2 * j + 1, t.index(k));
                }
                wr[t.index(k)] = v;
            }
        }
        same(t.name() + " inter reduce", wr, rd);
        // allGatherv: every rank gets the remote group's blocks at holes(q)
        int[] ag = DatatypeCases.sentinels(qall);
        inter.allGatherv(send, COUNT, T, ag, counts(q), qd, T);
        int[] wa = DatatypeCases.sentinels(qall);
        for (int j = 0; j < q; j++) {
            place(wa, t, 0, qd[j] * m, 2 * j + (1 - colour), ints);
        }
        same(t.name() + " inter allGatherv", wa, ag);
        // allToAllv: my block at qd[j] to remote rank j; remote rank j's block for me lands at qd[j]
        int[] a2aSend = DatatypeCases.sendBuffer(rank, qall);
        int[] a2a = DatatypeCases.sentinels(qall);
        IntBuffer a2ab = direct(a2a);
        Request r = inter.iAllToAllv(direct(a2aSend), counts(q), qd, T, a2ab, counts(q), qd, T);
        r.waitFor();
        int[] theirs = holes(inter.getSize());
        int[] wv = DatatypeCases.sentinels(qall);
        for (int j = 0; j < q; j++) {
            place(wv, t, theirs[me] * m, qd[j] * m, 2 * j + (1 - colour), ints);
        }
        inter.allToAllv(a2aSend, counts(q), qd, T, a2a, counts(q), qd, T);
        same(t.name() + " inter iAllToAllv", wv, get(a2ab));
        same(t.name() + " inter allToAllv", wv, a2a);
        inter.free();
        local.free();
    }
}
