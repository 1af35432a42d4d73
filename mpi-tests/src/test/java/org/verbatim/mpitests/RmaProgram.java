package org.verbatim.mpitests;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.IntBuffer;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * Every window call on any number of ranks, checked value by value against what a sequential
 * reference computes: active-target epochs (fence under each of the four designs and each
 * scheduler setting, on created, allocated and shared windows; PSCW), the data calls (put, get,
 * accumulate with every predefined op, getAccumulate, fetchAndOp, compareAndSwap, large transfers
 * cut into pieces), dynamic windows, shared windows, attributes and names. Passive target
 * (locks, contention, fairness, request-based calls) is {@link RmaPassiveChecks}; bad input and
 * epoch misuse {@link RmaErrorChecks}.
 */
public final class RmaProgram {
    static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
    static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;
    /** Ints per origin block; the window of p ranks holds p blocks, a read-only block, counters. */
    static final int K = 8;
    /** Ints of the large transfer (more than one message: cut into pieces). */
    static final int BIG = 40_000;

    final Checks c;
    final Intracomm world = MPI.COMM_WORLD;
    final int rank;
    final int p;

    RmaProgram(Checks c) throws MPIException {
        this.c = c;
        this.rank = world.getRank();
        this.p = world.getSize();
    }

    /**
     * False with the argument {@code no-shm} (a job whose ranks have no shared-memory transport
     * between them, ib forced): an allocate-shared window is then MPI_ERR_RMA_SHARED on every
     * rank, which is checked in place of using one.
     */
    static boolean shm = true;

    static void readArguments(String[] args) {
        shm = !java.util.List.of(args).contains("no-shm");
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        readArguments(args);
        Checks c = new Checks(MPI.COMM_WORLD.getRank());
        RmaProgram t = new RmaProgram(c);
        for (String design : new String[] {"def", "imm-naive", "imm-opt", "imm-ri"}) {
            for (String schedule : new String[] {"true", "false"}) {
                for (int flavor = 0; flavor < 4; flavor++) {
                    int f = flavor;
                    c.run("fence " + design + " schedule=" + schedule + " flavor " + f,
                            () -> t.fenceEpochs(design, schedule, f));
                }
            }
        }
        c.run("fence assertions", t::assertions);
        for (String schedule : new String[] {"true", "false"}) {
            for (int flavor : new int[] {0, 1}) {
                c.run("pscw schedule=" + schedule + " flavor " + flavor,
                        () -> t.pscw(schedule, flavor));
            }
        }
        c.run("dynamic window", t::dynamic);
        c.run("shared window", t::shared);
        c.run("attributes", t::attributes);
        RmaPassiveChecks passive = new RmaPassiveChecks(t);
        for (String schedule : new String[] {"true", "false"}) {
            c.run("passive schedule=" + schedule, () -> passive.all(schedule));
        }
        for (int flavor : new int[] {0, 1}) {
            c.run("bad input and epoch misuse flavor " + flavor,
                    () -> new RmaErrorChecks(t).all(flavor));
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }

    static Info info(String design, String schedule) throws MPIException {
        Info info = new Info();
        if (design != null) {
            info.set("verbatim.rma.fence", design);
        }
        info.set("verbatim.rma.schedule", schedule);
        info.set("verbatim.rma.aggregate", schedule);
        return info;
    }

    /**
     * Window of {@code ints} ints: 0 created on a direct buffer (RDMA where the transport has it
     * natively, at every size), 1 allocated, 2 allocated shared (both loads and stores on one
     * host), 3 created with RDMA off (everything through two-sided records). Without shared
     * memory between the ranks ({@link #shm}) flavor 2 checks that creation refuses and returns
     * null.
     */
    Win window(int flavor, int ints, Info info) throws MPIException {
        if (flavor == 2 && !shm) {
            refusesShared(ints);
            return null;
        }
        if (flavor == 3) {
            info.set("verbatim.rma.rdma", "false");
        } else if (flavor == 0 && !info.isNull()) {
            info.set("verbatim.rma.rdma-threshold", "0");
        }
        if (flavor == 0 || flavor == 3) {
            IntBuffer b = MPI.newIntBuffer(ints);
            return new Win(b, ints, 1, info, world);
        }
        return new Win(ints, 1, info, world, MPI.newIntBuffer(1),
                flavor == 1 ? Win.FLAVOR_PRIVATE : Win.FLAVOR_SHARED);
    }

    /** An allocate-shared window between ranks that share no memory: MPI_ERR_RMA_SHARED. */
    void refusesShared(int ints) throws MPIException {
        world.setErrhandler(MPI.ERRORS_RETURN);
        try {
            c.expectError("allocate-shared without shared memory", MPI.ERR_RMA_SHARED, null,
                    () -> new Win(ints, 1, MPI.INFO_NULL, world, MPI.newIntBuffer(1),
                            Win.FLAVOR_SHARED).free());
        } finally {
            world.setErrhandler(MPI.ERRORS_ARE_FATAL);
        }
    }

    static IntBuffer ints(int n) {
        return MPI.newIntBuffer(n);
    }

    /** Origin r's value j for target t in the put phase. */
    static int putValue(int r, int t, int j) {
        return 1_000_000 * (r + 1) + 1000 * t + j;
    }

    static int initial(int t, int i) {
        return 7 * t + 3 * i + 1;
    }

    /**
     * One fence-epoch sequence: init, fence, puts to every rank (own block), gets of the read-only
     * block of the next rank, SUM/MAX/BXOR/REPLACE accumulates into counters from every rank,
     * a large put and get to the neighbours, fence; check all; then fetchAndOp and
     * compareAndSwap on rank 0 and getAccumulate of the counters, fence(NOSUCCEED); check.
     */
    void fenceEpochs(String design, String schedule, int flavor) throws MPIException {
        int ro = p * K;              // read-only block
        int sum = ro + K;            // SUM counters (K)
        int max = sum + K;           // MAX counter
        int xor = max + 1;           // BXOR counter
        int rep = xor + 1;           // REPLACE target (last writer unknown: any origin's value)
        int fop = rep + 1;           // fetchAndOp word
        int cas = fop + 1;           // compareAndSwap word
        int big = cas + 1;           // BIG ints
        int n = big + BIG;
        Win win = window(flavor, n, info(design, schedule));
        if (win == null) {
            return;
        }
        MemorySegment mem = win.getBase();
        for (int i = 0; i < n; i++) {
            mem.setAtIndex(I, i, initial(rank, i));
        }
        for (int i = sum; i < cas + 1; i++) {
            mem.setAtIndex(I, i, 0);
        }
        win.fence(MPI.MODE_NOPRECEDE);
        for (int t = 0; t < p; t++) {
            IntBuffer o = ints(K);
            for (int j = 0; j < K; j++) {
                o.put(j, putValue(rank, t, j));
            }
            win.put(o, K, MPI.INT, t, rank * K, K, MPI.INT);
            IntBuffer a = ints(K);
            for (int j = 0; j < K; j++) {
                a.put(j, (rank + 1) * (j + 1));
            }
            win.accumulate(a, K, MPI.INT, t, sum, K, MPI.INT, MPI.SUM);
            win.accumulate(ints(1).put(0, 10 * rank + t), 1, MPI.INT, t, max, 1, MPI.INT, MPI.MAX);
            win.accumulate(ints(1).put(0, 1 << rank % 31), 1, MPI.INT, t, xor, 1, MPI.INT,
                    MPI.BXOR);
            win.accumulate(ints(1).put(0, 500 + rank), 1, MPI.INT, t, rep, 1, MPI.INT,
                    MPI.REPLACE);
            win.accumulate(ints(1).put(0, 99), 1, MPI.INT, t, rep, 1, MPI.INT, MPI.NO_OP);
        }
        int next = (rank + 1) % p;
        int prev = (rank + p - 1) % p;
        IntBuffer got = ints(K);
        win.get(got, K, MPI.INT, next, ro, K, MPI.INT);
        IntBuffer bigOut = ints(BIG);
        for (int j = 0; j < BIG; j++) {
            bigOut.put(j, rank * 31 + j);
        }
        win.put(bigOut, BIG, MPI.INT, next, big, BIG, MPI.INT);
        win.fence(0);
        for (int r = 0; r < p; r++) {
            for (int j = 0; j < K; j++) {
                expect("put block " + r, putValue(r, rank, j), mem.getAtIndex(I, r * K + j));
            }
        }
        for (int j = 0; j < K; j++) {
            expect("get", initial(next, ro + j), got.get(j));
            expect("acc SUM", p * (p + 1) / 2 * (j + 1), mem.getAtIndex(I, sum + j));
        }
        expect("acc MAX", 10 * (p - 1) + rank, mem.getAtIndex(I, max));
        int x = 0;
        for (int r = 0; r < p; r++) {
            x ^= 1 << r % 31;
        }
        expect("acc BXOR", x, mem.getAtIndex(I, xor));
        int v = mem.getAtIndex(I, rep);
        c.check("acc REPLACE then NO_OP keeps one origin's value", v >= 500 && v < 500 + p,
                "got " + v);
        boolean bigOk = true;
        for (int j = 0; j < BIG && bigOk; j++) {
            bigOk = mem.getAtIndex(I, big + j) == prev * 31 + j;
        }
        c.check("large put cut into pieces", bigOk, "mismatch");
        // epoch 2: atomics on rank 0, getAccumulate, large get
        IntBuffer fetched = ints(1);
        win.fetchAndOp(ints(1).put(0, 1), fetched, MPI.INT, 0, fop, MPI.SUM);
        IntBuffer old = ints(1);
        win.compareAndSwap(ints(1).put(0, rank + 1), ints(1).put(0, 0), old, MPI.INT, 0, cas);
        IntBuffer counters = ints(K);
        win.getAccumulate(ints(K), K, MPI.INT, counters, K, MPI.INT, prev, sum, K, MPI.INT,
                MPI.NO_OP);
        IntBuffer bigIn = ints(BIG);
        win.get(bigIn, BIG, MPI.INT, prev, big, BIG, MPI.INT);
        win.fence(MPI.MODE_NOSUCCEED);
        for (int j = 0; j < K; j++) {
            expect("getAccumulate NO_OP", p * (p + 1) / 2 * (j + 1), counters.get(j));
        }
        bigOk = true;
        int pp = (prev + p - 1) % p;
        for (int j = 0; j < BIG && bigOk; j++) {
            bigOk = bigIn.get(j) == pp * 31 + j;
        }
        c.check("large get cut into pieces", bigOk, "mismatch");
        int[] all = new int[2 * p];
        world.allGather(new int[] {fetched.get(0), old.get(0)}, 2, MPI.INT, all, 2, MPI.INT);
        boolean[] seen = new boolean[p];
        int zeros = 0;
        int winner = -1;
        for (int r = 0; r < p; r++) {
            int f = all[2 * r];
            if (f >= 0 && f < p) {
                seen[f] = true;
            }
            if (all[2 * r + 1] == 0) {
                zeros++;
                winner = r;
            }
        }
        boolean distinct = true;
        for (boolean s : seen) {
            distinct &= s;
        }
        c.check("fetchAndOp results are 0..p-1 once each", distinct, java.util.Arrays.toString(all));
        c.check("compareAndSwap: exactly one winner", zeros == 1, java.util.Arrays.toString(all));
        if (rank == 0) {
            expect("fetchAndOp total", p, mem.getAtIndex(I, fop));
            expect("compareAndSwap winner's value", winner + 1, mem.getAtIndex(I, cas));
        }
        win.free();
    }

    void expect(String name, long expected, long actual) {
        if (expected != actual) {
            c.fail(name, "expected " + expected + ", got " + actual);
        } else {
            c.pass(name);
        }
    }

    /** Accumulates with every predefined op that applies, on each type, against a local reference. */
    void assertions() throws MPIException {
        Win win = window(1, 4, info("imm-opt", "true"));
        MemorySegment mem = win.getBase();
        mem.setAtIndex(I, 0, rank);
        win.fence(MPI.MODE_NOPRECEDE | MPI.MODE_NOSTORE);
        IntBuffer g = ints(1);
        win.get(g, 1, MPI.INT, (rank + 1) % p, 0, 1, MPI.INT);
        win.fence(MPI.MODE_NOSTORE | MPI.MODE_NOPUT);
        expect("get between asserted fences", (rank + 1) % p, g.get(0));
        win.fence(MPI.MODE_NOPRECEDE | MPI.MODE_NOSUCCEED);
        win.free();
        RmaOpsChecks.everyOp(this);
    }

    /** PSCW on a ring: post to the previous rank, start on the next, put/get/accumulate. */
    void pscw(String schedule, int flavor) throws MPIException {
        Win win = window(flavor, 3 * K, info(null, schedule));
        MemorySegment mem = win.getBase();
        for (int i = 0; i < 3 * K; i++) {
            mem.setAtIndex(I, i, initial(rank, i));
        }
        int next = (rank + 1) % p;
        int prev = (rank + p - 1) % p;
        mpi.Group g = world.getGroup();
        mpi.Group toPrev = g.incl(new int[] {prev});
        mpi.Group toNext = g.incl(new int[] {next});
        for (int round = 0; round < 3; round++) {
            world.barrier();
            win.post(toPrev, 0);
            win.start(toNext, 0);
            IntBuffer o = ints(K);
            for (int j = 0; j < K; j++) {
                o.put(j, putValue(rank, round, j));
            }
            win.put(o, K, MPI.INT, next, 0, K, MPI.INT);
            IntBuffer got = ints(K);
            win.get(got, K, MPI.INT, next, K, K, MPI.INT);
            win.accumulate(ints(1).put(0, rank + 1), 1, MPI.INT, next, 2 * K, 1, MPI.INT, MPI.SUM);
            win.complete();
            if (round % 2 == 0) {
                win.waitFor();
            } else {
                while (!win.test()) {
                    Thread.onSpinWait();
                }
            }
            for (int j = 0; j < K; j++) {
                expect("pscw put", putValue(prev, round, j), mem.getAtIndex(I, j));
                expect("pscw get", initial(next, K + j), got.get(j));
            }
            expect("pscw acc", initial(rank, 2 * K) + (round + 1) * (prev + 1),
                    mem.getAtIndex(I, 2 * K));
        }
        win.free();
    }

    /** A dynamic window: attach, exchange addresses, put and get at addresses, detach. */
    void dynamic() throws MPIException {
        Win win = new Win(MPI.INFO_NULL, world);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(4L * K, 8);
            for (int j = 0; j < K; j++) {
                m.setAtIndex(I, j, initial(rank, j));
            }
            win.attach(m);
            long[] addrs = new long[p];
            world.allGather(new long[] {m.address()}, 1, MPI.LONG, addrs, 1, MPI.LONG);
            int next = (rank + 1) % p;
            win.fence(0);
            MemorySegment origin = arena.allocate(4L * K, 8);
            for (int j = 0; j < K; j++) {
                origin.setAtIndex(I, j, putValue(rank, 0, j));
            }
            MemorySegment res = arena.allocate(4L * K, 8);
            win.get(res, K, MPI.INT, next, addrs[next], K, MPI.INT);
            win.fence(0);
            for (int j = 0; j < K; j++) {
                expect("dynamic get", initial(next, j), res.getAtIndex(I, j));
            }
            win.put(origin, K, MPI.INT, next, addrs[next], K, MPI.INT);
            win.fence(MPI.MODE_NOSUCCEED);
            int prev = (rank + p - 1) % p;
            for (int j = 0; j < K; j++) {
                expect("dynamic put", putValue(prev, 0, j), m.getAtIndex(I, j));
            }
            c.equal("dynamic flavor", MPI.WIN_FLAVOR_DYNAMIC, win.getAttr(MPI.WIN_CREATE_FLAVOR));
            win.detach(m);
            win.free();
        }
    }

    /** allocateShared: every rank stores into its neighbour's memory through sharedQuery. */
    void shared() throws MPIException {
        if (!shm) {
            refusesShared(4 * K);
            return;
        }
        Win win = Win.allocateShared(4L * K, 4, MPI.INFO_NULL, world);
        MemorySegment mine = win.getBase();
        int next = (rank + 1) % p;
        MemorySegment theirs = win.sharedQuery(next);
        c.check("sharedQuery maps the neighbour", theirs != null && theirs.byteSize() == 4L * K,
                String.valueOf(theirs));
        c.equal("sharedQuery disp unit", 4, win.sharedQueryDispUnit(next));
        win.lockAll(MPI.MODE_NOCHECK);
        for (int j = 0; j < K; j++) {
            theirs.setAtIndex(I, j, putValue(rank, 1, j));
        }
        win.sync();
        world.barrier();
        win.sync();
        int prev = (rank + p - 1) % p;
        for (int j = 0; j < K; j++) {
            expect("store through the shared mapping", putValue(prev, 1, j), mine.getAtIndex(I, j));
        }
        win.unlockAll();
        c.equal("shared flavor", MPI.WIN_FLAVOR_SHARED, win.getAttr(MPI.WIN_CREATE_FLAVOR));
        win.free();
    }

    void attributes() throws MPIException {
        IntBuffer b = MPI.newIntBuffer(16);
        Win win = new Win(b, 16, 1, MPI.INFO_NULL, world);
        c.equal("WIN_SIZE in bytes", 64, win.getAttr(MPI.WIN_SIZE));
        c.equal("WIN_DISP_UNIT in bytes", 4, win.getAttr(MPI.WIN_DISP_UNIT));
        c.equal("WIN_BASE is the buffer's address", MemorySegment.ofBuffer(b).address(),
                win.getAttr(MPI.WIN_BASE));
        c.equal("WIN_CREATE_FLAVOR", MPI.WIN_FLAVOR_CREATE, win.getAttr(MPI.WIN_CREATE_FLAVOR));
        c.equal("WIN_MODEL", MPI.WIN_UNIFIED, win.getAttr(MPI.WIN_MODEL));
        c.equal("getGroup size", p, win.getGroup().getSize());
        win.setName("halo");
        c.equal("name", "halo", win.getName());
        int key = Win.createKeyval();
        win.setAttr(key, "v" + rank);
        c.equal("user attribute", "v" + rank, win.getAttr(key));
        win.deleteAttr(key);
        c.equal("deleted attribute", null, win.getAttr(key));
        Win.freeKeyval(key);
        Info in = new Info();
        in.set("no_locks", "true");
        win.setInfo(in);
        c.equal("info", "true", win.getInfo().get("no_locks"));
        c.equal("default error handler", MPI.ERRORS_ARE_FATAL, win.getErrhandler());
        win.setErrhandler(MPI.ERRORS_RETURN);
        win.callErrhandler(MPI.ERR_OTHER);
        c.pass("callErrhandler returns under ERRORS_RETURN (Open MPI's rule)");
        Win a = Win.allocate(32, 8, MPI.INFO_NULL, world);
        c.equal("allocate hands back its memory", 32L, a.getBase().byteSize());
        c.equal("allocate WIN_BASE", a.getBase().address(), a.getAttr(MPI.WIN_BASE));
        c.equal("allocate flavor", MPI.WIN_FLAVOR_ALLOCATE, a.getAttr(MPI.WIN_CREATE_FLAVOR));
        a.free();
        win.free();
    }
}
