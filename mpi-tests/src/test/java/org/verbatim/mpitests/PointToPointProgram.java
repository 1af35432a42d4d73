package org.verbatim.mpitests;

import java.lang.foreign.Arena;
import java.nio.Buffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Point-to-point over every buffer kind, datatype, send mode and protocol boundary, on any number
 * of ranks (each rank sends to the next and receives from the previous one).
 *
 * <p>Arguments: {@code expectedSize configuredEagerLimit [big]}; {@code big} adds 64 MiB messages
 * between ranks 0 and 1.
 */
public final class PointToPointProgram {
    /** The shm transport's default eager size (runtime header included) caps the eager limit. */
    static final int SHM_EAGER_SIZE = 16384;
    /** The runtime's eager header (org.verbatim.runtime.WireHeader.BASE_SIZE). */
    static final int HEADER = 32;

    enum How {
        RING_SEND, RING_SSEND, RING_BSEND, IRECV_SEND, IRECV_SSEND, IRECV_RSEND, IRECV_BSEND,
        ISEND, ISSEND, IBSEND, IRSEND, SENDRECV, PERSISTENT;

        boolean needsBuffer() {
            return this == ISSEND || this == IBSEND || this == IRSEND || this == PERSISTENT;
        }
    }

    private final Checks c;
    private final Intracomm world = MPI.COMM_WORLD;
    private final int rank;
    private final int size;
    private final int next;
    private final int prev;
    private final Arena arena = Arena.ofShared();

    private PointToPointProgram(Checks c, int rank, int size) {
        this.c = c;
        this.rank = rank;
        this.size = size;
        this.next = (rank + 1) % size;
        this.prev = (rank - 1 + size) % size;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Checks c = new Checks(rank);
        int expectedSize = Integer.parseInt(args[0]);
        long configuredEager = Long.parseLong(args[1]);
        boolean big = args.length > 2 && args[2].equals("big");
        PointToPointProgram p = new PointToPointProgram(c, rank, size);
        MPI.attachBuffer(new byte[4 << 20]);
        c.run("environment", () -> p.environment(expectedSize));
        c.run("kinds and types", p::kindsAndTypes);
        c.run("send modes", p::sendModes);
        c.run("protocol boundaries", () -> p.boundaries(configuredEager));
        c.run("bSend is local", p::bsendIsLocal);
        c.run("booleans", p::booleans);
        c.run("sendRecvReplace", p::sendRecvReplace);
        c.run("wildcards and PROC_NULL", p::wildcardsAndProcNull);
        c.run("self", p::self);
        c.run("probe", p::probe);
        c.run("matched probe", p::matchedProbe);
        c.run("requests", p::requests);
        c.run("cancel and free", p::cancelAndFree);
        c.run("persistent", p::persistent);
        c.run("communicators", p::communicators);
        if (big) {
            c.run("64 MiB", p::huge);
        }
        c.run("bsend detach", () -> {
            byte[] b = MPI.detachBuffer();
            c.equal("detachBuffer returns the attached buffer", 4 << 20, b == null ? -1 : b.length);
        });
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        c.check("isFinalized after Finalize", MPI.isFinalized(), "false");
        c.check("isInitialized after Finalize", MPI.isInitialized(), "false");
        System.exit(c.summary());
    }

    private int seed(int from, int tag) {
        return from * 1009 + tag;
    }

    // ------------------------------------------------------------------ environment

    private void environment(int expectedSize) throws Exception {
        c.equal("size", expectedSize, size);
        c.check("rank in range", rank >= 0 && rank < size, "rank " + rank);
        c.check("isInitialized", MPI.isInitialized(), "false");
        c.check("not isFinalized", !MPI.isFinalized(), "true");
        c.equal("queryThread after Init", MPI.THREAD_SINGLE, MPI.queryThread());
        c.check("isThreadMain on main", MPI.isThreadMain(), "false");
        boolean[] other = new boolean[] {true};
        Thread t = new Thread(() -> {
            try {
                other[0] = MPI.isThreadMain();
            } catch (MPIException e) {
                other[0] = true;
            }
        });
        t.start();
        t.join();
        c.check("isThreadMain on another thread", !other[0], "true");
        double w0 = MPI.wtime();
        Thread.sleep(20);
        double w1 = MPI.wtime();
        c.check("wtime advances", w1 - w0 >= 0.015 && w1 - w0 < 5, "delta " + (w1 - w0));
        c.check("wtick", MPI.wtick() > 0 && MPI.wtick() <= 1e-3, "wtick " + MPI.wtick());
        String host = MPI.getProcessorName();
        c.check("getProcessorName", host != null && !host.isEmpty(), "'" + host + "'");
        c.equal("COMM_SELF size", 1, MPI.COMM_SELF.getSize());
        c.equal("COMM_SELF rank", 0, MPI.COMM_SELF.getRank());
        c.equal("COMM_WORLD name", "MPI_COMM_WORLD", world.getName());
        c.equal("COMM_SELF name", "MPI_COMM_SELF", MPI.COMM_SELF.getName());
        c.check("default errhandler ERRORS_ARE_FATAL", world.getErrhandler() == MPI.ERRORS_ARE_FATAL,
                String.valueOf(world.getErrhandler()));
        c.check("getVersion", MPI.getVersion().getVersion() >= 3, String.valueOf(MPI.getVersion()));
        // All processor names are gathered on rank 0: as many distinct ones as the job has hosts
        // (-Dverbatim.test.hosts, 1 by default), and on one host all equal to rank 0's.
        byte[] name = host.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (rank == 0) {
            int hosts = Integer.getInteger("verbatim.test.hosts", 1);
            java.util.Set<String> names = new java.util.TreeSet<>(java.util.List.of(host));
            for (int r = 1; r < size; r++) {
                byte[] got = new byte[256];
                Status s = world.recv(got, 256, MPI.BYTE, r, 1);
                String h = new String(got, 0, s.getCount(MPI.BYTE),
                        java.nio.charset.StandardCharsets.UTF_8);
                c.check("processor name of rank " + r, !h.isEmpty() && (hosts > 1 || h.equals(host)),
                        "'" + h + "' (rank 0: '" + host + "', hosts " + hosts + ")");
                names.add(h);
            }
            c.equal("distinct processor names " + names, Math.min(hosts, size), names.size());
        } else {
            world.send(name, name.length, MPI.BYTE, 0, 1);
        }
    }

    // ------------------------------------------------------------------ exchanges

    /**
     * Every rank sends {@code send} (filled with its pattern) to the next rank and receives into
     * {@code recv} from the previous one, the way {@code how} says; then checks status and data.
     */
    private void exchange(String name, How how, TestBuffer send, TestBuffer recv, int tag)
            throws MPIException {
        if (size == 1 && (how == How.RING_SEND || how == How.RING_SSEND)) {
            return; // a blocking send to oneself before the receive may wait forever (MPI 3.5)
        }
        send.fill(seed(rank, tag));
        recv.poison();
        Status st = switch (how) {
            case RING_SEND, RING_SSEND, RING_BSEND -> {
                Status s;
                if (rank == 0) {
                    blockingSend(how, send, tag);
                    s = world.recv(recv.buf, recv.count, recv.type, prev, tag);
                } else {
                    s = world.recv(recv.buf, recv.count, recv.type, prev, tag);
                    blockingSend(how, send, tag);
                }
                yield s;
            }
            case IRECV_SEND, IRECV_SSEND, IRECV_RSEND, IRECV_BSEND -> {
                Request r = Ops.iRecv(world, recv, prev, tag);
                if (how == How.IRECV_RSEND) {
                    world.barrier(); // every receive is posted before any ready send
                }
                blockingSend(how, send, tag);
                yield r.waitStatus();
            }
            case ISEND, ISSEND, IBSEND, IRSEND -> {
                Request r = Ops.iRecv(world, recv, prev, tag);
                if (how == How.IRSEND) {
                    world.barrier();
                }
                Request s = switch (how) {
                    case ISEND -> Ops.iSend(world, send, next, tag);
                    case ISSEND -> world.isSend((Buffer) send.buf, send.count, send.type, next, tag);
                    case IBSEND -> world.ibSend((Buffer) send.buf, send.count, send.type, next, tag);
                    default -> world.irSend((Buffer) send.buf, send.count, send.type, next, tag);
                };
                Status[] all = Request.waitAllStatus(new Request[] {s, r});
                c.check(name + ": requests null after waitAll", s.isNull() && r.isNull(),
                        "send null " + s.isNull() + ", recv null " + r.isNull());
                yield all[1];
            }
            case SENDRECV -> world.sendRecv(send.buf, send.count, send.type, next, tag, recv.buf,
                    recv.count, recv.type, prev, tag);
            case PERSISTENT -> {
                Prequest r = world.recvInit((Buffer) recv.buf, recv.count, recv.type, prev, tag);
                Prequest s = world.sendInit((Buffer) send.buf, send.count, send.type, next, tag);
                r.start();
                s.start();
                s.waitFor();
                Status x = r.waitStatus();
                r.free();
                s.free();
                yield x;
            }
        };
        verify(name, st, recv, prev, tag);
    }

    private void blockingSend(How how, TestBuffer b, int tag) throws MPIException {
        switch (how) {
            case RING_SEND, IRECV_SEND -> world.send(b.buf, b.count, b.type, next, tag);
            case RING_SSEND, IRECV_SSEND -> world.sSend(b.buf, b.count, b.type, next, tag);
            case RING_BSEND, IRECV_BSEND -> world.bSend(b.buf, b.count, b.type, next, tag);
            case IRECV_RSEND -> world.rSend(b.buf, b.count, b.type, next, tag);
            default -> throw new IllegalStateException(how.toString());
        }
    }

    private void verify(String name, Status st, TestBuffer recv, int from, int tag)
            throws MPIException {
        boolean ok = st != null && st.getSource() == from && st.getTag() == tag
                && st.getCount(recv.type) == recv.count && st.getError() == 0 && !st.isCancelled()
                && st.getElements(recv.type) == recv.count;
        String data = recv.verify(seed(from, tag));
        c.check(name, ok && data == null, "status " + st + (st == null ? ""
                : " count " + st.getCount(recv.type)) + " (expected source " + from + " tag " + tag
                + " count " + recv.count + ")" + (data == null ? "" : "; data: " + data));
    }

    private static final Datatype[] TYPES = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.INT, MPI.LONG,
        MPI.FLOAT, MPI.DOUBLE};

    private void kindsAndTypes() throws MPIException {
        TestBuffer.Kind[] kinds = TestBuffer.Kind.values();
        int tag = 1000;
        for (int k = 0; k < kinds.length; k++) {
            for (Datatype t : TYPES) {
                int elem = TestBuffer.elementSize(t);
                for (int count : new int[] {37, 40000 / elem}) {
                    TestBuffer.Kind sk = kinds[k];
                    TestBuffer.Kind rk = kinds[(k + 1 + tag) % kinds.length];
                    TestBuffer s = TestBuffer.create(sk, t, count, arena);
                    TestBuffer r = TestBuffer.create(rk, t, count, arena);
                    exchange("send " + s + " -> recv " + r.kind, How.IRECV_SEND, s, r, tag++);
                }
            }
        }
    }

    private void sendModes() throws MPIException {
        int tag = 2000;
        for (How how : How.values()) {
            for (int count : new int[] {1, 25, 100_000}) {
                for (TestBuffer.Kind kind : new TestBuffer.Kind[] {TestBuffer.Kind.ARRAY,
                    TestBuffer.Kind.SLICE_DIRECT, TestBuffer.Kind.HEAP}) {
                    TestBuffer s = TestBuffer.create(kind, MPI.INT, count, arena);
                    TestBuffer r = TestBuffer.create(kind, MPI.INT, count, arena);
                    if (how.needsBuffer() && !Ops.isBuffer(s)) {
                        continue;
                    }
                    exchange(how + " " + s, how, s, r, tag++);
                }
            }
        }
    }

    private void boundaries(long configuredEager) throws MPIException {
        long capped = SHM_EAGER_SIZE - HEADER;
        long effective = Math.min(configuredEager, capped);
        List<Long> sizes = new ArrayList<>(List.of(0L, 1L, 2L));
        for (long limit : new long[] {effective, capped, configuredEager, SHM_EAGER_SIZE}) {
            for (long d = -1; d <= 1; d++) {
                if (!sizes.contains(limit + d)) {
                    sizes.add(limit + d);
                }
            }
        }
        sizes.add(1L << 20);
        sizes.add((1L << 20) + 3);
        int tag = 3000;
        for (long bytes : sizes) {
            for (TestBuffer.Kind kind : new TestBuffer.Kind[] {TestBuffer.Kind.ARRAY,
                TestBuffer.Kind.DIRECT, TestBuffer.Kind.SEGMENT}) {
                for (How how : new How[] {How.IRECV_SEND, How.RING_SSEND, How.ISEND}) {
                    TestBuffer s = TestBuffer.create(kind, MPI.BYTE, (int) bytes, arena);
                    TestBuffer r = TestBuffer.create(kind, MPI.BYTE, (int) bytes, arena);
                    exchange(how + " " + bytes + " B " + kind + " (eager limit " + effective + ")",
                            how, s, r, tag++);
                }
            }
        }
        // A longer receive buffer than the message: only the message's bytes are written.
        for (long bytes : new long[] {0, 5, effective, effective + 1, 200_000}) {
            TestBuffer s = TestBuffer.create(TestBuffer.Kind.ARRAY, MPI.BYTE, (int) bytes, arena);
            TestBuffer r = TestBuffer.create(TestBuffer.Kind.DIRECT, MPI.BYTE, (int) bytes + 100,
                    arena);
            s.fill(seed(rank, tag));
            Request rq = Ops.iRecv(world, r, prev, tag);
            world.send(s.buf, s.count, MPI.BYTE, next, tag);
            Status st = rq.waitStatus();
            String data = r.verify(seed(prev, tag), bytes);
            String rest = data != null ? data : r.untouchedFrom(bytes);
            c.check("short message " + bytes + " B into a " + (bytes + 100) + " B buffer",
                    st.getCount(MPI.BYTE) == bytes && rest == null,
                    "count " + st.getCount(MPI.BYTE) + "; " + rest);
            tag++;
        }
    }

    /** Every rank bSends a rendezvous-sized message before receiving: must not wait. */
    private void bsendIsLocal() throws MPIException {
        int n = 100_000;
        int[] out = new int[n];
        java.util.Arrays.fill(out, rank);
        world.bSend(out, n, MPI.INT, next, 88);
        Request r = world.ibSend(MPI.newIntBuffer(n), n, MPI.INT, next, 89);
        c.check("ibSend request completes before the receive is posted", r.test(), "pending");
        int[] in = new int[n];
        Status s = world.recv(in, n, MPI.INT, prev, 88);
        world.recv(new int[n], n, MPI.INT, prev, 89);
        c.check("bSend before the matching receive", s.getCount(MPI.INT) == n
                && in[n - 1] == prev, "status " + s);
    }

    private void booleans() throws MPIException {
        boolean[] out = new boolean[50];
        for (int i = 0; i < out.length; i++) {
            out[i] = (i * 7 + rank) % 3 == 0;
        }
        boolean[] in = new boolean[50];
        Request r = world.iRecv(in, 50, MPI.BOOLEAN, prev, 77);
        world.send(out, 50, MPI.BOOLEAN, next, 77);
        Status st = r.waitStatus();
        boolean ok = st.getCount(MPI.BOOLEAN) == 50;
        for (int i = 0; i < in.length; i++) {
            ok &= in[i] == ((i * 7 + prev) % 3 == 0);
        }
        c.check("boolean[] with MPI.BOOLEAN", ok, java.util.Arrays.toString(in));
    }

    private void sendRecvReplace() throws MPIException {
        for (int count : new int[] {0, 3, 10_000, 300_000}) {
            int tag = 4000 + count % 1000;
            int[] buf = new int[count];
            for (int i = 0; i < count; i++) {
                buf[i] = rank * 1_000_000 + i;
            }
            Status st = world.sendRecvReplace(buf, count, MPI.INT, next, tag, prev, tag);
            boolean ok = st.getSource() == prev && st.getTag() == tag
                    && st.getCount(MPI.INT) == count;
            for (int i = 0; i < count && ok; i++) {
                ok = buf[i] == prev * 1_000_000 + i;
            }
            c.check("sendRecvReplace " + count + " ints", ok, "status " + st);
        }
        int[] keep = {42};
        Status st = world.sendRecvReplace(keep, 1, MPI.INT, MPI.PROC_NULL, 1, MPI.PROC_NULL, 1);
        c.check("sendRecvReplace with PROC_NULL", keep[0] == 42
                && st.getSource() == MPI.PROC_NULL, "buf " + keep[0] + " status " + st);
    }

    private void wildcardsAndProcNull() throws MPIException {
        int[] buf = {rank, 99};
        int[] in = new int[2];
        if (rank == 0) {
            world.send(buf, 2, MPI.INT, next, 55);
            Status s = world.recv(in, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            c.check("recv ANY_SOURCE ANY_TAG", s.getSource() == prev && s.getTag() == 55
                    && in[0] == prev, "status " + s + " data " + in[0]);
        } else {
            Status s = world.recv(in, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            c.check("recv ANY_SOURCE ANY_TAG", s.getSource() == prev && s.getTag() == 55
                    && in[0] == prev, "status " + s + " data " + in[0]);
            world.send(buf, 2, MPI.INT, next, 55);
        }
        world.send(buf, 2, MPI.INT, MPI.PROC_NULL, 5);
        world.sSend(buf, 2, MPI.INT, MPI.PROC_NULL, 5);
        int[] untouched = {-7, -7};
        Status s = world.recv(untouched, 2, MPI.INT, MPI.PROC_NULL, 5);
        c.check("recv from PROC_NULL", s.getSource() == MPI.PROC_NULL && s.getTag() == MPI.ANY_TAG
                && s.getCount(MPI.INT) == 0 && untouched[0] == -7, "status " + s);
        Request r = world.iRecv(MPI.newIntBuffer(2), 2, MPI.INT, MPI.PROC_NULL, 5);
        Status rs = r.waitStatus();
        c.check("iRecv from PROC_NULL", rs.getSource() == MPI.PROC_NULL
                && rs.getCount(MPI.INT) == 0, "status " + rs);
        Request sr = world.iSend(MPI.newIntBuffer(2), 2, MPI.INT, MPI.PROC_NULL, 5);
        c.check("iSend to PROC_NULL completes", sr.test(), "not complete");
        Status srs = world.sendRecv(buf, 2, MPI.INT, MPI.PROC_NULL, 1, untouched, 2, MPI.INT,
                MPI.PROC_NULL, 1);
        c.check("sendRecv with PROC_NULL", srs.getSource() == MPI.PROC_NULL && untouched[0] == -7,
                "status " + srs);
    }

    private void self() throws MPIException {
        for (int count : new int[] {0, 1, 1000, 1_000_000}) {
            for (Comm comm : new Comm[] {world, MPI.COMM_SELF}) {
                int me = comm.getRank();
                TestBuffer s = TestBuffer.create(TestBuffer.Kind.DIRECT, MPI.BYTE, count, arena);
                TestBuffer r = TestBuffer.create(TestBuffer.Kind.ARRAY, MPI.BYTE, count, arena);
                s.fill(seed(me, 61));
                Request rq = Ops.iSend(comm, s, me, 61);
                Status st = comm.recv(r.buf, count, MPI.BYTE, me, 61);
                rq.waitFor();
                String data = r.verify(seed(me, 61));
                c.check("send to self on " + comm.getName() + " " + count + " B",
                        data == null && st.getSource() == me && st.getCount(MPI.BYTE) == count,
                        "status " + st + " " + data);
            }
        }
    }

    private void probe() throws MPIException {
        int[] three = {1, 2, 3};
        int[] five = {5, 6, 7, 8, 9};
        Request a = world.iSend(three, 3, MPI.INT, next, 11);
        Request b = world.iSend(five, 5, MPI.INT, next, 12);
        Status p = world.probe(prev, MPI.ANY_TAG);
        c.check("probe sees the first message", p.getSource() == prev && p.getTag() == 11
                && p.getCount(MPI.INT) == 3, "status " + p + " count " + p.getCount(MPI.INT));
        Status q = null;
        long end = System.nanoTime() + 20_000_000_000L;
        while (q == null && System.nanoTime() < end) {
            q = world.iProbe(prev, 12);
        }
        c.check("iProbe by tag", q != null && q.getTag() == 12 && q.getCount(MPI.INT) == 5,
                "status " + q);
        c.check("iProbe with no match", world.iProbe(prev, 13) == null, "found a message");
        Status any = world.iProbe(MPI.ANY_SOURCE, 11);
        c.check("iProbe ANY_SOURCE", any != null && any.getSource() == prev, "status " + any);
        int[] in = new int[5];
        Status s12 = world.recv(in, 5, MPI.INT, prev, 12);
        c.check("recv after probe tag 12", s12.getCount(MPI.INT) == 5 && in[4] == 9, "status " + s12);
        Status s11 = world.recv(in, 5, MPI.INT, prev, 11);
        c.check("recv after probe tag 11", s11.getCount(MPI.INT) == 3 && in[2] == 3, "status " + s11);
        Request.waitAll(new Request[] {a, b});
        Status pn = world.probe(MPI.PROC_NULL, 3);
        c.check("probe PROC_NULL", pn.getSource() == MPI.PROC_NULL, "status " + pn);
        Status ipn = world.iProbe(MPI.PROC_NULL, 3);
        c.check("iProbe PROC_NULL", ipn != null && ipn.getSource() == MPI.PROC_NULL, "status " + ipn);
        // A probed rendezvous message reports its full length.
        int[] large = new int[50_000];
        Request l = world.iSend(large, large.length, MPI.INT, next, 14);
        Status lp = world.probe(prev, 14);
        c.equal("probe of a rendezvous message: count", 50_000, lp.getCount(MPI.INT));
        world.recv(new int[50_000], 50_000, MPI.INT, prev, 14);
        l.waitFor();
    }

    private void matchedProbe() throws MPIException {
        int[] four = {4, 4, 4, 4};
        int[] six = {6, 6, 6, 6, 6, 6};
        Request a = world.iSend(four, 4, MPI.INT, next, 21);
        Request b = world.iSend(six, 6, MPI.INT, next, 21);
        mpi.Message m = new mpi.Message();
        c.check("new Message is null", m.isNull() && !m.isNoProc(), "not null");
        Status ms = m.mProbe(prev, 21, world);
        c.check("mProbe takes the first message", ms.getCount(MPI.INT) == 4
                && ms.getSource() == prev && !m.isNull(), "status " + ms);
        int[] second = new int[6];
        Request other = world.iRecv(second, 6, MPI.INT, prev, 21);
        Status os = other.waitStatus();
        c.check("a receive cannot match the mProbed message", os.getCount(MPI.INT) == 6
                && second[5] == 6, "status " + os);
        int[] first = new int[4];
        Status rs = m.mRecv(first, 4, MPI.INT);
        c.check("mRecv", rs.getCount(MPI.INT) == 4 && first[3] == 4 && rs.getTag() == 21,
                "status " + rs);
        c.check("Message null after mRecv", m.isNull(), "not null");
        Request.waitAll(new Request[] {a, b});

        // imProbe + imRecv into a direct buffer, a rendezvous message into a segment.
        int[] small = {7, 8, 9};
        int[] big = new int[40_000];
        java.util.Arrays.fill(big, 31);
        Request c1 = world.iSend(small, 3, MPI.INT, next, 22);
        Request c2 = world.iSend(big, big.length, MPI.INT, next, 23);
        mpi.Message m2 = new mpi.Message();
        Status is = null;
        long end = System.nanoTime() + 20_000_000_000L;
        while (is == null && System.nanoTime() < end) {
            is = m2.imProbe(prev, 22, world);
        }
        c.check("imProbe finds the message", is != null && is.getCount(MPI.INT) == 3, "status " + is);
        IntBuffer ib = MPI.newIntBuffer(3);
        Status irs = m2.imRecv(ib, 3, MPI.INT).waitStatus();
        c.check("imRecv into a direct buffer", irs.getCount(MPI.INT) == 3 && ib.get(2) == 9,
                "status " + irs);
        mpi.Message m3 = new mpi.Message();
        Status bs = m3.mProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, world);
        c.check("mProbe ANY_SOURCE of a rendezvous message", bs.getTag() == 23
                && bs.getCount(MPI.INT) == 40_000, "status " + bs);
        var seg = arena.allocate(40_000 * 4L);
        Status bsr = m3.imRecv(seg, 40_000, MPI.INT).waitStatus();
        c.check("imRecv of a rendezvous message into a MemorySegment",
                bsr.getCount(MPI.INT) == 40_000 && seg.getAtIndex(
                        java.lang.foreign.ValueLayout.JAVA_INT, 39_999) == 31, "status " + bsr);
        Request.waitAll(new Request[] {c1, c2});
        mpi.Message np = new mpi.Message();
        Status nps = np.mProbe(MPI.PROC_NULL, 1, world);
        c.check("mProbe PROC_NULL gives MESSAGE_NO_PROC", np.isNoProc()
                && nps.getSource() == MPI.PROC_NULL, "status " + nps);
        Status npr = np.mRecv(new int[1], 1, MPI.INT);
        c.check("mRecv of MESSAGE_NO_PROC", npr.getSource() == MPI.PROC_NULL
                && npr.getCount(MPI.INT) == 0, "status " + npr);
    }

    private void requests() throws MPIException {
        int n = 8;
        // waitAny: receives posted for tags 100..107, sent in reverse order.
        Request[] recvs = new Request[n];
        int[][] bufs = new int[n][1];
        for (int i = 0; i < n; i++) {
            recvs[i] = world.iRecv(bufs[i], 1, MPI.INT, prev, 100 + i);
        }
        Request[] sends = new Request[n];
        for (int i = n - 1; i >= 0; i--) {
            sends[i] = world.iSend(new int[] {rank * 100 + i}, 1, MPI.INT, next, 100 + i);
        }
        boolean[] seen = new boolean[n];
        boolean ok = true;
        for (int k = 0; k < n; k++) {
            Status s = Request.waitAnyStatus(recvs);
            int i = s.getIndex();
            ok &= i >= 0 && i < n && !seen[i] && recvs[i].isNull() && s.getTag() == 100 + i
                    && bufs[i][0] == prev * 100 + i;
            if (i >= 0 && i < n) {
                seen[i] = true;
            }
        }
        c.check("waitAnyStatus completes each request once", ok, java.util.Arrays.toString(seen));
        c.equal("waitAny with no active request", MPI.UNDEFINED, Request.waitAny(recvs));
        c.equal("testAny with no active request", MPI.UNDEFINED, Request.testAny(recvs));
        c.check("waitSome with no active request", Request.waitSome(recvs) == null, "not null");
        c.check("testSome with no active request", Request.testSome(recvs) == null, "not null");
        Request.waitAll(sends);
        c.check("waitAll nulls the requests", java.util.Arrays.stream(sends).allMatch(Request::isNull),
                "some not null");

        // waitSome / testSome / testAll / testAny over a mix with REQUEST_NULL.
        for (int i = 0; i < n; i++) {
            recvs[i] = i == 3 ? MPI.REQUEST_NULL : world.iRecv(bufs[i], 1, MPI.INT, prev, 200 + i);
        }
        c.check("testAll before the sends", !Request.testAll(recvs), "true");
        world.barrier(); // no rank sends before every rank has tested
        for (int i = 0; i < n; i++) {
            sends[i] = i == 3 ? MPI.REQUEST_NULL
                    : world.iSend(new int[] {rank * 100 + i}, 1, MPI.INT, next, 200 + i);
        }
        int done = 0;
        boolean indexOk = true;
        while (done < n - 1) {
            int[] idx = (done % 2 == 0) ? Request.waitSome(recvs) : Request.testSome(recvs);
            if (idx == null) {
                break;
            }
            for (int i : idx) {
                indexOk &= i != 3 && recvs[i].isNull() && bufs[i][0] == prev * 100 + i;
            }
            done += idx.length;
        }
        c.check("waitSome/testSome complete every active request", done == n - 1 && indexOk,
                "completed " + done + " of " + (n - 1));
        Status[] all = Request.testAllStatus(sends);
        while (all == null) {
            all = Request.testAllStatus(sends);
        }
        c.equal("testAllStatus length", n, all.length);

        // testAnyStatus polling and waitAllStatus order.
        for (int i = 0; i < n; i++) {
            recvs[i] = world.iRecv(bufs[i], 1, MPI.INT, prev, 300 + i);
            sends[i] = world.iSend(new int[] {rank * 100 + i}, 1, MPI.INT, next, 300 + i);
        }
        Status first = null;
        long end = System.nanoTime() + 20_000_000_000L;
        while (first == null && System.nanoTime() < end) {
            first = Request.testAnyStatus(recvs);
        }
        c.check("testAnyStatus", first != null && first.getTag() == 300 + first.getIndex(),
                "status " + first);
        Status[] st = Request.waitAllStatus(recvs);
        boolean order = true;
        for (int i = 0; i < n; i++) {
            if (first != null && i == first.getIndex()) {
                continue;
            }
            order &= st[i].getTag() == 300 + i && st[i].getSource() == prev;
        }
        c.check("waitAllStatus gives statuses in request order", order,
                java.util.Arrays.toString(st));
        Request.waitAll(sends);

        // test / testStatus / getStatus on one request.
        int[] one = new int[1];
        Request r = world.iRecv(one, 1, MPI.INT, prev, 400);
        world.barrier();
        c.check("test before the send", !r.test() && r.testStatus() == null
                && r.getStatus() == null && !r.isNull(), "complete too early");
        world.barrier(); // every rank has tested before any sends
        world.send(new int[] {rank}, 1, MPI.INT, next, 400);
        Status gs = null;
        end = System.nanoTime() + 20_000_000_000L;
        while (gs == null && System.nanoTime() < end) {
            gs = r.getStatus();
        }
        c.check("getStatus leaves the request", gs != null && gs.getSource() == prev
                && !r.isNull(), "status " + gs + " null " + r.isNull());
        Status ts = r.testStatus();
        c.check("testStatus after completion", ts != null && ts.getTag() == 400 && r.isNull()
                && one[0] == prev, "status " + ts);
        Status empty = r.waitStatus();
        c.check("waitStatus on a null request returns an empty status", empty != null
                && empty.getSource() == MPI.ANY_SOURCE && empty.getTag() == MPI.ANY_TAG,
                "status " + empty);
        c.check("REQUEST_NULL isNull", MPI.REQUEST_NULL.isNull(), "false");
    }

    private void cancelAndFree() throws MPIException {
        int[] never = new int[4];
        Request r = world.iRecv(never, 4, MPI.INT, prev, 999);
        r.cancel();
        Status s = r.waitStatus();
        c.check("cancelled receive", s.isCancelled() && r.isNull(), "status " + s);
        // A freed send still delivers its message.
        int[] data = {rank, 1, 2};
        Request fr = world.iSend(data, 3, MPI.INT, next, 998);
        fr.free();
        c.check("freed request isNull", fr.isNull(), "false");
        int[] in = new int[3];
        Status fs = world.recv(in, 3, MPI.INT, prev, 998);
        c.check("a freed send is still delivered", fs.getCount(MPI.INT) == 3 && in[0] == prev,
                "status " + fs);
        MPI.REQUEST_NULL.free();
        c.check("free of REQUEST_NULL is a no-op", MPI.REQUEST_NULL.isNull(), "false");
    }

    private void persistent() throws MPIException {
        IntBuffer out = MPI.newIntBuffer(10);
        IntBuffer in = MPI.newIntBuffer(10);
        Prequest r = world.recvInit(in, 10, MPI.INT, prev, 500);
        Prequest s = world.sendInit(out, 10, MPI.INT, next, 500);
        boolean ok = true;
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 10; i++) {
                out.put(i, rank * 1000 + round * 10 + i);
            }
            if (round == 2) {
                Prequest.startAll(new Prequest[] {r, s});
            } else {
                r.start();
                s.start();
            }
            Status[] st = Request.waitAllStatus(new Request[] {r, s});
            ok &= st[0].getCount(MPI.INT) == 10 && in.get(9) == prev * 1000 + round * 10 + 9
                    && !r.isNull() && !s.isNull();
        }
        c.check("persistent send/recv restarted 3 times (start and startAll)", ok, "bad round");
        r.free();
        s.free();
        c.check("freed persistent requests are null", r.isNull() && s.isNull(), "not null");
        // Every persistent send mode.
        world.barrier();
        Prequest rs = world.recvInit(in, 10, MPI.INT, prev, 501);
        Prequest[] sends = {world.sSendInit(out, 10, MPI.INT, next, 501),
            world.bSendInit(out, 10, MPI.INT, next, 501),
            world.rSendInit(out, 10, MPI.INT, next, 501)};
        boolean modes = true;
        for (Prequest p : sends) {
            out.put(0, rank + 7);
            rs.start();
            world.barrier(); // the ready send needs the receive posted
            p.start();
            Request.waitAll(new Request[] {rs, p});
            modes &= in.get(0) == prev + 7;
            p.free();
        }
        rs.free();
        c.check("sSendInit, bSendInit, rSendInit", modes, "wrong data");
    }

    private void communicators() throws MPIException {
        Intracomm dup = world.dup();
        c.equal("compare(world, world)", MPI.IDENT, Comm.compare(world, world));
        c.equal("compare(world, dup)", MPI.CONGRUENT, Comm.compare(world, dup));
        c.equal("compare(world, self)", size == 1 ? MPI.CONGRUENT : MPI.UNEQUAL,
                Comm.compare(world, MPI.COMM_SELF));
        c.check("dup keeps rank and size", dup.getRank() == rank && dup.getSize() == size, "differs");
        c.check("dup inherits the error handler", dup.getErrhandler() == world.getErrhandler(),
                "differs");
        dup.setName("verbatim-test-dup");
        c.equal("setName/getName", "verbatim-test-dup", dup.getName());
        dup.setErrhandler(MPI.ERRORS_RETURN);
        c.check("setErrhandler on dup", dup.getErrhandler() == MPI.ERRORS_RETURN
                && world.getErrhandler() == MPI.ERRORS_ARE_FATAL, "handlers mixed up");
        // Same source and tag on two communicators never match each other.
        Request a = world.iSend(new int[] {1}, 1, MPI.INT, next, 7);
        Request b = dup.iSend(new int[] {2}, 1, MPI.INT, next, 7);
        int[] in = new int[1];
        dup.recv(in, 1, MPI.INT, prev, 7);
        c.equal("dup receives its own message", 2, in[0]);
        world.recv(in, 1, MPI.INT, prev, 7);
        c.equal("world receives its own message", 1, in[0]);
        Request.waitAll(new Request[] {a, b});
        Intracomm twice = dup.clone();
        c.equal("clone of dup is congruent", MPI.CONGRUENT, Comm.compare(dup, twice));
        twice.free();
        dup.free();
        c.check("freed communicator isNull", dup.isNull() && twice.isNull(), "not null");
        c.check("world not null", !world.isNull(), "null");
    }

    private void huge() throws MPIException {
        if (rank > 1 || size < 2) {
            return;
        }
        int n = 64 << 20;
        int other = 1 - rank;
        TestBuffer sendArray = TestBuffer.create(TestBuffer.Kind.ARRAY, MPI.BYTE, n, arena);
        TestBuffer recvDirect = TestBuffer.create(TestBuffer.Kind.DIRECT, MPI.BYTE, n, arena);
        sendArray.fill(seed(rank, 1));
        Request r = Ops.iRecv(world, recvDirect, other, 1);
        world.send(sendArray.buf, n, MPI.BYTE, other, 1);
        Status s = r.waitStatus();
        String d = recvDirect.verify(seed(other, 1));
        c.check("64 MiB byte[] -> direct ByteBuffer", d == null && s.getCount(MPI.BYTE) == n,
                "status " + s + " " + d);
        // Direct/segment to array, the other way round, with the receive posted late.
        TestBuffer sendSeg = TestBuffer.create(TestBuffer.Kind.SEGMENT, MPI.BYTE, n, arena);
        sendSeg.fill(seed(rank, 2));
        sendArray.poison();
        if (rank == 0) {
            world.send(sendSeg.buf, n, MPI.BYTE, other, 2);
            s = world.recv(sendArray.buf, n, MPI.BYTE, other, 2);
        } else {
            s = world.recv(sendArray.buf, n, MPI.BYTE, other, 2);
            world.send(sendSeg.buf, n, MPI.BYTE, other, 2);
        }
        d = sendArray.verify(seed(other, 2));
        c.check("64 MiB MemorySegment -> byte[]", d == null && s.getCount(MPI.BYTE) == n,
                "status " + s + " " + d);
    }
}
