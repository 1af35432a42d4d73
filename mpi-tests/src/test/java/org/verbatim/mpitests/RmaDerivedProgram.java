package org.verbatim.mpitests;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * Derived target (and origin) datatypes in put, get, accumulate and getAccumulate, on every
 * window flavor (created with and without RDMA, allocated, shared, dynamic) under fence (two
 * designs) and lock epochs, checked against a sequential reference of every rank's window: the
 * bytes a layout names get their values and every gap keeps its own; origin gaps of a derived
 * result type stay untouched; accumulates from every rank add up; a layout that reaches outside
 * the window is MPI_ERR_RMA_RANGE and writes nothing.
 */
public final class RmaDerivedProgram {
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    /** Ints per window. */
    private static final int N = 64;
    /** Target displacement of the layouts (room for the negative lower bound). */
    private static final int D = 3;
    private static final int GAP = -5;

    /** A target datatype and the int indices (from its origin) it names, in packed order. */
    private record Case(String name, Datatype type, int count, int[] idx) {
    }

    private final Checks c;
    private final Intracomm world = MPI.COMM_WORLD;
    private final int rank;
    private final int p;
    private final Case[] cases;
    /** The reference: every rank's window. */
    private int[][] ref;

    private RmaDerivedProgram(Checks c) throws MPIException {
        this.c = c;
        this.rank = world.getRank();
        this.p = world.getSize();
        Datatype vector = commit(Datatype.createVector(3, 2, 4, MPI.INT));
        Datatype indexed = commit(Datatype.createIndexed(new int[] {1, 3, 2},
                new int[] {0, 3, 9}, MPI.INT));
        Datatype struct = commit(Datatype.createStruct(new int[] {2, 1}, new int[] {0, 16},
                new Datatype[] {MPI.INT, MPI.INT}));
        Datatype structResized = commit(Datatype.createResized(struct, 0, 28));
        Datatype resized = commit(Datatype.createResized(Datatype.createVector(2, 1, 2, MPI.INT),
                0, 20));
        Datatype negative = commit(Datatype.createIndexed(new int[] {2, 1}, new int[] {-2, 3},
                MPI.INT));
        this.cases = new Case[] {
            new Case("vector", vector, 1, new int[] {0, 1, 4, 5, 8, 9}),
            new Case("indexed x2", indexed, 2, new int[] {0, 3, 4, 5, 9, 10,
                11, 14, 15, 16, 20, 21}),
            new Case("struct of INT", struct, 1, new int[] {0, 1, 4}),
            new Case("resized struct x2", structResized, 2, new int[] {0, 1, 4, 7, 8, 11}),
            new Case("resized vector x3", resized, 3, new int[] {0, 2, 5, 7, 10, 12}),
            new Case("negative lower bound", negative, 1, new int[] {-2, -1, 3}),
        };
    }

    private static Datatype commit(Datatype t) throws MPIException {
        t.commit();
        return t;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        RmaProgram.readArguments(args);
        Checks c = new Checks(MPI.COMM_WORLD.getRank());
        RmaDerivedProgram t = new RmaDerivedProgram(c);
        for (String mode : new String[] {"def", "imm-ri", "lock"}) {
            for (int flavor = 0; flavor < 5; flavor++) {
                int f = flavor;
                c.run("derived " + mode + " flavor " + f, () -> t.all(mode, f));
            }
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }

    private static int initial(int t, int i) {
        return 11 * t + 5 * i + 2;
    }

    /** Flavors 0..3 as {@link RmaProgram#window}, 4 dynamic (memory attached in {@code arena}). */
    private void all(String mode, int flavor) throws MPIException {
        Info info = RmaProgram.info(mode.equals("lock") ? null : mode, "true");
        try (Arena arena = Arena.ofConfined()) {
            Win win;
            MemorySegment mem;
            long[] base = new long[p];
            if (flavor == 4) {
                win = new Win(info, world);
                mem = arena.allocate(4L * N, 8);
                win.attach(mem);
                world.allGather(new long[] {mem.address()}, 1, MPI.LONG, base, 1, MPI.LONG);
            } else {
                win = new RmaProgram(c).window(flavor, N, info);
                if (win == null) {
                    return; // no shared memory between the ranks: refusal checked
                }
                mem = win.getBase();
            }
            win.setErrhandler(MPI.ERRORS_RETURN);
            ref = new int[p][N];
            for (int r = 0; r < p; r++) {
                for (int i = 0; i < N; i++) {
                    ref[r][i] = initial(r, i);
                }
            }
            for (int i = 0; i < N; i++) {
                mem.setAtIndex(I, i, initial(rank, i));
            }
            world.barrier();
            String name = mode + " flavor " + flavor;
            boolean fence = !mode.equals("lock");
            if (fence) {
                win.fence(0);
            }
            for (int k = 0; k < cases.length; k++) {
                phases(win, mem, flavor == 4 ? base : null, fence, name + " " + cases[k].name(),
                        k);
            }
            if (fence) {
                win.fence(MPI.MODE_NOSUCCEED);
            }
            if (flavor == 4) {
                win.detach(mem);
            }
            win.free();
        }
    }

    /** Displacement {@code ints} into rank {@code r}'s window (an address for dynamic ones). */
    private static long disp(long[] base, int r, int ints) {
        return base == null ? ints : base[r] + 4L * ints;
    }

    private static MemorySegment seg(IntBuffer b) {
        return MemorySegment.ofBuffer(b);
    }

    private void phases(Win win, MemorySegment mem, long[] base, boolean fence, String name,
                        int k) throws MPIException {
        boolean dynamic = base != null;
        Case cs = cases[k];
        int n = cs.idx().length;
        int next = (rank + 1) % p;
        Datatype strided = commit(Datatype.createVector(n, 1, 2, MPI.INT));
        // A: put, the origin contiguous (even cases) or strided (odd ones)
        IntBuffer o = RmaProgram.ints(2 * n);
        for (int j = 0; j < n; j++) {
            o.put(k % 2 == 0 ? j : 2 * j, RmaProgram.putValue(rank, k, j));
        }
        open(win, fence, next);
        if (k % 2 == 0) {
            win.put(seg(o), n, MPI.INT, next, disp(base, next, D), cs.count(), cs.type());
        } else {
            win.put(seg(o), 1, strided, next, disp(base, next, D), cs.count(), cs.type());
        }
        close(win, fence, next);
        for (int r = 0; r < p; r++) {
            for (int j = 0; j < n; j++) {
                ref[(r + 1) % p][D + cs.idx()[j]] = RmaProgram.putValue(r, k, j);
            }
        }
        window(name + " put", mem);
        // B: get into a strided origin: its gaps keep their values
        IntBuffer g = filled(2 * n);
        open(win, fence, next);
        win.get(seg(g), 1, strided, next, disp(base, next, D), cs.count(), cs.type());
        close(win, fence, next);
        int bad = 0;
        StringBuilder why = new StringBuilder();
        for (int j = 0; j < n; j++) {
            bad += mismatch(why, "origin[" + 2 * j + "]", ref[next][D + cs.idx()[j]], g.get(2 * j));
            bad += mismatch(why, "gap " + (2 * j + 1), GAP, g.get(2 * j + 1));
        }
        c.check(name + " get into a derived origin", bad == 0, why.toString());
        // C: accumulate SUM from every rank into rank 0
        IntBuffer a = RmaProgram.ints(n);
        for (int j = 0; j < n; j++) {
            a.put(j, (rank + 1) * (j + 1));
        }
        open(win, fence, 0);
        win.accumulate(seg(a), n, MPI.INT, 0, disp(base, 0, D), cs.count(), cs.type(),
                MPI.SUM);
        close(win, fence, 0);
        for (int j = 0; j < n; j++) {
            ref[0][D + cs.idx()[j]] += (j + 1) * p * (p + 1) / 2;
        }
        window(name + " accumulate from every rank", mem);
        // D: getAccumulate SUM with a strided result
        IntBuffer res = filled(2 * n);
        for (int j = 0; j < n; j++) {
            a.put(j, 100 * (rank + 1) + j);
        }
        open(win, fence, next);
        win.getAccumulate(seg(a), n, MPI.INT, seg(res), 1, strided, next,
                disp(base, next, D), cs.count(), cs.type(), MPI.SUM);
        close(win, fence, next);
        bad = 0;
        why.setLength(0);
        for (int j = 0; j < n; j++) {
            bad += mismatch(why, "result[" + 2 * j + "]", ref[next][D + cs.idx()[j]],
                    res.get(2 * j));
            bad += mismatch(why, "gap " + (2 * j + 1), GAP, res.get(2 * j + 1));
        }
        c.check(name + " getAccumulate old values", bad == 0, why.toString());
        for (int r = 0; r < p; r++) {
            for (int j = 0; j < n; j++) {
                ref[(r + 1) % p][D + cs.idx()[j]] += 100 * (r + 1) + j;
            }
        }
        window(name + " getAccumulate", mem);
        // E: a layout that reaches outside the window: refused, nothing written
        if (!dynamic) {
            int last = 0;
            for (int x : cs.idx()) {
                last = Math.max(last, x);
            }
            int disp = N - last;
            open(win, fence, next);
            c.expectError(name + " outside the window", MPI.ERR_RMA_RANGE, "MPI_Put",
                    () -> win.put(seg(o), n, MPI.INT, next, disp, cs.count(), cs.type()));
            close(win, fence, next);
            window(name + " nothing written outside", mem);
        }
        strided.free();
    }

    private static IntBuffer filled(int n) {
        IntBuffer b = RmaProgram.ints(n);
        for (int i = 0; i < n; i++) {
            b.put(i, GAP);
        }
        return b;
    }

    private void open(Win win, boolean fence, int target) throws MPIException {
        if (!fence) {
            win.lock(MPI.LOCK_SHARED, target, 0);
        }
    }

    private void close(Win win, boolean fence, int target) throws MPIException {
        if (fence) {
            win.fence(0);
        } else {
            win.unlock(target);
            world.barrier();
        }
    }

    /**
     * This rank's whole window against the reference: named bytes and gaps; then a barrier, so
     * no rank's next epoch writes here before the check.
     */
    private void window(String name, MemorySegment mem) throws MPIException {
        int bad = 0;
        StringBuilder why = new StringBuilder();
        for (int i = 0; i < N; i++) {
            bad += mismatch(why, "[" + i + "]", ref[rank][i], mem.getAtIndex(I, i));
        }
        c.check(name, bad == 0, why.toString());
        world.barrier();
    }

    private static int mismatch(StringBuilder why, String where, int expected, int actual) {
        if (expected == actual) {
            return 0;
        }
        if (why.length() < 300) {
            why.append(where).append(": expected ").append(expected).append(", got ")
                    .append(actual).append("; ");
        }
        return 1;
    }
}
