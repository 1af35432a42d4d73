package org.verbatim.mpitests;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Bad input under ERRORS_RETURN: every refused argument gives an MPIException with the right
 * error class naming the call, nothing is sent on bad input, truncation writes nothing past the
 * receive buffer; and use before Init and after Finalize. Runs on 2 or more ranks.
 */
public final class BadInputProgram {
    private final Checks c;
    private final Intracomm world = MPI.COMM_WORLD;
    private final int rank;
    private final int size;
    private final int next;
    private final int prev;

    private BadInputProgram(Checks c, int rank, int size) {
        this.c = c;
        this.rank = rank;
        this.size = size;
        this.next = (rank + 1) % size;
        this.prev = (rank - 1 + size) % size;
    }

    public static void main(String[] args) throws Exception {
        // PMI_RANK is set by mpirun: the checks before Init need a rank for their lines.
        Checks c = new Checks(Integer.parseInt(System.getenv("PMI_RANK")));
        beforeInit(c);
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        c.equal("rank agrees with PMI_RANK", c.rank(), rank);
        BadInputProgram p = new BadInputProgram(c, rank, MPI.COMM_WORLD.getSize());
        c.run("errors on a dup with ERRORS_RETURN", p::dupReturns);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        c.run("ranks", p::ranks);
        c.run("tags", p::tags);
        c.run("counts", p::counts);
        c.run("datatypes", p::datatypes);
        c.run("communicators", p::communicators);
        c.run("buffers", p::buffers);
        c.run("truncation", p::truncation);
        c.run("requests", p::requests);
        c.run("nothing was sent", p::nothingSent);
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        afterFinalize(c);
        System.exit(c.summary());
    }

    private static void beforeInit(Checks c) throws Exception {
        c.check("isInitialized before Init", !MPI.isInitialized(), "true");
        c.check("isFinalized before Init", !MPI.isFinalized(), "true");
        String msg = "MPI is not initialized.";
        c.expectException("getRank before Init", msg, () -> MPI.COMM_WORLD.getRank());
        c.expectError("getRank before Init has an error class", MPI.ERR_OTHER, null,
                () -> MPI.COMM_WORLD.getRank());
        c.expectException("send before Init", msg,
                () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, 0));
        c.expectException("recv before Init", msg,
                () -> MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 0, 0));
        c.expectException("iSend before Init", msg,
                () -> MPI.COMM_WORLD.iSend(MPI.newIntBuffer(1), 1, MPI.INT, 0, 0));
        c.expectException("wtime before Init", msg, MPI::wtime);
        c.expectException("barrier before Init", msg, () -> MPI.COMM_WORLD.barrier());
        c.expectException("dup before Init", msg, () -> MPI.COMM_WORLD.dup());
        c.expectException("Finalize before Init", msg, MPI::Finalize);
        c.expectException("probe before Init", msg, () -> MPI.COMM_WORLD.iProbe(0, 0));
        c.expectException("Request.waitAll before Init", msg,
                () -> Request.waitAll(new Request[0]));
    }

    private static void afterFinalize(Checks c) throws Exception {
        c.check("isFinalized", MPI.isFinalized(), "false");
        String msg = "MPI is finalized.";
        c.expectException("getRank after Finalize", msg, () -> MPI.COMM_WORLD.getRank());
        c.expectError("getRank after Finalize has an error class", MPI.ERR_OTHER, null,
                () -> MPI.COMM_WORLD.getRank());
        c.expectException("send after Finalize", msg,
                () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, 0));
        c.expectException("iRecv after Finalize", msg,
                () -> MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 0));
        c.expectException("wtime after Finalize", msg, MPI::wtime);
        c.expectException("Finalize twice", msg, MPI::Finalize);
        c.expectException("Init after Finalize", msg, () -> MPI.Init(new String[0]));
    }

    /** World stays fatal; a dup with ERRORS_RETURN returns its errors. */
    private void dupReturns() throws MPIException {
        Intracomm dup = world.dup();
        dup.setErrhandler(MPI.ERRORS_RETURN);
        c.expectError("dup: send to an invalid rank", MPI.ERR_RANK, "MPI_Send",
                () -> dup.send(new int[1], 1, MPI.INT, size, 0));
        c.check("world still ERRORS_ARE_FATAL", world.getErrhandler() == MPI.ERRORS_ARE_FATAL,
                "changed");
        dup.free();
        c.expectException("InitThread twice", "already initialized",
                () -> MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE));
    }

    private void ranks() throws MPIException {
        int[] b = new int[4];
        IntBuffer d = MPI.newIntBuffer(4);
        for (int bad : new int[] {size, size + 7, -1, -5, MPI.ANY_SOURCE}) {
            c.expectError("send to rank " + bad, MPI.ERR_RANK, "MPI_Send",
                    () -> world.send(b, 4, MPI.INT, bad, 0));
            c.expectError("iSend to rank " + bad, MPI.ERR_RANK, "MPI_Isend",
                    () -> world.iSend(d, 4, MPI.INT, bad, 0));
            c.expectError("sSend to rank " + bad, MPI.ERR_RANK, "MPI_Ssend",
                    () -> world.sSend(b, 4, MPI.INT, bad, 0));
            c.expectError("rSend to rank " + bad, MPI.ERR_RANK, "MPI_Rsend",
                    () -> world.rSend(b, 4, MPI.INT, bad, 0));
            c.expectError("sendInit to rank " + bad, MPI.ERR_RANK, "MPI_Send_init",
                    () -> world.sendInit(d, 4, MPI.INT, bad, 0));
            c.expectError("sendRecv to rank " + bad, MPI.ERR_RANK, "MPI_Sendrecv",
                    () -> world.sendRecv(b, 4, MPI.INT, bad, 0, new int[4], 4, MPI.INT, prev, 0));
            c.expectError("sendRecvReplace to rank " + bad, MPI.ERR_RANK, "MPI_Sendrecv_replace",
                    () -> world.sendRecvReplace(b, 4, MPI.INT, bad, 0, prev, 0));
        }
        for (int bad : new int[] {size, -3, -7}) {
            c.expectError("recv from rank " + bad, MPI.ERR_RANK, "MPI_Recv",
                    () -> world.recv(b, 4, MPI.INT, bad, 0));
            c.expectError("iRecv from rank " + bad, MPI.ERR_RANK, "MPI_Irecv",
                    () -> world.iRecv(d, 4, MPI.INT, bad, 0));
            c.expectError("probe rank " + bad, MPI.ERR_RANK, "MPI_Probe",
                    () -> world.probe(bad, 0));
            c.expectError("iProbe rank " + bad, MPI.ERR_RANK, "MPI_Iprobe",
                    () -> world.iProbe(bad, 0));
            c.expectError("mProbe rank " + bad, MPI.ERR_RANK, "MPI_Mprobe",
                    () -> new mpi.Message().mProbe(bad, 0, world));
            c.expectError("recvInit rank " + bad, MPI.ERR_RANK, "MPI_Recv_init",
                    () -> world.recvInit(d, 4, MPI.INT, bad, 0));
        }
        MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
        c.expectError("send on COMM_SELF to rank 1", MPI.ERR_RANK, "MPI_Send",
                () -> MPI.COMM_SELF.send(b, 4, MPI.INT, 1, 0));
    }

    private void tags() throws MPIException {
        int[] b = new int[4];
        IntBuffer d = MPI.newIntBuffer(4);
        int tagUb = Integer.MAX_VALUE - 0xffff;
        for (int bad : new int[] {-1, -100, MPI.ANY_TAG, tagUb + 1, Integer.MAX_VALUE}) {
            c.expectError("send with tag " + bad, MPI.ERR_TAG, "MPI_Send",
                    () -> world.send(b, 4, MPI.INT, next, bad));
            c.expectError("iSend with tag " + bad, MPI.ERR_TAG, "MPI_Isend",
                    () -> world.iSend(d, 4, MPI.INT, next, bad));
            c.expectError("bSend with tag " + bad, MPI.ERR_TAG, "MPI_Bsend",
                    () -> world.bSend(b, 4, MPI.INT, next, bad));
            c.expectError("sendRecv with send tag " + bad, MPI.ERR_TAG, "MPI_Sendrecv",
                    () -> world.sendRecv(b, 4, MPI.INT, next, bad, new int[4], 4, MPI.INT, prev, 0));
        }
        for (int bad : new int[] {-5, tagUb + 1}) {
            c.expectError("recv with tag " + bad, MPI.ERR_TAG, "MPI_Recv",
                    () -> world.recv(b, 4, MPI.INT, prev, bad));
            c.expectError("iProbe with tag " + bad, MPI.ERR_TAG, "MPI_Iprobe",
                    () -> world.iProbe(prev, bad));
            c.expectError("imProbe with tag " + bad, MPI.ERR_TAG, "MPI_Improbe",
                    () -> new mpi.Message().imProbe(prev, bad, world));
        }
        // The largest valid tag works.
        int[] in = new int[1];
        Request r = world.iRecv(in, 1, MPI.INT, prev, tagUb);
        world.send(new int[] {rank}, 1, MPI.INT, next, tagUb);
        Status s = r.waitStatus();
        c.check("TAG_UB itself is valid", s.getTag() == tagUb && in[0] == prev, "status " + s);
    }

    private void counts() throws MPIException {
        int[] b = new int[4];
        IntBuffer d = MPI.newIntBuffer(4);
        c.expectError("send count -1", MPI.ERR_COUNT, "MPI_Send",
                () -> world.send(b, -1, MPI.INT, next, 0));
        c.expectError("recv count -1", MPI.ERR_COUNT, "MPI_Recv",
                () -> world.recv(b, -1, MPI.INT, prev, 0));
        c.expectError("iSend count -3", MPI.ERR_COUNT, "MPI_Isend",
                () -> world.iSend(d, -3, MPI.INT, next, 0));
        c.expectError("iRecv count -3", MPI.ERR_COUNT, "MPI_Irecv",
                () -> world.iRecv(d, -3, MPI.INT, prev, 0));
        c.expectError("sendInit count MIN_VALUE", MPI.ERR_COUNT, "MPI_Send_init",
                () -> world.sendInit(d, Integer.MIN_VALUE, MPI.INT, next, 0));
        c.expectError("sendRecvReplace count -1", MPI.ERR_COUNT, "MPI_Sendrecv_replace",
                () -> world.sendRecvReplace(b, -1, MPI.INT, next, 0, prev, 0));
    }

    private void datatypes() throws MPIException {
        int[] b = new int[4];
        IntBuffer d = MPI.newIntBuffer(4);
        Datatype freed = MPI.INT.dup();
        freed.free();
        c.check("freed datatype isNull", freed.isNull(), "false");
        for (Object[] t : new Object[][] {{"null", null}, {"DATATYPE_NULL", MPI.DATATYPE_NULL},
            {"a freed datatype", freed}}) {
            Datatype type = (Datatype) t[1];
            c.expectError("send with " + t[0], MPI.ERR_TYPE, "MPI_Send",
                    () -> world.send(b, 4, type, next, 0));
            c.expectError("recv with " + t[0], MPI.ERR_TYPE, "MPI_Recv",
                    () -> world.recv(b, 4, type, prev, 0));
            c.expectError("iSend with " + t[0], MPI.ERR_TYPE, "MPI_Isend",
                    () -> world.iSend(d, 4, type, next, 0));
            c.expectError("recvInit with " + t[0], MPI.ERR_TYPE, "MPI_Recv_init",
                    () -> world.recvInit(d, 4, type, prev, 0));
        }
        // Open MPI's rule: another array class is accepted when the type's size divides the
        // array's bytes (BufferRulesProgram); these do not divide
        c.expectError("int[3] with MPI.DOUBLE", MPI.ERR_TYPE, "MPI_Send",
                () -> world.send(new int[3], 1, MPI.DOUBLE, next, 0));
        c.expectError("short[3] received as MPI.INT", MPI.ERR_TYPE, "MPI_Recv",
                () -> world.recv(new short[3], 1, MPI.INT, prev, 0));
        c.expectError("free of a predefined datatype", MPI.ERR_TYPE, null, () -> MPI.INT.free());
    }

    private void communicators() throws MPIException {
        Intracomm dup = world.dup();
        dup.free();
        int[] b = new int[1];
        c.expectError("send on a freed communicator", MPI.ERR_COMM, "MPI_Send",
                () -> dup.send(b, 1, MPI.INT, next, 0));
        c.expectError("recv on a freed communicator", MPI.ERR_COMM, "MPI_Recv",
                () -> dup.recv(b, 1, MPI.INT, prev, 0));
        c.expectError("getRank on a freed communicator", MPI.ERR_COMM, "MPI_Comm_rank",
                dup::getRank);
        c.expectError("dup of a freed communicator", MPI.ERR_COMM, "MPI_Comm_dup", dup::dup);
        c.expectError("compare with a freed communicator", MPI.ERR_COMM, "MPI_Comm_compare",
                () -> Comm.compare(world, dup));
        c.expectError("free COMM_WORLD", MPI.ERR_COMM, "MPI_Comm_free", world::free);
        c.expectError("free COMM_SELF", MPI.ERR_COMM, "MPI_Comm_free", () -> MPI.COMM_SELF.free());
        c.expectError("setErrhandler(null)", MPI.ERR_ARG, "MPI_Comm_set_errhandler",
                () -> world.setErrhandler(null));
        c.check("world still usable", !world.isNull() && world.getSize() == size, "not usable");
    }

    private void buffers() throws MPIException {
        IntBuffer d = MPI.newIntBuffer(4);
        c.expectError("send from a null array", MPI.ERR_BUFFER, "MPI_Send",
                () -> world.send(null, 4, MPI.INT, next, 0));
        c.expectError("recv into a null array", MPI.ERR_BUFFER, "MPI_Recv",
                () -> world.recv(null, 4, MPI.INT, prev, 0));
        c.expectError("iRecv into a null segment", MPI.ERR_BUFFER, "MPI_Irecv",
                () -> world.iRecv((MemorySegment) null, 4, MPI.INT, prev, 0));
        c.expectError("send from a String", MPI.ERR_BUFFER, "MPI_Send",
                () -> world.send("not a buffer", 4, MPI.BYTE, next, 0));
        try {
            world.iSend((java.nio.Buffer) null, 4, MPI.INT, next, 0);
            c.fail("iSend(null Buffer)", "accepted");
        } catch (IllegalArgumentException e) {
            c.pass("iSend(null Buffer) throws IllegalArgumentException as the reference says");
        } catch (MPIException e) {
            c.check("iSend(null Buffer) refused", e.getErrorClass() == MPI.ERR_BUFFER,
                    "class " + e.getErrorClass());
        }
        try (Arena arena = Arena.ofConfined()) {
            Object[][] small = {
                {"int[3]", new int[3]},
                {"heap IntBuffer of 3", IntBuffer.wrap(new int[3])},
                {"direct IntBuffer of 3", MPI.newIntBuffer(3)},
                {"slice of int[6] at 3", MPI.slice(new int[6], 3)},
                {"slice of a direct IntBuffer(6) at 3", MPI.slice(MPI.newIntBuffer(6), 3)},
                {"MemorySegment of 15 bytes", arena.allocate(15)},
                {"direct ByteBuffer of 15 bytes", MPI.newByteBuffer(15)},
            };
            for (Object[] s : small) {
                Object buf = s[1];
                c.expectError("send 4 ints from a " + s[0], MPI.ERR_BUFFER, "MPI_Send",
                        () -> world.send(buf, 4, MPI.INT, next, 0));
                c.expectError("recv 4 ints into a " + s[0], MPI.ERR_BUFFER, "MPI_Recv",
                        () -> world.recv(buf, 4, MPI.INT, prev, 0));
                c.expectError("iRecv 4 ints into a " + s[0], MPI.ERR_BUFFER, "MPI_Irecv",
                        () -> world.iRecv(buf, 4, MPI.INT, prev, 0));
            }
            c.expectError("send 4 ints from a heap ByteBuffer of 15 bytes", MPI.ERR_BUFFER,
                    "MPI_Isend", () -> world.iSend(ByteBuffer.allocate(15), 4, MPI.INT, next, 0));
        }
        c.expectError("recv into a read-only buffer", MPI.ERR_BUFFER, "MPI_Recv",
                () -> world.recv(d.asReadOnlyBuffer(), 4, MPI.INT, prev, 0));
        c.expectError("mRecv on a null Message", MPI.ERR_REQUEST, "MPI_Mrecv",
                () -> new mpi.Message().mRecv(new int[1], 1, MPI.INT));
        // bSend with no attached buffer, then with one too small (messages too large to go at
        // once: a small one would go eagerly without the buffer, as in Open MPI).
        int large = 1 << 20;
        c.expectError("bSend without an attached buffer", MPI.ERR_BUFFER, "MPI_Bsend",
                () -> world.bSend(new int[large], large, MPI.INT, next, 0));
        MPI.attachBuffer(new byte[MPI.BSEND_OVERHEAD + 8]);
        c.expectError("bSend larger than the attached buffer", MPI.ERR_BUFFER, "MPI_Bsend",
                () -> world.bSend(new int[large], large, MPI.INT, next, 0));
        c.expectError("attachBuffer twice", MPI.ERR_BUFFER, "MPI_Buffer_attach",
                () -> MPI.attachBuffer(new byte[16]));
        MPI.detachBuffer();
        c.expectError("attachBuffer(null)", MPI.ERR_BUFFER, "MPI_Buffer_attach",
                () -> MPI.attachBuffer(null));
        c.expectError("InitThread with an invalid level", MPI.ERR_OTHER, null,
                () -> MPI.InitThread(new String[0], 42));
    }

    /** A message longer than the receive buffer: ERR_TRUNCATE, nothing written past it. */
    private void truncation() throws MPIException {
        int tag = 700;
        long[] lengths = {17, 16_352, 16_353, 200_000};
        for (long bytes : lengths) {
            for (TestBuffer.Kind kind : new TestBuffer.Kind[] {TestBuffer.Kind.ARRAY,
                TestBuffer.Kind.DIRECT, TestBuffer.Kind.SLICE_ARRAY, TestBuffer.Kind.SEGMENT}) {
                try (Arena arena = Arena.ofConfined()) {
                    int sent = (int) bytes;
                    int room = sent - 9;
                    TestBuffer out = TestBuffer.create(TestBuffer.Kind.ARRAY, MPI.BYTE, sent, arena);
                    out.fill(rank * 1009 + tag);
                    TestBuffer in = TestBuffer.create(kind, MPI.BYTE, room, arena);
                    Request s = world.iSend(out.buf, sent, MPI.BYTE, next, tag);
                    boolean blocking = tag % 2 == 0;
                    int t = tag;
                    MPIException e = c.expectError((blocking ? "recv " : "iRecv+wait ") + sent
                            + " B into " + room + " B " + kind, MPI.ERR_TRUNCATE,
                            blocking ? "MPI_Recv" : "MPI_Irecv", () -> {
                                if (blocking) {
                                    world.recv(in.buf, room, MPI.BYTE, prev, t);
                                } else {
                                    Ops.iRecv(world, in, prev, t).waitFor();
                                }
                            });
                    if (e != null) {
                        String where = in.untouchedFrom(room);
                        c.check("nothing written past a " + room + " B " + kind + " buffer",
                                where == null, where);
                    }
                    s.waitFor();
                    tag++;
                }
            }
        }
        // Truncation reported through waitAll, and the connection still works afterwards.
        int[] small = new int[2];
        Request r = world.iRecv(small, 2, MPI.INT, prev, 800);
        Request s = world.iSend(new int[] {1, 2, 3}, 3, MPI.INT, next, 800);
        c.expectError("waitAll reports truncation", MPI.ERR_TRUNCATE, null,
                () -> Request.waitAll(new Request[] {r, s}));
        int[] ok = new int[3];
        Request r2 = world.iRecv(ok, 3, MPI.INT, prev, 801);
        world.send(new int[] {rank, 5, 6}, 3, MPI.INT, next, 801);
        Status st = r2.waitStatus();
        c.check("traffic works after a truncation", st.getCount(MPI.INT) == 3 && ok[0] == prev,
                "status " + st);
    }

    private void requests() throws MPIException {
        IntBuffer in = MPI.newIntBuffer(1);
        Prequest p = world.recvInit(in, 1, MPI.INT, prev, 900);
        p.start();
        c.expectError("start of an active persistent request", MPI.ERR_REQUEST, "MPI_Start",
                p::start);
        world.send(new int[] {rank}, 1, MPI.INT, next, 900);
        p.waitFor();
        p.free();
        c.expectError("start of a freed persistent request", MPI.ERR_REQUEST, "MPI_Start",
                p::start);
    }

    /** After all the refused sends, no rank has any message waiting. */
    private void nothingSent() throws MPIException {
        world.barrier();
        Status s = world.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG);
        c.check("no message arrived from refused calls", s == null, "found " + s);
        world.barrier();
    }
}
