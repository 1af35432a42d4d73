package org.verbatim.mpitests;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Load: thousands of outstanding requests (posted and unexpected, eager and rendezvous mixed,
 * non-overtaking order checked), ANY_SOURCE receives while every other rank floods rank 0, and
 * THREAD_MULTIPLE with several threads per rank sending, receiving, probing and waiting at once.
 *
 * <p>Arguments: {@code messagesPerPeer threads iterations}.
 */
public final class LoadProgram {
    /** Every this-many-th message is large enough for the rendezvous protocol. */
    private static final int LARGE_EVERY = 37;
    private static final int LARGE_INTS = 6000;

    private final Checks c;
    private final Intracomm world = MPI.COMM_WORLD;
    private final int rank;
    private final int size;

    private LoadProgram(Checks c, int rank, int size) {
        this.c = c;
        this.rank = rank;
        this.size = size;
    }

    public static void main(String[] args) throws Exception {
        int provided = MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        int rank = MPI.COMM_WORLD.getRank();
        Checks c = new Checks(rank);
        c.equal("InitThread provides THREAD_MULTIPLE", MPI.THREAD_MULTIPLE, provided);
        c.equal("queryThread", MPI.THREAD_MULTIPLE, MPI.queryThread());
        LoadProgram p = new LoadProgram(c, rank, MPI.COMM_WORLD.getSize());
        int perPeer = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        int iterations = Integer.parseInt(args[2]);
        c.run("many outstanding, receives first", () -> p.manyOutstanding(perPeer, true));
        c.run("many outstanding, sends first", () -> p.manyOutstanding(perPeer, false));
        c.run("ANY_SOURCE under load", () -> p.anySourceUnderLoad(perPeer));
        // Rank 0's wildcard receives stay posted until it has taken every flood message; a
        // sender that went on to the next phase would have its first message (tag 100 + t)
        // matched by one of them, legally. Seen when the senders finished first.
        MPI.COMM_WORLD.barrier();
        c.run("THREAD_MULTIPLE", () -> p.threads(threads, iterations));
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }

    private static int ints(int i) {
        return i % LARGE_EVERY == LARGE_EVERY - 1 ? LARGE_INTS : 1 + i % 5;
    }

    private static void stamp(int[] buf, int n, int from, int seq) {
        for (int k = 0; k < n; k++) {
            buf[k] = from * 10_000_000 + seq * 8 + k % 8;
        }
    }

    private static boolean stamped(int[] buf, int n, int from, int seq) {
        for (int k = 0; k < n; k++) {
            if (buf[k] != from * 10_000_000 + seq * 8 + k % 8) {
                return false;
            }
        }
        return true;
    }

    /**
     * Every rank sends {@code perPeer} messages with one tag to every other rank and receives as
     * many from each; message i must land in receive i (non-overtaking).
     */
    private void manyOutstanding(int perPeer, boolean receivesFirst) throws MPIException {
        int peers = size - 1;
        Request[] recvs = new Request[perPeer * peers];
        Request[] sends = new Request[perPeer * peers];
        int[][] in = new int[recvs.length][];
        int tag = receivesFirst ? 10 : 11;
        Runnable postRecvs = () -> {
            try {
                int k = 0;
                for (int p = 0; p < size; p++) {
                    if (p == rank) {
                        continue;
                    }
                    for (int i = 0; i < perPeer; i++, k++) {
                        in[k] = new int[ints(i)];
                        recvs[k] = world.iRecv(in[k], in[k].length, MPI.INT, p, tag);
                    }
                }
            } catch (MPIException e) {
                throw new RuntimeException(e);
            }
        };
        if (receivesFirst) {
            postRecvs.run();
            world.barrier();
        }
        int k = 0;
        for (int p = 0; p < size; p++) {
            if (p == rank) {
                continue;
            }
            for (int i = 0; i < perPeer; i++, k++) {
                int[] out = new int[ints(i)];
                stamp(out, out.length, rank, i);
                sends[k] = world.iSend(out, out.length, MPI.INT, p, tag);
            }
        }
        if (!receivesFirst) {
            world.barrier();
            postRecvs.run();
        }
        Status[] st = Request.waitAllStatus(recvs);
        Request.waitAll(sends);
        boolean ok = true;
        String first = null;
        k = 0;
        for (int p = 0; p < size; p++) {
            if (p == rank) {
                continue;
            }
            for (int i = 0; i < perPeer; i++, k++) {
                boolean good = st[k].getSource() == p && st[k].getCount(MPI.INT) == ints(i)
                        && stamped(in[k], ints(i), p, i);
                if (!good && first == null) {
                    first = "receive " + i + " from rank " + p + ": " + st[k] + " first int "
                            + in[k][0];
                }
                ok &= good;
            }
        }
        c.check((receivesFirst ? "receives posted first: " : "sends first: ") + recvs.length
                + " receives and " + sends.length + " sends outstanding, in order", ok, first);
    }

    /** Every rank but 0 floods rank 0, which takes everything with ANY_SOURCE and ANY_TAG. */
    private void anySourceUnderLoad(int perPeer) throws MPIException {
        if (rank != 0) {
            List<Request> pending = new ArrayList<>();
            for (int i = 0; i < perPeer; i++) {
                int[] out = new int[ints(i)];
                stamp(out, out.length, rank, i);
                if (i % 3 == 0) {
                    world.send(out, out.length, MPI.INT, 0, i % 7);
                } else {
                    pending.add(world.iSend(out, out.length, MPI.INT, 0, i % 7));
                }
            }
            Request.waitAll(pending.toArray(Request[]::new));
            c.pass("flooded rank 0 with " + perPeer + " messages");
            return;
        }
        int total = perPeer * (size - 1);
        int window = 16;
        int[] nextSeq = new int[size];
        Request[] ring = new Request[window];
        int[][] bufs = new int[window][LARGE_INTS];
        boolean ok = true;
        String first = null;
        int posted = 0;
        for (; posted < Math.min(window, total); posted++) {
            ring[posted] = world.iRecv(bufs[posted], LARGE_INTS, MPI.INT, MPI.ANY_SOURCE,
                    MPI.ANY_TAG);
        }
        for (int done = 0; done < total; done++) {
            int slot = done % window;
            Status s = ring[slot].waitStatus();
            int src = s.getSource();
            int n = s.getCount(MPI.INT);
            boolean good = src > 0 && src < size && s.getTag() == nextSeq[src] % 7
                    && n == ints(nextSeq[src]) && stamped(bufs[slot], n, src, nextSeq[src]);
            if (!good && first == null) {
                first = "message " + done + ": " + s + " expected seq " + (src > 0 && src < size
                        ? nextSeq[src] : -1) + " first int " + bufs[slot][0];
            }
            ok &= good;
            if (src > 0 && src < size) {
                nextSeq[src]++;
            }
            if (posted < total) {
                ring[slot] = world.iRecv(bufs[slot], LARGE_INTS, MPI.INT, MPI.ANY_SOURCE,
                        MPI.ANY_TAG);
                posted++;
            }
        }
        c.check("ANY_SOURCE/ANY_TAG took " + total + " messages in per-source order", ok, first);
    }

    /**
     * {@code threads} threads per rank at once: thread t exchanges with the next and previous
     * ranks on its own tags, in turns of nonblocking, blocking, sendRecv, probe+recv and
     * waitAny, with eager and rendezvous sizes.
     */
    private void threads(int threads, int iterations) throws Exception {
        int next = (rank + 1) % size;
        int prev = (rank - 1 + size) % size;
        AtomicReference<String> failure = new AtomicReference<>();
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int tag = 100 + t;
            Thread th = new Thread(() -> {
                try {
                    for (int i = 0; i < iterations; i++) {
                        int n = ints(i + tag);
                        int[] out = new int[n];
                        stamp(out, n, rank, i);
                        int[] in = new int[n];
                        Status s;
                        switch (i % 5) {
                            case 0 -> {
                                Request r = world.iRecv(in, n, MPI.INT, prev, tag);
                                Request w = world.iSend(out, n, MPI.INT, next, tag);
                                Request.waitAll(new Request[] {w, r});
                                s = null;
                            }
                            case 1 -> {
                                Request r = world.iRecv(in, n, MPI.INT, prev, tag);
                                world.send(out, n, MPI.INT, next, tag);
                                s = r.waitStatus();
                            }
                            case 2 -> s = world.sendRecv(out, n, MPI.INT, next, tag, in, n,
                                    MPI.INT, prev, tag);
                            case 3 -> {
                                Request w = world.iSend(out, n, MPI.INT, next, tag);
                                Status p = world.probe(prev, tag);
                                if (p.getCount(MPI.INT) != n) {
                                    throw new IllegalStateException("probe count "
                                            + p.getCount(MPI.INT) + " != " + n);
                                }
                                s = world.recv(in, n, MPI.INT, prev, tag);
                                w.waitFor();
                            }
                            default -> {
                                ByteBuffer direct = MPI.newByteBuffer(n * 4);
                                Request[] rs = {world.iRecv(direct, n * 4, MPI.BYTE, prev, tag),
                                    world.iSend(out, n, MPI.INT, next, tag)};
                                int got = 0;
                                while (got < 2) {
                                    Request.waitAny(rs);
                                    got++;
                                }
                                direct.asIntBuffer().get(in);
                                s = null;
                            }
                        }
                        if ((s != null && (s.getSource() != prev || s.getTag() != tag))
                                || !stamped(in, n, prev, i)) {
                            throw new IllegalStateException("thread tag " + tag + " iteration "
                                    + i + ": status " + s + " first int " + in[0]);
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, Checks.stackTrace(e));
                }
            }, "mpi-test-" + t);
            all.add(th);
        }
        all.forEach(Thread::start);
        for (Thread th : all) {
            th.join();
        }
        c.check(threads + " threads x " + iterations + " exchanges each at once",
                failure.get() == null, failure.get());
    }
}
