package org.verbatim.mpitests;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntBinaryOperator;
import mpi.CartComm;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * Derived datatypes through every collective (rooted, all-to-all, v and w variants, in-place
 * forms, nonblocking ones) and the reductions (SUM, MAX on types made of MPI.INT), every
 * constructor of {@link DatatypeCases}; each receive buffer is checked int by int, gaps
 * included, against the hand-written type maps.
 */
public final class DatatypeCollectivesProgram {
    private static final int COUNT = 2;
    private final Checks c;
    private final Intracomm world = MPI.COMM_WORLD;
    private final int rank;
    private final int size;

    private DatatypeCollectivesProgram(Checks c, int rank, int size) {
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
        DatatypeCollectivesProgram p = new DatatypeCollectivesProgram(c, rank, size);
        List<DatatypeCases.Case> cases = DatatypeCases.all(rank, size);
        for (DatatypeCases.Case t : cases) {
            if (t.name().equals("darray")) {
                continue; // its map differs per rank: point-to-point covers it
            }
            c.run(t.name() + " rooted", () -> p.rooted(t));
            c.run(t.name() + " all", () -> p.all(t));
            c.run(t.name() + " reductions", () -> p.reductions(t));
            c.run(t.name() + " more", () -> p.more(t));
            c.run(t.name() + " inter-communicator", () -> p.inter(t));
        }
        int status = c.summary();
        MPI.Finalize();
        System.exit(status);
    }

    /**
     * Writes into {@code into} the {@code n} packed ints that start at packed int {@code from}
     * of {@code sender}'s buffer under {@code send}, at packed int {@code to} under {@code recv}.
     */
    private static void place(int[] into, DatatypeCases.Case send, int from, DatatypeCases.Case recv,
                              int to, int sender, int n) {
        for (int k = 0; k < n; k++) {
            into[recv.index(to + k)] = DatatypeCases.value(sender, send.index(from + k));
        }
    }

    private void same(String name, int[] want, int[] got) {
        c.check(name, Arrays.equals(want, got), DatatypeCases.diff(want, got));
    }

    private void rooted(DatatypeCases.Case t) throws Exception {
        Datatype T = t.type();
        int ints = t.ints(COUNT);
        int root = 1 % size;
        // bcast
        int len = t.span(COUNT);
        int[] b = rank == root ? DatatypeCases.sendBuffer(root, len) : DatatypeCases.sentinels(len);
        world.bcast(b, COUNT, T, root);
        int[] want = rank == root ? DatatypeCases.sendBuffer(root, len)
                : DatatypeCases.expected(t, t, root, COUNT, len, 0);
        same(t.name() + " bcast", want, b);
        // nonblocking bcast from a direct buffer
        IntBuffer nb = MPI.newIntBuffer(len).put(0, rank == root ? DatatypeCases.sendBuffer(root, len)
                : DatatypeCases.sentinels(len));
        world.iBcast(nb, COUNT, T, root).waitFor();
        int[] got = new int[len];
        nb.get(0, got);
        same(t.name() + " iBcast", want, got);
        // gather and gatherv (blocks in reverse rank order)
        int[] send = DatatypeCases.sendBuffer(rank, len);
        int all = t.span(COUNT * size);
        int[] g = DatatypeCases.sentinels(all);
        world.gather(send, COUNT, T, g, COUNT, T, root);
        if (rank == root) {
            int[] w = DatatypeCases.sentinels(all);
            for (int r = 0; r < size; r++) {
                place(w, t, 0, t, r * ints, r, ints);
            }
            same(t.name() + " gather", w, g);
        }
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = COUNT;
            displs[r] = (size - 1 - r) * COUNT;
        }
        int[] gv = DatatypeCases.sentinels(all);
        world.gatherv(send, COUNT, T, gv, counts, displs, T, root);
        if (rank == root) {
            int[] w = DatatypeCases.sentinels(all);
            for (int r = 0; r < size; r++) {
                place(w, t, 0, t, displs[r] * t.map().length, r, ints);
            }
            same(t.name() + " gatherv", w, gv);
        }
        // scatter and scatterv: rank r gets the root's block r (or displs[r])
        int[] rootBuf = DatatypeCases.sendBuffer(root, all);
        int[] s = DatatypeCases.sentinels(len);
        world.scatter(rootBuf, COUNT, T, s, COUNT, T, root);
        int[] w = DatatypeCases.sentinels(len);
        place(w, t, rank * ints, t, 0, root, ints);
        same(t.name() + " scatter", w, s);
        int[] sv = DatatypeCases.sentinels(len);
        world.scatterv(rootBuf, counts, displs, T, sv, COUNT, T, root);
        w = DatatypeCases.sentinels(len);
        place(w, t, displs[rank] * t.map().length, t, 0, root, ints);
        same(t.name() + " scatterv", w, sv);
    }

    private void all(DatatypeCases.Case t) throws Exception {
        Datatype T = t.type();
        int ints = t.ints(COUNT);
        int len = t.span(COUNT);
        int all = t.span(COUNT * size);
        int[] send = DatatypeCases.sendBuffer(rank, len);
        // allGather, and in place (own block already there, the gaps hold own values)
        int[] ag = DatatypeCases.sentinels(all);
        world.allGather(send, COUNT, T, ag, COUNT, T);
        int[] w = DatatypeCases.sentinels(all);
        for (int r = 0; r < size; r++) {
            place(w, t, 0, t, r * ints, r, ints);
        }
        same(t.name() + " allGather", w, ag);
        int[] ip = DatatypeCases.sendBuffer(rank, all);
        for (int k = 0; k < ints; k++) { // own block: the values it would have sent
            ip[t.index(rank * ints + k)] = DatatypeCases.value(rank, t.index(k));
        }
        world.allGather(ip, COUNT, T);
        int[] wip = DatatypeCases.sendBuffer(rank, all);
        for (int r = 0; r < size; r++) {
            place(wip, t, 0, t, r * ints, r, ints);
        }
        same(t.name() + " allGather in place", wip, ip);
        // allGatherv, reversed blocks
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = COUNT;
            displs[r] = (size - 1 - r) * COUNT;
        }
        int[] agv = DatatypeCases.sentinels(all);
        world.allGatherv(send, COUNT, T, agv, counts, displs, T);
        w = DatatypeCases.sentinels(all);
        for (int r = 0; r < size; r++) {
            place(w, t, 0, t, displs[r] * t.map().length, r, ints);
        }
        same(t.name() + " allGatherv", w, agv);
        // allToAll: my block j goes to rank j's block me
        int[] a2aSend = DatatypeCases.sendBuffer(rank, all);
        int[] a2a = DatatypeCases.sentinels(all);
        world.allToAll(a2aSend, COUNT, T, a2a, COUNT, T);
        w = DatatypeCases.sentinels(all);
        for (int r = 0; r < size; r++) {
            place(w, t, rank * ints, t, r * ints, r, ints);
        }
        same(t.name() + " allToAll", w, a2a);
        // nonblocking allToAll from direct buffers
        IntBuffer in = MPI.newIntBuffer(all).put(0, a2aSend);
        IntBuffer out = MPI.newIntBuffer(all).put(0, DatatypeCases.sentinels(all));
        Request r0 = world.iAllToAll(in, COUNT, T, out, COUNT, T);
        r0.waitFor();
        int[] got = new int[all];
        out.get(0, got);
        same(t.name() + " iAllToAll", w, got);
        // allToAllv with reversed displacements on both sides
        int[] a2av = DatatypeCases.sentinels(all);
        world.allToAllv(a2aSend, counts, displs, T, a2av, counts, displs, T);
        w = DatatypeCases.sentinels(all);
        for (int r = 0; r < size; r++) {
            place(w, t, displs[rank] * t.map().length, t, displs[r] * t.map().length, r, ints);
        }
        same(t.name() + " allToAllv", w, a2av);
        // allToAllw: byte displacements, the type per rank
        Datatype[] types = new Datatype[size];
        int[] bytes = new int[size];
        for (int r = 0; r < size; r++) {
            types[r] = T;
            bytes[r] = displs[r] * t.extent() * 4;
        }
        int[] a2aw = DatatypeCases.sentinels(all);
        world.allToAllw(a2aSend, counts, bytes, types, a2aw, counts, bytes, types);
        same(t.name() + " allToAllw", w, a2aw);
    }

    private void reductions(DatatypeCases.Case t) throws Exception {
        Datatype T = t.type();
        int ints = t.ints(COUNT);
        int len = t.span(COUNT);
        int[] send = DatatypeCases.sendBuffer(rank, len);
        int[] sum = reduced(t, len, size, Integer::sum);
        int[] ar = DatatypeCases.sentinels(len);
        world.allReduce(send, ar, COUNT, T, MPI.SUM);
        same(t.name() + " allReduce SUM", sum, ar);
        int[] inPlace = send.clone();
        world.allReduce(inPlace, COUNT, T, MPI.MAX);
        int[] max = reduced(t, len, size, Math::max);
        for (int i = 0; i < len; i++) {
            if (max[i] == DatatypeCases.SENTINEL) {
                max[i] = send[i]; // gaps keep this rank's values
            }
        }
        same(t.name() + " allReduce MAX in place", max, inPlace);
        int root = size - 1;
        int[] rd = DatatypeCases.sentinels(len);
        world.reduce(send, rd, COUNT, T, MPI.SUM, root);
        if (rank == root) {
            same(t.name() + " reduce SUM", sum, rd);
        }
        int[] sc = DatatypeCases.sentinels(len);
        world.scan(send, sc, COUNT, T, MPI.SUM);
        same(t.name() + " scan SUM", reduced(t, len, rank + 1, Integer::sum), sc);
        IntBuffer in = MPI.newIntBuffer(len).put(0, send);
        IntBuffer out = MPI.newIntBuffer(len).put(0, DatatypeCases.sentinels(len));
        world.iAllReduce(in, out, COUNT, T, MPI.SUM).waitFor();
        int[] got = new int[len];
        out.get(0, got);
        same(t.name() + " iAllReduce SUM", sum, got);
        // reduceScatterBlock-like: each rank gets its block of COUNT of the element-wise sum
        int all = t.span(COUNT * size);
        int[] big = DatatypeCases.sendBuffer(rank, all);
        int[] counts = new int[size];
        Arrays.fill(counts, COUNT);
        int[] rs = DatatypeCases.sentinels(len);
        world.reduceScatter(big, rs, counts, T, MPI.SUM);
        int[] w = DatatypeCases.sentinels(len);
        for (int k = 0; k < ints; k++) {
            int idx = t.index(rank * ints + k);
            int v = 0;
            for (int r = 0; r < size; r++) {
                v += DatatypeCases.value(r, idx);
            }
            w[t.index(k)] = v;
        }
        same(t.name() + " reduceScatter SUM", w, rs);
    }

    /** In-place gather and scatter, exScan, reduceScatterBlock, a neighbour allgather. */
    private void more(DatatypeCases.Case t) throws Exception {
        Datatype T = t.type();
        int ints = t.ints(COUNT);
        int len = t.span(COUNT);
        int all = t.span(COUNT * size);
        int root = 0;
        // gather in place: the root's own block is already in place, the gaps keep its values
        int[] g = rank == root ? DatatypeCases.sendBuffer(rank, all) : DatatypeCases.sendBuffer(rank, len);
        if (rank == root) {
            for (int k = 0; k < ints; k++) {
                g[t.index(root * ints + k)] = DatatypeCases.value(root, t.index(k));
            }
        }
        world.gather(g, COUNT, T, root);
        if (rank == root) {
            int[] w = DatatypeCases.sendBuffer(rank, all);
            for (int r = 0; r < size; r++) {
                place(w, t, 0, t, r * ints, r, ints);
            }
            same(t.name() + " gather in place", w, g);
        }
        // scatter in place: non-roots receive their block into buf
        int[] s = rank == root ? DatatypeCases.sendBuffer(root, all) : DatatypeCases.sentinels(len);
        world.scatter(s, COUNT, T, root);
        if (rank != root) {
            int[] w = DatatypeCases.sentinels(len);
            place(w, t, rank * ints, t, 0, root, ints);
            same(t.name() + " scatter in place", w, s);
        }
        // exScan: ranks 0..rank-1 summed (rank 0's result is undefined: not checked)
        int[] send = DatatypeCases.sendBuffer(rank, len);
        int[] ex = DatatypeCases.sentinels(len);
        world.exScan(send, ex, COUNT, T, MPI.SUM);
        if (rank > 0) {
            same(t.name() + " exScan SUM", reduced(t, len, rank, Integer::sum), ex);
        }
        // reduceScatterBlock
        int[] big = DatatypeCases.sendBuffer(rank, all);
        int[] rsb = DatatypeCases.sentinels(len);
        world.reduceScatterBlock(big, rsb, COUNT, T, MPI.SUM);
        int[] w = DatatypeCases.sentinels(len);
        for (int k = 0; k < ints; k++) {
            int idx = t.index(rank * ints + k);
            int v = 0;
            for (int r = 0; r < size; r++) {
                v += DatatypeCases.value(r, idx);
            }
            w[t.index(k)] = v;
        }
        same(t.name() + " reduceScatterBlock SUM", w, rsb);
        // neighbour allgather on a periodic ring: block 0 from rank-1, block 1 from rank+1
        CartComm ring = world.createCart(new int[] {size}, new boolean[] {true}, false);
        int[] nb = DatatypeCases.sentinels(t.span(2 * COUNT));
        ring.neighborAllGather(send, COUNT, T, nb, COUNT, T);
        int[] wn = DatatypeCases.sentinels(t.span(2 * COUNT));
        place(wn, t, 0, t, 0, (rank - 1 + size) % size, ints);
        place(wn, t, 0, t, ints, (rank + 1) % size, ints);
        same(t.name() + " neighborAllGather", wn, nb);
        ring.free();
    }

    /**
     * Across an inter-communicator of the even and the odd world ranks: allGather (each side
     * gets the other side's blocks, in its rank order) and allReduce (the other side's sum).
     */
    private void inter(DatatypeCases.Case t) throws Exception {
        Datatype T = t.type();
        int ints = t.ints(COUNT);
        int colour = rank % 2;
        Intracomm local = world.split(colour, rank);
        Intercomm inter = world.createIntercomm(local, 0, 1 - colour, 77);
        int remote = inter.getRemoteSize();
        int len = t.span(COUNT);
        int[] send = DatatypeCases.sendBuffer(rank, len);
        int all = t.span(COUNT * remote);
        int[] ag = DatatypeCases.sentinels(all);
        inter.allGather(send, COUNT, T, ag, COUNT, T);
        int[] w = DatatypeCases.sentinels(all);
        for (int j = 0; j < remote; j++) {
            place(w, t, 0, t, j * ints, 2 * j + (1 - colour), ints);
        }
        same(t.name() + " inter allGather", w, ag);
        int[] ar = DatatypeCases.sentinels(len);
        inter.allReduce(send, ar, COUNT, T, MPI.SUM);
        int[] sum = DatatypeCases.sentinels(len);
        for (int k = 0; k < ints; k++) {
            int idx = t.index(k);
            int v = 0;
            for (int j = 0; j < remote; j++) {
                v += DatatypeCases.value(2 * j + (1 - colour), idx);
            }
            sum[idx] = v;
        }
        same(t.name() + " inter allReduce SUM", sum, ar);
        inter.free();
        local.free();
    }

    /** The type map's positions combined over ranks 0..n-1, sentinels elsewhere. */
    private static int[] reduced(DatatypeCases.Case t, int len, int n, IntBinaryOperator op) {
        int[] w = DatatypeCases.sentinels(len);
        for (int k = 0; k < t.ints(COUNT); k++) {
            int idx = t.index(k);
            int v = DatatypeCases.value(0, idx);
            for (int r = 1; r < n; r++) {
                v = op.applyAsInt(v, DatatypeCases.value(r, idx));
            }
            w[idx] = v;
        }
        return w;
    }
}
