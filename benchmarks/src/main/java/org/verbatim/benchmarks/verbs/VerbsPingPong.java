package org.verbatim.benchmarks.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.IBV_ACCESS_LOCAL_WRITE;
import static org.verbatim.verbs.raw.verbs_h_constants.IBV_ACCESS_REMOTE_WRITE;
import static org.verbatim.verbs.raw.verbs_h_constants.IBV_SEND_INLINE;
import static org.verbatim.verbs.raw.verbs_h_constants.IBV_SEND_SIGNALED;
import static org.verbatim.verbs.raw.verbs_h_constants.IBV_WC_SUCCESS;
import static org.verbatim.verbs.raw.verbs_h_constants.IBV_WR_RDMA_WRITE;
import static org.verbatim.verbs.raw.verbs_h_constants.IBV_WR_SEND;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import org.verbatim.verbs.CompletionQueue;
import org.verbatim.verbs.ConnectionParameters;
import org.verbatim.verbs.Context;
import org.verbatim.verbs.DeviceList;
import org.verbatim.verbs.MemoryRegion;
import org.verbatim.verbs.PortAttributes;
import org.verbatim.verbs.ProtectionDomain;
import org.verbatim.verbs.QueuePair;
import org.verbatim.verbs.QueuePairConfig;
import org.verbatim.verbs.QueuePairType;
import org.verbatim.verbs.ReceiveRequest;
import org.verbatim.verbs.SendRequest;
import org.verbatim.verbs.WorkCompletions;

/**
 * (Its own package: the MPI benchmarks of the parent package are also compiled against Open MPI's
 * mpi.jar by compare-openmpi, and this program uses verbs-binding, not MPI.)
 *
 * <p>The floor under Verbatim's ib latency: perftest's two ping-pongs written in Java on the same
 * verbs binding, with no MPI at all. Two processes (as perftest's client and server), one RC
 * queue pair each, which exchange their addresses through files in a meeting directory:
 * <ul>
 * <li>{@code send}: ib_send_lat's loop. 8 B inline sends, receives pre-posted, each side polls
 *     its receive CQ, reposts, answers; a send is signalled every {@link #SIGNAL_EVERY}.</li>
 * <li>{@code write}: ib_write_lat's loop. 8 B inline RDMA writes of a sequence number into the
 *     peer's registered buffer; each side spins on its own buffer until the number arrives.</li>
 * </ul>
 * Waiting spins, then yields, as the MPI runtime's default idle strategy does. Side 0 prints the
 * half round trip (an average over the timed iterations, as OSU does). In the TCG guest this
 * separates what Java and FFM cost on the verbs path from what the MPI stack adds
 * (benchmarks/ib-figures prints both against perftest).
 *
 * <pre>
 * VerbsPingPong --side 0|1 --meet DIR --device rxe0 --gid-index 1 --mode send|write
 *               [--iterations N] [--warmup N] [--spins N]      (side 0 prints the figure)
 * </pre>
 */
public final class VerbsPingPong {
    private static final int SIZE = 8;
    private static final int SIGNAL_EVERY = 64;
    private static final int RECEIVES = 128;
    /** Where a side's buffer receives writes, sends from, and receives sends. */
    private static final long IN = 0;
    private static final long OUT = 1024;
    private static final long RECEIVED = 2048;
    private static final int CHECK_EVERY = 1 << 16;
    /** Idle passes before a waiting side yields (the runtime's SPIN_THEN_YIELD: 4096). */
    private static int spinsBeforeYield = 4096;
    private static final long WAIT_LIMIT_NANOS = 10_000_000_000L;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private VerbsPingPong() {
    }

    /** One side: its queue pair, CQs, registered buffer and pre-built requests. */
    private static final class Side {
        final CompletionQueue sendCq;
        final CompletionQueue recvCq;
        final QueuePair qp;
        final MemorySegment buffer;
        final MemoryRegion region;
        final SendRequest send;
        final ReceiveRequest receive;
        final WorkCompletions wc;
        long waitStart;
        long remoteAddress;
        int remoteKey;
        int sent;

        Side(Context context, ProtectionDomain pd, Arena arena) {
            sendCq = context.createCompletionQueue(256, null);
            recvCq = context.createCompletionQueue(256, null);
            qp = pd.createQueuePair(new QueuePairConfig(QueuePairType.RC, sendCq, recvCq, null,
                    256, RECEIVES, 1, 64));
            buffer = arena.allocate(4096, 4096);
            region = pd.register(buffer, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
            send = new SendRequest(arena, 1).entry(0, buffer.address() + OUT, SIZE, region.lkey());
            receive = new ReceiveRequest(arena, 1).entry(0, buffer.address() + RECEIVED, SIZE,
                    region.lkey());
            wc = new WorkCompletions(arena, 16);
        }

        void postSend(int opcode) {
            boolean signalled = ++sent % SIGNAL_EVERY == 0;
            send.operation(sent, opcode, IBV_SEND_INLINE | (signalled ? IBV_SEND_SIGNALED : 0));
            if (opcode == IBV_WR_RDMA_WRITE) {
                send.remote(remoteAddress, remoteKey);
            }
            int rc = qp.post(send);
            if (rc != 0) {
                throw new IllegalStateException("ibv_post_send: errno " + rc);
            }
            if (signalled) {
                awaitOne(sendCq);
            }
        }

        void awaitOne(CompletionQueue cq) {
            int n;
            int spins = 0;
            while ((n = cq.poll(wc)) == 0) {
                idle(++spins);
                if (spins % CHECK_EVERY == 0) {
                    check(cq == recvCq ? "a receive" : "a send completion", spins == CHECK_EVERY);
                }
            }
            for (int i = 0; i < n; i++) {
                if (wc.status(i) != IBV_WC_SUCCESS) {
                    throw new IllegalStateException("completion status " + wc.status(i));
                }
            }
            if (n != 1) {
                throw new IllegalStateException(n + " completions where one was expected");
            }
        }

        void postReceive() {
            int rc = qp.post(receive.wrId(0));
            if (rc != 0) {
                throw new IllegalStateException("ibv_post_recv: errno " + rc);
            }
        }

        /** Send mode: waits for the peer's message and reposts its receive. */
        void receiveOne() {
            awaitOne(recvCq);
            postReceive();
        }

        /** Write mode: waits until the peer has written {@code seq} into this side's buffer. */
        void awaitWrite(long seq) {
            int spins = 0;
            while ((long) LONG.getAcquire(buffer, IN) != seq) {
                idle(++spins);
                if (spins % CHECK_EVERY == 0) {
                    check("write " + seq, spins == CHECK_EVERY);
                }
            }
        }

        /**
         * What the MPI runtime's default idle strategy does (IdleStrategy.SPIN_THEN_YIELD): spin,
         * then yield. Under rxe the yield matters: work rxe defers to ksoftirqd waits for a core,
         * and a thread that only spins keeps it for a whole time slice (8 ms per message here).
         */
        static void idle(int spins) {
            if (spins < spinsBeforeYield) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }

        /**
         * While waiting: an unsignalled send that failed (RC retries exhausted) completes with an
         * error on the send CQ, and nothing else would say so; and a wait has a time limit.
         */
        void check(String waitingFor, boolean firstOfThisWait) {
            long now = System.nanoTime();
            if (firstOfThisWait) {
                waitStart = now;
            }
            int n = sendCq.poll(wc);
            for (int i = 0; i < n; i++) {
                if (wc.status(i) != IBV_WC_SUCCESS) {
                    throw new IllegalStateException("send completed with status " + wc.status(i)
                            + " while waiting for " + waitingFor);
                }
            }
            if (now - waitStart > WAIT_LIMIT_NANOS) {
                throw new IllegalStateException("nothing arrived in 10 s while waiting for "
                        + waitingFor + " (sent " + sent + ")");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String device = "rxe0";
        String mode = "send";
        int gidIndex = -1;
        int iterations = 5000;
        int warmup = 100_000;
        int side = -1;
        Path meeting = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--device" -> device = args[++i];
                case "--gid-index" -> gidIndex = Integer.parseInt(args[++i]);
                case "--mode" -> mode = args[++i];
                case "--iterations" -> iterations = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--side" -> side = Integer.parseInt(args[++i]);
                case "--meet" -> meeting = Path.of(args[++i]);
                case "--spins" -> spinsBeforeYield = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (--side 0|1 --meet DIR --device D --gid-index N --mode send|write"
                        + " --iterations N --warmup N --spins N)");
            }
        }
        if (!mode.equals("send") && !mode.equals("write")) {
            throw new IllegalArgumentException("--mode is send or write, not " + mode);
        }
        if ((side != 0 && side != 1) || meeting == null) {
            throw new IllegalArgumentException("--side 0 or 1 and --meet DIR are required");
        }
        // Nothing is closed: the process ends when the measurement does.
        Context context = new DeviceList().open(device);
        double halfRoundTrip = run(context, side, meeting, mode.equals("write"), gidIndex,
                warmup, iterations);
        if (side == 0) {
            System.out.printf("# Java verbs ping-pong on %s (%s, %d B inline, no MPI), %d"
                    + " iterations after %d warm-up%n", context.name(), mode, SIZE, iterations,
                    warmup);
            System.out.printf("%d %.2f%n", SIZE, halfRoundTrip);
        }
    }

    /**
     * Connects this side to the other process through files in {@code meeting}, then runs the
     * ping-pong; side 0 returns the half round trip in microseconds (averaged over
     * {@code iterations}), side 1 returns 0.
     */
    private static double run(Context context, int side, Path meeting, boolean write,
                              int gidIndex, int warmup, int iterations) throws Exception {
        Arena arena = Arena.ofShared();
        int port = 1;
        PortAttributes attr = context.queryPort(port);
        if (!attr.isActive()) {
            throw new IllegalStateException(context.name() + " port 1 is not active");
        }
        int index = attr.isEthernet() ? Math.max(gidIndex, 0) : -1;
        byte[] gid = index >= 0 ? context.queryGid(port, index) : new byte[16];
        ProtectionDomain pd = context.allocateProtectionDomain();
        Side me = new Side(context, pd, arena);
        publish(meeting, "address" + side, me.qp.qpNum() + " " + attr.lid() + " "
                + HexFormat.of().formatHex(gid) + " " + me.buffer.address() + " "
                + me.region.rkey());
        String[] peer = await(meeting, "address" + (1 - side)).split(" ");
        me.qp.toInit(port, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE, 0);
        int mtu = Math.min(attr.activeMtu(), 3); // IBV_MTU_1024: plenty for 8 B
        var p = new ConnectionParameters(port, mtu, Integer.parseInt(peer[0]),
                Integer.parseInt(peer[1]), index >= 0 ? HexFormat.of().parseHex(peer[2]) : null,
                index, 0, 0);
        me.qp.toRtr(p);
        me.qp.toRts(p);
        me.remoteAddress = Long.parseLong(peer[3]) + IN;
        me.remoteKey = Integer.parseInt(peer[4]);
        for (int i = 0; i < RECEIVES; i++) {
            me.postReceive();
        }
        publish(meeting, "ready" + side, "ready");
        await(meeting, "ready" + (1 - side));
        int total = warmup + iterations;
        long t0 = 0;
        for (int i = 1; i <= total; i++) {
            if (i == warmup + 1) {
                t0 = System.nanoTime();
            }
            if (side == 0) {
                if (write) {
                    me.buffer.set(ValueLayout.JAVA_LONG, OUT, i);
                    me.postSend(IBV_WR_RDMA_WRITE);
                    me.awaitWrite(i);
                } else {
                    me.postSend(IBV_WR_SEND);
                    me.receiveOne();
                }
            } else if (write) {
                me.awaitWrite(i);
                me.buffer.set(ValueLayout.JAVA_LONG, OUT, i);
                me.postSend(IBV_WR_RDMA_WRITE);
            } else {
                me.receiveOne();
                me.postSend(IBV_WR_SEND);
            }
        }
        return side == 0 ? (System.nanoTime() - t0) / 1e3 / iterations / 2 : 0;
    }

    private static void publish(Path meeting, String name, String value) throws Exception {
        Path tmp = meeting.resolve(name + ".tmp");
        Files.writeString(tmp, value);
        Files.move(tmp, meeting.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    private static String await(Path meeting, String name) throws Exception {
        Path f = meeting.resolve(name);
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!Files.exists(f)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the other side wrote no " + f + " in 120 s");
            }
            Thread.sleep(10);
        }
        return Files.readString(f).trim();
    }
}
