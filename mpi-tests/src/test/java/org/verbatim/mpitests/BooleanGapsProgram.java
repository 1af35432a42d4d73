package org.verbatim.mpitests;

import java.util.Arrays;
import mpi.CartComm;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;

/**
 * A {@code boolean[]} with the plain {@code MPI.BOOLEAN} type through the collectives that do
 * not write a whole receive buffer: v-variants with a hole between the blocks, the in-place
 * forms (the block the root keeps, the block an in-place allgatherv reads), PROC_NULL
 * neighbours and an inter-communicator's allgatherv (blocking only: the nonblocking calls take
 * buffers, not arrays). Every element the collective does not write starts {@code true} and
 * must stay {@code true} (a boolean[] is received through a byte[], and converting the whole of
 * it back wrote {@code false} there); the data mixes both values.
 */
public final class BooleanGapsProgram {
    private static final int COUNT = 2;
    private final Checks c;
    private final Intracomm world = MPI.COMM_WORLD;
    private final int rank;
    private final int size;

    private BooleanGapsProgram(Checks c, int rank, int size) {
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
        BooleanGapsProgram p = new BooleanGapsProgram(c, rank, size);
        c.run("holes", p::holes);
        c.run("in place", p::inPlace);
        c.run("PROC_NULL neighbours", p::neighbours);
        c.run("inter-communicator", p::inter);
        int status = c.summary();
        MPI.Finalize();
        System.exit(status);
    }

    /** Rank r's element k: true and false mixed, different per rank. */
    private static boolean value(int r, int k) {
        return (r + k) % 3 == 1;
    }

    private static boolean[] data(int r, int n) {
        boolean[] a = new boolean[n];
        for (int k = 0; k < n; k++) {
            a[k] = value(r, k);
        }
        return a;
    }

    private static boolean[] untouched(int n) {
        boolean[] a = new boolean[n];
        Arrays.fill(a, true);
        return a;
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

    /** COUNT elements of {@code from} at element a into {@code to} at element b. */
    private static void place(boolean[] to, int b, boolean[] from, int a) {
        System.arraycopy(from, a, to, b, COUNT);
    }

    private void same(String name, boolean[] want, boolean[] got) {
        c.check(name, Arrays.equals(want, got), "want " + Arrays.toString(want) + ", got "
                + Arrays.toString(got));
    }

    private void holes() throws Exception {
        int[] counts = counts(size);
        int[] displs = holes(size);
        int all = displs[0] + COUNT;
        int root = size - 1;
        boolean[] send = data(rank, COUNT);
        boolean[] want = untouched(all);
        for (int r = 0; r < size; r++) {
            place(want, displs[r], data(r, COUNT), 0);
        }
        boolean[] g = untouched(all);
        world.gatherv(send, COUNT, MPI.BOOLEAN, g, counts, displs, MPI.BOOLEAN, root);
        same("gatherv", rank == root ? want : untouched(all), g);
        boolean[] ag = untouched(all);
        world.allGatherv(send, COUNT, MPI.BOOLEAN, ag, counts, displs, MPI.BOOLEAN);
        same("allGatherv", want, ag);
        // allToAllv: my block at displs[j] goes to rank j, rank j's lands at displs[j]
        boolean[] mine = data(rank, all);
        boolean[] wa = untouched(all);
        for (int r = 0; r < size; r++) {
            place(wa, displs[r], data(r, all), displs[rank]);
        }
        boolean[] a2av = untouched(all);
        world.allToAllv(mine, counts, displs, MPI.BOOLEAN, a2av, counts, displs, MPI.BOOLEAN);
        same("allToAllv", wa, a2av);
    }

    private void inPlace() throws Exception {
        int[] counts = counts(size);
        int[] displs = holes(size);
        int all = displs[0] + COUNT;
        int root = 0;
        // gatherv in place: the root's own block keeps its values, the holes stay untouched
        boolean[] g = untouched(all);
        place(g, displs[root], data(root + 7, COUNT), 0);
        if (rank == root) {
            boolean[] want = g.clone();
            for (int r = 0; r < size; r++) {
                if (r != root) {
                    place(want, displs[r], data(r, COUNT), 0);
                }
            }
            world.gatherv(g, counts, displs, MPI.BOOLEAN, root);
            same("gatherv in place", want, g);
        } else {
            world.gatherv(data(rank, COUNT), COUNT, MPI.BOOLEAN, root);
        }
        // gather in place: the root's own block (values true and false) stays as it was
        boolean[] gg = new boolean[COUNT * size];
        for (int k = 0; k < gg.length; k++) {
            gg[k] = k % 2 == 0;
        }
        if (rank == root) {
            boolean[] want = gg.clone();
            for (int r = 0; r < size; r++) {
                if (r != root) {
                    place(want, r * COUNT, data(r, COUNT), 0);
                }
            }
            world.gather(gg, COUNT, MPI.BOOLEAN, root);
            same("gather in place", want, gg);
        } else {
            world.gather(data(rank, COUNT), COUNT, MPI.BOOLEAN, root);
        }
        // allGatherv in place: own block read from the buffer (the others must get it)
        boolean[] ip = untouched(all);
        place(ip, displs[rank], data(rank, COUNT), 0);
        boolean[] want = untouched(all);
        for (int r = 0; r < size; r++) {
            place(want, displs[r], data(r, COUNT), 0);
        }
        world.allGatherv(ip, counts, displs, MPI.BOOLEAN);
        same("allGatherv in place", want, ip);
    }

    /** A non-periodic line: rank 0 has no left neighbour, the last rank no right one. */
    private void neighbours() throws Exception {
        int left = rank - 1;
        int right = rank + 1 < size ? rank + 1 : -1;
        CartComm line = world.createCart(new int[] {size}, new boolean[] {false}, false);
        boolean[] send = data(rank, COUNT);
        boolean[] w = untouched(2 * COUNT);
        if (left >= 0) {
            place(w, 0, data(left, COUNT), 0);
        }
        if (right >= 0) {
            place(w, COUNT, data(right, COUNT), 0);
        }
        boolean[] nb = untouched(2 * COUNT);
        line.neighborAllGather(send, COUNT, MPI.BOOLEAN, nb, COUNT, MPI.BOOLEAN);
        same("neighborAllGather", w, nb);
        int[] vd = {COUNT + 1, 0};
        boolean[] wv = untouched(2 * COUNT + 1);
        if (left >= 0) {
            place(wv, vd[0], data(left, COUNT), 0);
        }
        if (right >= 0) {
            place(wv, vd[1], data(right, COUNT), 0);
        }
        boolean[] nv = untouched(2 * COUNT + 1);
        line.neighborAllGatherv(send, COUNT, MPI.BOOLEAN, nv, counts(2), vd, MPI.BOOLEAN);
        same("neighborAllGatherv", wv, nv);
        line.free();
    }

    /** Even and odd world ranks: allGatherv of the remote group's blocks at holes(q). */
    private void inter() throws Exception {
        if (size < 2) {
            return;
        }
        int colour = rank % 2;
        Intracomm local = world.split(colour, rank);
        Intercomm inter = world.createIntercomm(local, 0, 1 - colour, 79);
        int q = inter.getRemoteSize();
        int[] qd = holes(q);
        int qall = qd[0] + COUNT;
        boolean[] ag = untouched(qall);
        inter.allGatherv(data(rank, COUNT), COUNT, MPI.BOOLEAN, ag, counts(q), qd, MPI.BOOLEAN);
        boolean[] want = untouched(qall);
        for (int j = 0; j < q; j++) {
            place(want, qd[j], data(2 * j + (1 - colour), COUNT), 0);
        }
        same("inter allGatherv", want, ag);
        inter.free();
        local.free();
    }
}
