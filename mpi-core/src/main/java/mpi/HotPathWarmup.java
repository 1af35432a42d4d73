package mpi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.verbatim.runtime.CoreSettings;
import org.verbatim.runtime.IdleStrategy;
import org.verbatim.runtime.MpiProcess;

/**
 * The exchange {@code MPI_Init} runs so that a program's first messages go at full speed.
 *
 * <p>A JVM runs a method interpreted, then in profiled (tier-3) code, and only after some
 * thousands of calls in optimised (C2) code; on the point-to-point path the first two are 10 to
 * 100 times slower than the last, and a rank spinning on each of the two cores of a small machine
 * leaves the compiler threads little time, so a plain ping-pong straight from {@code main} paid
 * that for its first hundred thousand messages. Here ranks pair up (world ranks {@code 2k} and
 * {@code 2k+1}: a same-host partner over shm where the job places two ranks per host, else the
 * transport a program's first messages take) and exchange through the very public calls
 * a program makes, on a private communicator: a short ping-pong, windows of {@code iSend}/
 * {@code iRecv}/{@code Request.waitAll}, rendezvous messages, then blocking 8 B ping-pongs on a
 * direct buffer and an array, with windows and rendezvous messages between their batches, until
 * the round trip stops getting faster (at most {@link #MAX_NANOS} in all). The lower rank of a
 * pair decides when that phase ends and says so in the message it sends next, so both ranks
 * leave together.
 *
 * <p>Receives go through {@code Comm.blockingReceive}, the body of {@code Comm.recv}, not
 * {@code recv} itself: C2 then compiles that body here, on its own, and a program's {@code recv}
 * (a call of it and the {@code Status}) is compiled later as a small method that the program's
 * loop inlines, where escape analysis drops a {@code Status} the program does not keep. Had the
 * warm-up made {@code recv} hot, C2 would have compiled it with the body inlined, too big to be
 * inlined into callers, and every blocking receive would allocate its Status (issue 17).
 *
 * <p>{@code verbatim.core.warmup}: {@code auto} (on when every rank of the host has a core to
 * spin on, the profiler is off, as warm-up messages would show in its counts, and the partner is
 * reached over shm or tcp: over tcp a cold 8 B ping-pong went from 18-26 to 7-12 us per half
 * round trip with it; over ib it was measured only in the emulated RDMA guest, where it shortened
 * the cold phase by a quarter at tens of seconds of emulated time, so auto leaves it to
 * {@code on} there), {@code on}, {@code off}. With more ranks than cores the ranks yield
 * their cores when idle, so the compiler threads are not starved, and a warm-up would cost more.
 * {@code verbatim.core.warmup-trace=true} prints each phase's batches (to tune the stop rule).
 */
final class HotPathWarmup {
    /** Private context ids (the runtime hands out ids from 16; 0-3 are COMM_WORLD and COMM_SELF). */
    private static final int CONTEXT = 6;
    private static final int TAG = 7;
    private static final int BATCH = 500;
    private static final int MIN_ROUNDS = 20_000;
    private static final int MAX_ROUNDS = 150_000;
    /** The adaptive phase ends at the latest this long after the warm-up began. */
    private static final long MAX_NANOS = 1_500_000_000L;
    private static final int WINDOW = 64;
    private static final int WINDOWS = 60;
    /** Windows between two batches of the last ping-pong, so both paths stay hot to the end. */
    private static final int WINDOWS_PER_BATCH = 4;
    private static final int FIRST_ROUNDS = 3000;
    private static final int LARGE = 1024 * 1024;
    private static final int MID = 32 * 1024;
    private static final int LARGE_ROUNDS = 100;
    /** Rendezvous round trips between two batches of the last ping-pong. */
    private static final int LARGE_PER_BATCH = 60;
    private static final long DRAIN_STEP_MILLIS = 10;
    private static final long DRAIN_IDLE_NANOS = 500_000;
    private static final long DRAIN_MAX_MILLIS = 300;

    private final MpiProcess process;
    private final int[] pair;
    private final int myRank;
    /**
     * The communicator object in use: replaced by a new one (same context, so one communicator
     * for matching) now and then, whose caches start empty, so that what a program's first calls
     * on its own communicator take is compiled in rather than an uncommon trap there.
     */
    private Intracomm comm;
    private final int partner;
    private final boolean leader;
    private final boolean trace;
    private ByteBuffer small = MPI.newByteBuffer(8);
    private byte[] array = new byte[8];
    private int rotations;

    private HotPathWarmup(MpiProcess p, int partner, boolean trace) {
        this.process = p;
        this.pair = p.rank() < partner ? new int[] {p.rank(), partner} : new int[] {partner, p.rank()};
        this.myRank = p.rank() < partner ? 0 : 1;
        this.comm = newComm();
        this.partner = p.rank() < partner ? 1 : 0;
        this.leader = p.rank() < partner;
        this.trace = trace;
    }

    private Intracomm newComm() {
        Intracomm c = new Intracomm();
        c.bind(process, CONTEXT, pair, myRank, "verbatim warm-up");
        c.errhandler = MPI.ERRORS_ARE_FATAL;
        return c;
    }

    /** Runs the warm-up if the settings and the job ask for it (collective over COMM_WORLD). */
    static void runIfWanted(MpiProcess p) throws MPIException {
        String mode = CoreSettings.WARMUP.get(p.config()).trim().toLowerCase(Locale.ROOT);
        if (!mode.equals("auto") && !mode.equals("on") && !mode.equals("off")) {
            throw MPIException.of(MPI.ERR_ARG, "verbatim.core.warmup: expected auto, on or off, got "
                    + CoreSettings.WARMUP.get(p.config()));
        }
        int partner = p.rank() ^ 1;
        if (mode.equals("off") || partner >= p.size()) {
            return;
        }
        // Both ranks of a pair see the same transport, settings and host, so they agree.
        IdleStrategy idle = p.engine().idleStrategy();
        String via = p.engine().p2p().transportFor(partner);
        if (mode.equals("auto") && (CoreSettings.PROFILE.getBoolean(p.config())
                || (idle != IdleStrategy.SPIN && idle != IdleStrategy.SPIN_THEN_YIELD)
                || !(via.equals("shm") || via.equals("tcp")))) {
            return;
        }
        new HotPathWarmup(p, partner, CoreSettings.WARMUP_TRACE.getBoolean(p.config())).run();
    }

    private void run() throws MPIException {
        long start = System.nanoTime();
        // A short ping-pong compiles the path every message shares (progress, ring, matching),
        // which makes the windows cheaper. Then the branches the small ping-pong never takes
        // (requests, rendezvous), so that the code compiled while the last ping-pong settles is
        // final: taken after it, they would throw compiled methods out again (uncommon traps)
        // just as the program starts.
        for (int i = 0; i < FIRST_ROUNDS; i++) {
            if (leader) {
                ping(i, true);
            } else {
                echo(i);
            }
        }
        windows(WINDOWS);
        long windowsDone = System.nanoTime();
        large(LARGE_ROUNDS);
        long largeDone = System.nanoTime();
        pingPongs(start);
        long pingPongsDone = System.nanoTime();
        drainCompilations();
        // Leave together: the partner's drain may end later, and a program's first round trip
        // would wait for it.
        if (leader) {
            ping(0, false);
        } else {
            echo(0);
        }
        if (trace) {
            long end = System.nanoTime();
            System.err.println("verbatim: warm-up with world rank " + comm.world[partner] + " took "
                    + (end - start) / 1_000_000 + " ms (first round trips and windows "
                    + (windowsDone - start) / 1_000_000
                    + ", rendezvous " + (largeDone - windowsDone) / 1_000_000 + ", ping-pongs "
                    + (pingPongsDone - largeDone) / 1_000_000 + ", compiler drain "
                    + (end - pingPongsDone) / 1_000_000 + ")");
        }
    }

    /**
     * Sleeps while the JIT compiles what the exchange queued: until the JVM's compiler threads
     * ran less than {@link #DRAIN_IDLE_NANOS} in a {@link #DRAIN_STEP_MILLIS} step, at most
     * {@link #DRAIN_MAX_MILLIS}. Left to run after MPI_Init, those compilations took the cores
     * from the program's first round trips (on 2 cores the first ten took 0.5-1.5 ms each).
     * Their CPU time comes from Linux's per-thread schedstat; elsewhere it sleeps one step.
     */
    private static void drainCompilations() {
        long until = System.nanoTime() + DRAIN_MAX_MILLIS * 1_000_000L;
        long seen = compilerNanos();
        try {
            do {
                Thread.sleep(DRAIN_STEP_MILLIS);
                long now = compilerNanos();
                if (now - seen < DRAIN_IDLE_NANOS) {
                    return;
                }
                seen = now;
            } while (System.nanoTime() < until);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Nanoseconds on CPU of this JVM's JIT compiler threads so far (0 where unknown). */
    private static long compilerNanos() {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String name = Files.readString(task.resolve("comm"));
                if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                    String stat = Files.readString(task.resolve("schedstat"));
                    sum += Long.parseLong(stat.substring(0, stat.indexOf(' ')));
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0; // no /proc (not Linux) or a thread that just ended: one step is enough
        }
        return sum;
    }

    /**
     * Blocking 8 B round trips in batches, three of four on the direct buffer and one on the
     * array, with {@link #WINDOWS_PER_BATCH} windows after each batch (so that the nonblocking
     * path, too, is hot and compiled when the phase ends), until the batches stop improving
     * (after {@link #MIN_ROUNDS}) or the caps. The leader's ping carries 1 while the phase goes
     * on, 0 in its last round trip; then neither side runs the windows.
     */
    private void pingPongs(long start) throws MPIException {
        if (leader) {
            double best = Double.MAX_VALUE;
            int steady = 0;
            int rounds = 0;
            boolean more = true;
            while (more) {
                long t0 = System.nanoTime();
                for (int i = 0; i < BATCH; i++) {
                    rounds++;
                    more = i < BATCH - 1 || !enough(rounds, steady, start);
                    ping(i, more);
                }
                double avg = (System.nanoTime() - t0) / (double) BATCH;
                steady = avg <= best * 1.15 ? steady + 1 : 0;
                best = Math.min(best, avg);
                if (trace && rounds % (BATCH * 10) == 0) {
                    System.err.printf("verbatim: warm-up round trips %d: %.2f us (best %.2f)%n",
                            rounds, avg / 1e3, best / 1e3);
                }
                if (more) {
                    windows(WINDOWS_PER_BATCH);
                    large(LARGE_PER_BATCH);
                }
            }
        } else {
            boolean more = true;
            while (more) {
                for (int i = 0; i < BATCH; i++) {
                    more = echo(i);
                }
                if (more) {
                    windows(WINDOWS_PER_BATCH);
                    large(LARGE_PER_BATCH);
                }
            }
        }
    }

    private static boolean enough(int rounds, int steady, long start) {
        return rounds >= MAX_ROUNDS || System.nanoTime() - start > MAX_NANOS
                || (rounds >= MIN_ROUNDS && steady >= 6);
    }

    private void ping(int i, boolean more) throws MPIException {
        rotate(i);
        if ((i & 3) == 3) {
            array[0] = (byte) (more ? 1 : 0);
            comm.send(array, 8, MPI.BYTE, partner, TAG);
            comm.blockingReceive(array, 8, MPI.BYTE, partner, TAG);
        } else {
            small.put(0, (byte) (more ? 1 : 0));
            comm.send(small, 8, MPI.BYTE, partner, TAG);
            comm.blockingReceive(small, 8, MPI.BYTE, partner, TAG);
        }
    }

    private boolean echo(int i) throws MPIException {
        rotate(i);
        if ((i & 3) == 3) {
            comm.blockingReceive(array, 8, MPI.BYTE, partner, TAG);
            comm.send(array, 8, MPI.BYTE, partner, TAG);
            return array[0] != 0;
        }
        comm.blockingReceive(small, 8, MPI.BYTE, partner, TAG);
        comm.send(small, 8, MPI.BYTE, partner, TAG);
        return small.get(0) != 0;
    }

    /**
     * Every {@link #BATCH} round trips a new communicator object, and every fourth time new
     * buffers (see {@link #comm}); each side on its own count.
     */
    private void rotate(int i) {
        if (i % BATCH == 0) {
            comm = newComm();
            if ((++rotations & 3) == 0) {
                small = MPI.newByteBuffer(8);
                array = new byte[8];
            }
        }
    }

    /**
     * Windows of nonblocking calls completed by one waitAll: one way then the other with a
     * 4-byte answer (the sender runs ahead, so messages arrive both before and after their
     * receive is posted, and a full ring makes sends wait), and every third window both ways.
     */
    private final ByteBuffer[] out = new ByteBuffer[WINDOW];
    private final ByteBuffer[] in = new ByteBuffer[WINDOW];
    private final ByteBuffer answer = MPI.newByteBuffer(4);
    private final Request[] one = new Request[WINDOW];
    private final Request[] both = new Request[2 * WINDOW];
    /** Windows run so far: the schedule (direction, size, new buffers) goes on from here. */
    private int windowsRun;

    private void windows(int count) throws MPIException {
        for (int n = 0; n < count; n++) {
            int w = windowsRun++;
            if (w % 8 == 0) {
                // New buffers and communicator objects now and then (see comm).
                comm = newComm();
                for (int i = 0; i < WINDOW; i++) {
                    out[i] = MPI.newByteBuffer(8);
                    in[i] = MPI.newByteBuffer(8);
                }
            }
            Intracomm c = comm;
            // Two sizes, so that size changes between messages are compiled in as well.
            int size = (w & 1) == 0 ? 8 : 4;
            if (w % 3 == 2) {
                for (int i = 0; i < WINDOW; i++) {
                    both[i] = c.iRecv(in[i], size, MPI.BYTE, partner, TAG);
                }
                for (int i = 0; i < WINDOW; i++) {
                    both[WINDOW + i] = c.iSend(out[i], size, MPI.BYTE, partner, TAG);
                }
                Request.waitAll(both);
            } else if ((w % 3 == 0) == leader) {
                for (int i = 0; i < WINDOW; i++) {
                    one[i] = c.iSend(out[i], size, MPI.BYTE, partner, TAG);
                }
                Request.waitAll(one);
                c.blockingReceive(answer, 4, MPI.BYTE, partner, TAG);
            } else {
                for (int i = 0; i < WINDOW; i++) {
                    one[i] = c.iRecv(in[i], size, MPI.BYTE, partner, TAG);
                }
                Request.waitAll(one);
                c.send(answer, 4, MPI.BYTE, partner, TAG);
            }
        }
    }

    private final ByteBuffer big = MPI.newByteBuffer(LARGE);
    private final byte[] bigArray = new byte[MID];

    /**
     * Rendezvous round trips: {@code rounds} of {@link #MID} bytes (above the default eager
     * limit, small enough that the protocol, not the copy, is the cost), every fourth from an
     * array (the staging path), then one of {@link #LARGE}. Run between the last ping-pong's
     * batches too: the rendezvous path is taken once per message, so it needs thousands of
     * messages before C2 compiles it (with 20 round trips, a 1 MiB ping-pong from the first
     * message took 340-600 us per half round trip, 130 us once compiled).
     */
    private void large(int rounds) throws MPIException {
        for (int i = 0; i <= rounds; i++) {
            Object buffer = i == rounds ? big : (i & 3) == 3 ? bigArray : big;
            int bytes = i == rounds ? LARGE : MID;
            if (leader) {
                comm.send(buffer, bytes, MPI.BYTE, partner, TAG);
                comm.blockingReceive(buffer, bytes, MPI.BYTE, partner, TAG);
            } else {
                comm.blockingReceive(buffer, bytes, MPI.BYTE, partner, TAG);
                comm.send(buffer, bytes, MPI.BYTE, partner, TAG);
            }
        }
    }
}
