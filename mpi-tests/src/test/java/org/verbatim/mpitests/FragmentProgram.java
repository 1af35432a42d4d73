package org.verbatim.mpitests;

import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Message;
import mpi.Request;
import mpi.Status;

/**
 * Noncontiguous messages larger than one eager record, run with the layout scheme forced to
 * eager fragments ({@code FragmentTest}: a small shm eager size, so most messages are many
 * fragments): sizes just below, at and above multiples of the fragment, receives posted before
 * and after the message (entirely or partly) arrived, probe and matched probe, wildcard receives
 * from two senders whose fragments interleave in one inbox, order with eager messages of the
 * same tag, truncation, partial receives, cancel, and a contiguous receive of a vector. Rank 0
 * sends to rank 1 unless said otherwise; every receive buffer's gaps must keep their sentinels.
 *
 * <p>Argument: the fragment's data bytes (the transport's eager size less the 32-byte header and
 * the 80 bytes of alignment slack, rounded down to 64).
 */
public final class FragmentProgram {
    private final Checks c;
    private final Intracomm world = MPI.COMM_WORLD;
    private final int rank;
    private final int size;
    private final int fragment;

    private FragmentProgram(Checks c, int rank, int size, int fragment) {
        this.c = c;
        this.rank = rank;
        this.size = size;
        this.fragment = fragment;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Checks c = new Checks(rank);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        FragmentProgram p = new FragmentProgram(c, rank, size, Integer.parseInt(args[0]));
        c.run("straddling sizes, receive first", () -> p.straddling(false));
        c.run("straddling sizes, receive after the message", () -> p.straddling(true));
        c.run("receive posted while the message arrives", p::whileArriving);
        c.run("probe and matched probe", p::probes);
        c.run("order with eager messages", p::order);
        c.run("truncation", p::truncation);
        c.run("partial receive", p::partial);
        c.run("cancel", p::cancel);
        c.run("contiguous receive of a vector", p::contiguousReceive);
        c.run("paper's matrix, direct buffers", p::matrix);
        if (size >= 3) {
            c.run("wildcard receives from two senders", p::wildcards);
        }
        c.run("no allocation per fragment", p::allocation);
        int status = c.summary();
        MPI.Finalize();
        System.exit(status);
    }

    /** Every other int of {@code ints * 2}: blocks of 4 bytes, so cuts fall anywhere. */
    private static Datatype everyOther(int ints) throws Exception {
        Datatype t = Datatype.createVector(ints, 1, 2, MPI.INT);
        t.commit();
        return t;
    }

    private static int[] expectEveryOther(int sender, int ints, int length) {
        int[] e = DatatypeCases.sentinels(length);
        for (int i = 0; i < ints; i++) {
            e[2 * i] = DatatypeCases.value(sender, 2 * i);
        }
        return e;
    }

    private int[] straddlingInts() {
        int f = fragment / 4;
        return new int[] {f - 1, f, f + 1, 2 * f - 1, 2 * f, 2 * f + 1, 3 * f + 7, 40 * f + 3};
    }

    private void straddling(boolean late) throws Exception {
        int tag = late ? 20 : 10;
        for (int ints : straddlingInts()) {
            Datatype t = everyOther(ints);
            int len = 2 * ints + 2;
            if (rank == 0) {
                int[] send = DatatypeCases.sendBuffer(0, len);
                world.send(send, 1, t, 1, tag);
                world.barrier();
            } else if (rank == 1) {
                int[] recv = DatatypeCases.sentinels(len);
                Status st;
                if (late) {
                    world.barrier(); // the whole message is unexpected by now
                    st = world.recv(recv, 1, t, 0, tag);
                } else {
                    Request r = world.iRecv(recv, 1, t, 0, tag);
                    world.barrier();
                    st = r.waitStatus();
                }
                int[] want = expectEveryOther(0, ints, len);
                c.check(ints + " ints data", Arrays.equals(want, recv), DatatypeCases.diff(want, recv));
                c.equal(ints + " ints count", 1, st.getCount(t));
                c.equal(ints + " ints elements", ints, st.getElements(MPI.INT));
            } else {
                world.barrier();
            }
            t.free();
        }
    }

    /**
     * A message far larger than the inbox (the test runs with a small one): the receiver sees
     * its first fragment by probe and posts the receive while the rest is still on its way.
     */
    private void whileArriving() throws Exception {
        int ints = 64 * fragment / 4 + 5;
        Datatype t = everyOther(ints);
        int len = 2 * ints;
        if (rank == 0) {
            world.send(DatatypeCases.sendBuffer(0, len), 1, t, 1, 30);
        } else if (rank == 1) {
            Status p = world.probe(0, 30);
            c.equal("probe elements", ints, p.getElements(MPI.INT));
            int[] recv = DatatypeCases.sentinels(len);
            world.recv(recv, 1, t, 0, 30);
            int[] want = expectEveryOther(0, ints, len);
            c.check("data", Arrays.equals(want, recv), DatatypeCases.diff(want, recv));
        }
        world.barrier();
        t.free();
    }

    private void probes() throws Exception {
        int ints = 5 * fragment / 4 + 3;
        Datatype t = everyOther(ints);
        int len = 2 * ints;
        if (rank == 0) {
            int[] send = DatatypeCases.sendBuffer(0, len);
            world.send(send, 1, t, 1, 40);
            world.send(send, 1, t, 1, 41);
        } else if (rank == 1) {
            Status p = world.probe(0, 40);
            c.equal("probe count", 1, p.getCount(t));
            int[] recv = DatatypeCases.sentinels(len);
            world.recv(recv, 1, t, 0, 40);
            int[] want = expectEveryOther(0, ints, len);
            c.check("probed data", Arrays.equals(want, recv), DatatypeCases.diff(want, recv));
            Message m = new Message();
            m.mProbe(0, MPI.ANY_TAG, world);
            IntBuffer in = MPI.newIntBuffer(len).put(0, DatatypeCases.sentinels(len));
            Status st = m.mRecv(in, 1, t);
            c.equal("matched probe tag", 41, st.getTag());
            in.get(0, recv);
            c.check("matched-probe data", Arrays.equals(want, recv), DatatypeCases.diff(want, recv));
        }
        world.barrier();
        t.free();
    }

    /** Fragmented, eager, fragmented, eager on one tag: received in the order sent. */
    private void order() throws Exception {
        int ints = 3 * fragment / 4 + 1;
        Datatype t = everyOther(ints);
        int len = 2 * ints;
        if (rank == 0) {
            Request[] rs = new Request[6];
            for (int i = 0; i < 6; i++) {
                int[] send = DatatypeCases.sendBuffer(i, len);
                rs[i] = i % 2 == 0 ? world.iSend(send, 1, t, 1, 50)
                        : world.iSend(send, 1, MPI.INT, 1, 50);
            }
            Request.waitAll(rs);
        } else if (rank == 1) {
            world.barrier();
            for (int i = 0; i < 6; i++) {
                int[] recv = DatatypeCases.sentinels(len);
                Status st = world.recv(recv, 1, t, 0, i % 3 == 0 ? 50 : MPI.ANY_TAG);
                int ints2 = i % 2 == 0 ? ints : 1;
                int[] want = expectEveryOther(i, ints2, len);
                c.check("message " + i + " in order", Arrays.equals(want, recv),
                        DatatypeCases.diff(want, recv));
                c.equal("message " + i + " elements", ints2, st.getElements(MPI.INT));
            }
        }
        if (rank != 1) {
            world.barrier();
        }
        world.barrier();
        t.free();
    }

    /** A message larger than the receive: MPI_ERR_TRUNCATE, the stream intact behind it. */
    private void truncation() throws Exception {
        int ints = 3 * fragment / 4 + 9;
        int fits = fragment / 4 + 2;
        Datatype t = everyOther(ints);
        Datatype small = everyOther(fits);
        int len = 2 * ints;
        if (rank == 0) {
            int[] send = DatatypeCases.sendBuffer(0, len);
            world.send(send, 1, t, 1, 60);
            world.send(send, 1, t, 1, 61);
        } else if (rank == 1) {
            int[] recv = DatatypeCases.sentinels(len);
            Request r = world.iRecv(recv, 1, small, 0, 60);
            c.expectError("truncated", MPI.ERR_TRUNCATE, null, r::waitFor);
            int[] want = expectEveryOther(0, fits, len);
            c.check("truncated data: what fits, gaps and the rest untouched",
                    Arrays.equals(want, recv), DatatypeCases.diff(want, recv));
            recv = DatatypeCases.sentinels(len);
            world.recv(recv, 1, t, 0, 61);
            want = expectEveryOther(0, ints, len);
            c.check("the next message", Arrays.equals(want, recv), DatatypeCases.diff(want, recv));
        }
        world.barrier();
        t.free();
        small.free();
    }

    /** Fewer bytes than the receive holds: elements counted, count undefined. */
    private void partial() throws Exception {
        int ints = 2 * fragment / 4 + 3;
        Datatype t = everyOther(ints);
        int len = 2 * ints + 40;
        if (rank == 0) {
            world.send(DatatypeCases.sendBuffer(0, len), 1, t, 1, 70);
        } else if (rank == 1) {
            Datatype larger = everyOther(ints + 20);
            int[] recv = DatatypeCases.sentinels(len);
            Status st = world.recv(recv, 1, larger, 0, 70);
            c.equal("elements", ints, st.getElements(larger));
            c.equal("count", MPI.UNDEFINED, st.getCount(larger));
            int[] want = expectEveryOther(0, ints, len);
            c.check("data", Arrays.equals(want, recv), DatatypeCases.diff(want, recv));
            larger.free();
        }
        world.barrier();
        t.free();
    }

    private void cancel() throws Exception {
        int ints = 2 * fragment / 4 + 3;
        Datatype t = everyOther(ints);
        int len = 2 * ints;
        if (rank == 1) {
            Request never = world.iRecv(new int[len], 1, t, 0, 999);
            never.cancel();
            Status s = never.waitStatus();
            c.check("cancelled", s.isCancelled(), "status " + s);
            int[] recv = DatatypeCases.sentinels(len);
            world.recv(recv, 1, t, 0, 80);
            int[] want = expectEveryOther(0, ints, len);
            c.check("data after the cancel", Arrays.equals(want, recv), DatatypeCases.diff(want, recv));
        } else if (rank == 0) {
            world.send(DatatypeCases.sendBuffer(0, len), 1, t, 1, 80);
        }
        world.barrier();
        t.free();
    }

    private void contiguousReceive() throws Exception {
        int ints = 4 * fragment / 4 + 1;
        Datatype t = everyOther(ints);
        if (rank == 0) {
            world.send(DatatypeCases.sendBuffer(0, 2 * ints), 1, t, 1, 90);
        } else if (rank == 1) {
            int[] recv = DatatypeCases.sentinels(ints + 1);
            Status st = world.recv(recv, ints + 1, MPI.INT, 0, 90);
            c.equal("count", ints, st.getCount(MPI.INT));
            boolean ok = recv[ints] == DatatypeCases.sentinels(1)[0];
            for (int i = 0; i < ints; i++) {
                ok &= recv[i] == DatatypeCases.value(0, 2 * i);
            }
            c.check("packed order", ok, Arrays.toString(Arrays.copyOf(recv, 12)));
        }
        world.barrier();
        t.free();
    }

    /** x columns of the 128 x 4096 int matrix, both sides MPI.newIntBuffer, both directions. */
    private void matrix() throws Exception {
        for (int cols : new int[] {64, 1024}) {
            Datatype t = Datatype.createVector(128, cols, 4096, MPI.INT);
            t.commit();
            int len = 128 * 4096;
            if (rank <= 1) {
                int other = 1 - rank;
                IntBuffer out = MPI.newIntBuffer(len).put(0, DatatypeCases.sendBuffer(rank, len));
                IntBuffer in = MPI.newIntBuffer(len).put(0, DatatypeCases.sentinels(len));
                world.sendRecv(out, 1, t, other, 100, in, 1, t, other, 100);
                int[] got = new int[len];
                in.get(0, got);
                int[] want = DatatypeCases.sentinels(len);
                for (int row = 0; row < 128; row++) {
                    for (int col = 0; col < cols; col++) {
                        want[row * 4096 + col] = DatatypeCases.value(other, row * 4096 + col);
                    }
                }
                c.check(cols + " columns", Arrays.equals(want, got), DatatypeCases.diff(want, got));
            }
            world.barrier();
            t.free();
        }
    }

    /** Ranks 1 and 2 both send fragmented messages to rank 0, which takes them by ANY_SOURCE. */
    private void wildcards() throws Exception {
        int ints = 6 * fragment / 4 + 11;
        Datatype t = everyOther(ints);
        int len = 2 * ints;
        int rounds = 8;
        if (rank == 1 || rank == 2) {
            for (int i = 0; i < rounds; i++) {
                world.send(DatatypeCases.sendBuffer(rank * 10 + i, len), 1, t, 0, 110 + rank);
            }
            int[] taken = new int[1];
            world.recv(taken, 1, MPI.INT, 0, 120);
            c.equal("rank 0 took all of this rank's messages", rounds, taken[0]);
        } else if (rank == 0) {
            int[] next = {0, 0, 0};
            for (int k = 0; k < 2 * rounds; k++) {
                int[] recv = DatatypeCases.sentinels(len);
                Status st = world.recv(recv, 1, t, MPI.ANY_SOURCE, MPI.ANY_TAG);
                int from = st.getSource();
                c.equal("tag of " + from, 110 + from, st.getTag());
                int[] want = expectEveryOther(from * 10 + next[from]++, ints, len);
                c.check("message " + k + " from " + from, Arrays.equals(want, recv),
                        DatatypeCases.diff(want, recv));
            }
            world.send(new int[] {next[1]}, 1, MPI.INT, 1, 120);
            world.send(new int[] {next[2]}, 1, MPI.INT, 2, 120);
        }
        world.barrier();
        t.free();
    }

    /**
     * Bytes allocated per message by the sending and the receiving thread for messages of 8 and
     * of 200 fragments (the same layout shape, 64 bytes per block): what a message allocates
     * (request, operation, cursor) must not grow with its fragments. The receives are posted
     * first, so no unexpected buffer is involved.
     */
    private void allocation() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory
                .getThreadMXBean();
        int messages = 50;
        long[] perMessage = new long[2];
        int[] fragments = {8, 200};
        for (int round = 0; round < 3; round++) { // the first two warm the paths up
            for (int k = 0; k < 2; k++) {
                int blocks = fragments[k] * fragment / 64;
                Datatype t = Datatype.createVector(blocks, 16, 32, MPI.INT);
                t.commit();
                IntBuffer buf = MPI.newIntBuffer(blocks * 32);
                Request[] rs = new Request[messages];
                world.barrier();
                long before = threads.getCurrentThreadAllocatedBytes();
                if (rank == 1) {
                    for (int i = 0; i < messages; i++) {
                        rs[i] = world.iRecv(buf, 1, t, 0, 130);
                    }
                }
                world.barrier(); // the receives are posted
                if (rank == 0) {
                    before = threads.getCurrentThreadAllocatedBytes();
                    for (int i = 0; i < messages; i++) {
                        world.send(buf, 1, t, 1, 130);
                    }
                } else if (rank == 1) {
                    Request.waitAll(rs);
                }
                perMessage[k] = (threads.getCurrentThreadAllocatedBytes() - before) / messages;
                world.barrier();
                t.free();
            }
        }
        if (rank <= 1) {
            System.out.println("rank " + rank + " bytes allocated per message of 8 / 200"
                    + " fragments: " + perMessage[0] + " / " + perMessage[1]);
            c.check("allocation does not grow with the fragments",
                    perMessage[1] <= perMessage[0] + 512, perMessage[0] + " / " + perMessage[1]);
        }
    }
}
