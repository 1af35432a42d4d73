package org.verbatim.mpitests;

import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * Passive-target locks on windows whose members mix same-host pairs (shm) and pairs on two hosts
 * (ib): a member's lock is two words, its host's claims in one (CPU atomics), the other hosts' in
 * the other (adapter atomics). Run by {@code scripts/rdma-guest/mpi-two-hosts rma-hybrid} with
 * ranks on two guests and no transport forced. Every check runs on a created window, an allocated
 * one (same-host members map each other's memory, the others do not) and a created window without
 * RDMA (every put and get a record), each with {@code verbatim.rma.lock=atomic} (creation fails
 * unless every pair can take locks by atomics: before mixed windows could, it did):
 * <ul>
 * <li>exclusive counter: every rank gets, adds one and puts under an exclusive lock of one target,
 * for a target on each host (its own rank, a same-host rank and remote ranks contend);</li>
 * <li>shared against exclusive: writers put the same value into two words with a flush between
 * them under exclusive locks while readers get both under shared locks: a reader never sees them
 * differ;</li>
 * <li>lockAll: accumulate into every rank and fetchAndOp on a rank of each host, all at once;</li>
 * <li>fairness: readers from both hosts loop under shared locks until a writer (same host as the
 * target, then another host) gets its exclusive lock, within a bound;</li>
 * <li>the target asleep: rank 0 sleeps outside MPI while every other rank runs an exclusive epoch
 * (put, get) and a shared one on it: they end 1.5 s before it wakes (created windows, where every put
 * and get of the epoch goes by RDMA: CMA to its same-host rank, verbs to the others).</li>
 * </ul>
 */
public final class RmaHybridLockProgram {
    private static final int ROUNDS = 12;
    private static final long SLEEP_MS = 6000;
    private final Checks c;
    private final int rank;
    private final int p;
    /** Per rank: the index of its host (by processor name), in order of first appearance. */
    private final int[] hostOf;

    private RmaHybridLockProgram(Checks c) throws MPIException {
        this.c = c;
        this.rank = MPI.COMM_WORLD.getRank();
        this.p = MPI.COMM_WORLD.getSize();
        int[] hashes = new int[p];
        MPI.COMM_WORLD.allGather(new int[] {MPI.getProcessorName().hashCode()}, 1, MPI.INT,
                hashes, 1, MPI.INT);
        this.hostOf = new int[p];
        int[] distinct = Arrays.stream(hashes).distinct().toArray();
        for (int r = 0; r < p; r++) {
            for (int h = 0; h < distinct.length; h++) {
                if (distinct[h] == hashes[r]) {
                    hostOf[r] = h;
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Checks c = new Checks(MPI.COMM_WORLD.getRank());
        RmaHybridLockProgram t = new RmaHybridLockProgram(c);
        t.run();
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }

    private void run() throws MPIException {
        int hosts = Arrays.stream(hostOf).max().orElse(0) + 1;
        c.equal("ranks on two hosts", 2, hosts);
        int sameHostPairs = 0;
        for (int r = 0; r < p; r++) {
            sameHostPairs += r != rank && hostOf[r] == hostOf[rank] ? 1 : 0;
        }
        c.check("a same-host peer and a remote peer", sameHostPairs > 0 && sameHostPairs < p - 1,
                sameHostPairs + " same-host peers of " + (p - 1));
        int other = firstOnOtherHost(0);
        for (String flavor : new String[] {"create", "allocate", "create, records"}) {
            c.run(flavor + ": exclusive counter", () -> {
                exclusiveCounter(flavor, 0);
                exclusiveCounter(flavor, other);
            });
            c.run(flavor + ": shared against exclusive", () -> sharedAgainstExclusive(flavor, other));
            c.run(flavor + ": lockAll", () -> lockAll(flavor, other));
            c.run(flavor + ": fairness", () -> {
                fairness(flavor, sameHostPeer(0));
                fairness(flavor, other);
            });
        }
        c.run("create: the target asleep", this::targetAsleep);
    }

    private int firstOnOtherHost(int of) {
        for (int r = 0; r < p; r++) {
            if (hostOf[r] != hostOf[of]) {
                return r;
            }
        }
        throw new IllegalStateException("every rank on one host");
    }

    private int sameHostPeer(int of) {
        for (int r = 0; r < p; r++) {
            if (r != of && hostOf[r] == hostOf[of]) {
                return r;
            }
        }
        throw new IllegalStateException("rank " + of + " alone on its host");
    }

    private Win window(String flavor, int ints) throws MPIException {
        Info info = new Info();
        info.set("verbatim.rma.lock", "atomic");
        Win win;
        if (flavor.equals("allocate")) {
            win = new Win(ints, 1, info, MPI.COMM_WORLD, MPI.newIntBuffer(1), Win.FLAVOR_PRIVATE);
        } else {
            if (flavor.endsWith("records")) {
                info.set("verbatim.rma.rdma", "false");
            }
            win = new Win(MPI.newIntBuffer(ints), ints, 1, info, MPI.COMM_WORLD);
        }
        for (int i = 0; i < ints; i++) {
            win.getBase().setAtIndex(RmaProgram.I, i, 0);
        }
        MPI.COMM_WORLD.barrier();
        return win;
    }

    /** get, +1, put under an exclusive lock of {@code target}, ROUNDS times from every rank. */
    private void exclusiveCounter(String flavor, int target) throws MPIException {
        Win win = window(flavor, 1);
        IntBuffer v = RmaProgram.ints(1);
        for (int i = 0; i < ROUNDS; i++) {
            win.lock(MPI.LOCK_EXCLUSIVE, target, 0);
            win.get(v, 1, MPI.INT, target, 0, 1, MPI.INT);
            win.flush(target);
            v.put(0, v.get(0) + 1);
            win.put(v, 1, MPI.INT, target, 0, 1, MPI.INT);
            win.unlock(target);
        }
        MPI.COMM_WORLD.barrier();
        if (rank == target) {
            c.equal(flavor + ": exclusive counter on rank " + target + ", no lost update",
                    (long) ROUNDS * p, win.getBase().getAtIndex(RmaProgram.I, 0));
        }
        win.free();
    }

    /**
     * Odd ranks write under exclusive locks of {@code target} (word 0, flush, word 1: the same
     * value), even ranks read both words under shared locks; a reader never sees them differ.
     */
    private void sharedAgainstExclusive(String flavor, int target) throws MPIException {
        Win win = window(flavor, 2);
        int torn = 0;
        int reads = 0;
        if (rank % 2 == 1) {
            for (int i = 1; i <= ROUNDS; i++) {
                IntBuffer v = RmaProgram.ints(1).put(0, 1000 * rank + i);
                win.lock(MPI.LOCK_EXCLUSIVE, target, 0);
                win.put(v, 1, MPI.INT, target, 0, 1, MPI.INT);
                win.flush(target);
                win.put(v, 1, MPI.INT, target, 1, 1, MPI.INT);
                win.unlock(target);
            }
        } else {
            IntBuffer both = RmaProgram.ints(2);
            for (int i = 0; i < 3 * ROUNDS; i++) {
                win.lock(MPI.LOCK_SHARED, target, 0);
                win.get(both, 2, MPI.INT, target, 0, 2, MPI.INT);
                win.unlock(target);
                reads++;
                torn += both.get(0) != both.get(1) ? 1 : 0;
            }
        }
        MPI.COMM_WORLD.barrier();
        if (rank % 2 == 0) {
            c.equal(flavor + ": reads of rank " + target + " under shared locks that saw a write"
                    + " half done (of " + reads + ")", 0, torn);
        }
        if (rank == target) {
            int w0 = win.getBase().getAtIndex(RmaProgram.I, 0);
            c.check(flavor + ": the last write whole", w0 == win.getBase().getAtIndex(RmaProgram.I, 1)
                    && w0 % 1000 == ROUNDS, "words " + w0 + ", "
                    + win.getBase().getAtIndex(RmaProgram.I, 1));
        }
        win.free();
    }

    /** accumulate SUM into every rank, fetchAndOp on rank 0 and on {@code other}, in lockAll. */
    private void lockAll(String flavor, int other) throws MPIException {
        int n = 8;
        Win win = window(flavor, n + 1);
        IntBuffer add = RmaProgram.ints(n);
        for (int i = 0; i < n; i++) {
            add.put(i, i + 1);
        }
        IntBuffer f = RmaProgram.ints(1);
        long fetched = 0;
        win.lockAll(0);
        for (int round = 0; round < ROUNDS; round++) {
            for (int t = 0; t < p; t++) {
                win.accumulate(add, n, MPI.INT, t, 0, n, MPI.INT, MPI.SUM);
            }
            for (int t : new int[] {0, other}) {
                win.fetchAndOp(RmaProgram.ints(1).put(0, 1), f, MPI.INT, t, n, MPI.SUM);
                win.flush(t);
                fetched += f.get(0);
            }
        }
        win.unlockAll();
        MPI.COMM_WORLD.barrier();
        boolean ok = true;
        for (int i = 0; i < n; i++) {
            ok &= win.getBase().getAtIndex(RmaProgram.I, i) == ROUNDS * p * (i + 1);
        }
        c.check(flavor + ": accumulates from every rank in lockAll", ok, "rank " + rank
                + " holds " + win.getBase().getAtIndex(RmaProgram.I, 0) + " at 0, not "
                + ROUNDS * p);
        long[] sum = new long[1];
        MPI.COMM_WORLD.allReduce(new long[] {fetched}, sum, 1, MPI.LONG, MPI.SUM);
        long total = (long) ROUNDS * p;
        c.equal(flavor + ": fetchAndOp on two hosts, every old value once",
                2 * (total * (total - 1) / 2), sum[0]);
        if (rank == 0 || rank == other) {
            c.equal(flavor + ": fetchAndOp total", total, win.getBase().getAtIndex(RmaProgram.I, n));
        }
        win.free();
    }

    /**
     * Every rank but {@code writer} reads rank 0's word under shared locks until it sees 42;
     * {@code writer} puts 42 under an exclusive lock once the readers run. A starved writer
     * leaves the readers looping until the bound fails them.
     */
    private void fairness(String flavor, int writer) throws MPIException {
        Win win = window(flavor, 1);
        int bound = 20_000;
        if (rank == writer) {
            RmaPassiveChecks.writeOnce(win);
            c.pass(flavor + ": writer rank " + writer + " got the exclusive lock");
        } else {
            int i = RmaPassiveChecks.readUntilWritten(win, bound);
            c.check(flavor + ": readers see writer rank " + writer + " within the bound",
                    i < bound, "still 0 after " + bound + " shared epochs");
        }
        MPI.COMM_WORLD.barrier();
        win.free();
    }

    /**
     * Rank 0 sleeps outside MPI for SLEEP_MS while every other rank locks it exclusively, puts
     * its rank into its own word, gets rank 0's marker, unlocks, then reads its word back under a
     * shared lock; each origin's epochs must end within SLEEP_MS - 1.5 s of the barrier
     * (durations, not clocks: the hosts' clocks differ), which they cannot if they need rank 0.
     */
    private void targetAsleep() throws Exception {
        Win win = window("create", p);
        win.getBase().setAtIndex(RmaProgram.I, 0, -5);
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            Thread.sleep(SLEEP_MS); // no MPI call here
        } else {
            long start = System.nanoTime();
            IntBuffer mark = RmaProgram.ints(1);
            IntBuffer back = RmaProgram.ints(1);
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            win.put(RmaProgram.ints(1).put(0, 100 + rank), 1, MPI.INT, 0, rank, 1, MPI.INT);
            win.get(mark, 1, MPI.INT, 0, 0, 1, MPI.INT);
            win.unlock(0);
            win.lock(MPI.LOCK_SHARED, 0, 0);
            win.get(back, 1, MPI.INT, 0, rank, 1, MPI.INT);
            win.unlock(0);
            long ms = (System.nanoTime() - start) / 1_000_000;
            String where = hostOf[rank] == hostOf[0] ? "same host" : "other host";
            System.out.println("TIMES target asleep: rank " + rank + " (" + where + ") epochs "
                    + ms + " ms");
            c.check("epochs of rank " + rank + " (" + where + ") end while the target sleeps",
                    ms < SLEEP_MS - 1500, ms + " ms");
            c.equal("rank " + rank + " read the target's marker", -5, mark.get(0));
            c.equal("rank " + rank + " read its put back", 100 + rank, back.get(0));
        }
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            boolean ok = true;
            for (int r = 1; r < p; r++) {
                ok &= win.getBase().getAtIndex(RmaProgram.I, r) == 100 + r;
            }
            c.check("the sleeping target holds every put", ok, "missing puts");
        }
        win.free();
    }
}
