package org.verbatim.mpitests;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import mpi.Win;

/**
 * Open MPI's buffer rules that existing programs rely on (issue 18 item 4), at any rank count:
 * any primitive array or buffer with MPI.BYTE, MPI.CHAR or a type whose size divides its byte
 * length (count in elements of the type, bytes in native order; an overrun is still refused); a
 * null buffer with count 0 in every call; callErrhandler returning under ERRORS_RETURN; a freed
 * keyval working for the attributes that still use it; INFO_ENV's keys; a buffered send that
 * can complete at once without an attached buffer. Arguments: alpha beta (checked in argv).
 */
public final class BufferRulesProgram {
    private static Checks c;
    private static Intracomm world;
    private static int rank;
    private static int size;

    private BufferRulesProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();
        c = new Checks(rank);
        world.setErrhandler(MPI.ERRORS_RETURN);
        c.run("arrays as bytes", BufferRulesProgram::arraysAsBytes);
        c.run("null buffers with count 0", BufferRulesProgram::nullBuffers);
        c.run("callErrhandler returns", BufferRulesProgram::callErrhandler);
        c.run("freed keyvals", BufferRulesProgram::freedKeyvals);
        c.run("INFO_ENV", () -> infoEnv(args));
        c.run("bSend without a buffer", BufferRulesProgram::bsendWithoutBuffer);
        world.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }

    private static int next() {
        return (rank + 1) % size;
    }

    private static int prev() {
        return (rank + size - 1) % size;
    }

    private static void arraysAsBytes() throws Exception {
        int[] out = {rank, 0x01020304, -rank, 77};
        int[] in = new int[4];
        Status s = world.sendRecv(out, 16, MPI.BYTE, next(), 1, in, 16, MPI.BYTE, prev(), 1);
        c.equal("int[] as 16 MPI.BYTE: count", 16, s.getCount(MPI.BYTE));
        c.check("int[] as MPI.BYTE: values", in[0] == prev() && in[1] == 0x01020304
                && in[2] == -prev() && in[3] == 77, java.util.Arrays.toString(in));
        double[] d = {rank + 0.5, -1.25};
        long[] asLongs = new long[2];
        world.sendRecv(d, 4, MPI.INT, next(), 2, asLongs, 4, MPI.INT, prev(), 2);
        c.check("double[] sent as MPI.INT lands bit for bit in long[]",
                Double.longBitsToDouble(asLongs[0]) == prev() + 0.5
                        && Double.longBitsToDouble(asLongs[1]) == -1.25, "wrong bits");
        byte[] chars = new byte[8];
        ByteBuffer.wrap(chars).order(ByteOrder.nativeOrder()).asCharBuffer().put("abcd");
        char[] got = new char[4];
        world.sendRecv(chars, 4, MPI.CHAR, next(), 3, got, 4, MPI.CHAR, prev(), 3);
        c.equal("byte[] as MPI.CHAR, native order", "abcd", new String(got));
        IntBuffer direct = MPI.newIntBuffer(2).put(0, 41).put(1, 42);
        byte[] raw = new byte[8];
        world.sendRecv(direct, 8, MPI.BYTE, next(), 4, raw, 8, MPI.BYTE, prev(), 4);
        c.equal("direct IntBuffer as MPI.BYTE", 42, ByteBuffer.wrap(raw)
                .order(ByteOrder.nativeOrder()).getInt(4));
        int[] b = new int[3];
        if (rank == 0) {
            b = new int[] {7, 8, 9};
        }
        world.bcast(b, 12, MPI.BYTE, 0);
        c.check("bcast of int[] as MPI.BYTE", b[0] == 7 && b[2] == 9, "wrong");
        short[] all = new short[2 * size];
        world.allGather(new short[] {(short) rank, (short) -rank}, 4, MPI.BYTE, all, 4,
                MPI.BYTE);
        c.equal("allGather of short[] as MPI.BYTE", (short) -(size - 1), all[2 * size - 1]);
        int[] bits = {1 << rank};
        int[] or = new int[1];
        world.allReduce(bits, or, 4, MPI.BYTE, MPI.BOR);
        c.equal("allReduce of int[] as 4 MPI.BYTE with BOR", (1 << size) - 1, or[0]);
        c.expectError("a count that overruns the array", MPI.ERR_BUFFER, "MPI_Send",
                () -> world.send(new int[2], 9, MPI.BYTE, next(), 5));
        c.expectError("a type whose size does not divide the array's bytes", MPI.ERR_TYPE,
                "MPI_Send", () -> world.send(new byte[6], 1, MPI.INT, next(), 5));
    }

    private static void nullBuffers() throws Exception {
        Status s = world.sendRecv(null, 0, MPI.INT, next(), 6, null, 0, MPI.INT, prev(), 6);
        c.equal("sendRecv of nothing", 0, s.getCount(MPI.INT));
        if (rank == 0) {
            world.send(null, 0, MPI.DOUBLE, 1 % size, 7);
        }
        if (rank == 1 % size) {
            c.equal("recv of nothing", 0, world.recv(null, 0, MPI.DOUBLE, 0, 7)
                    .getCount(MPI.DOUBLE));
        }
        // a bare null, as Open MPI programs write it (it must compile: the Buffer form)
        Request r = world.iRecv(null, 0, MPI.INT, prev(), 8);
        world.iSend(null, 0, MPI.INT, next(), 8).waitFor();
        c.equal("iSend/iRecv of nothing", 0, r.waitStatus().getCount(MPI.INT));
        world.bcast(null, 0, MPI.INT, 0);
        world.allReduce(null, null, 0, MPI.INT, MPI.SUM);
        world.reduce(null, null, 0, MPI.DOUBLE, MPI.MAX, 0);
        world.gather(null, 0, MPI.INT, null, 0, MPI.INT, 0);
        world.allGather(null, 0, MPI.INT, null, 0, MPI.INT);
        world.allToAll(null, 0, MPI.INT, null, 0, MPI.INT);
        world.scatter(null, 0, MPI.INT, null, 0, MPI.INT, 0);
        world.scan(null, null, 0, MPI.INT, MPI.SUM);
        world.iAllReduce(null, null, 0, MPI.INT, MPI.SUM).waitFor();
        c.pass("collectives of nothing with null buffers");
        c.equal("pack of nothing", 0, world.pack(null, 0, MPI.INT, new byte[0], 0));
    }

    private static void callErrhandler() throws Exception {
        world.callErrhandler(MPI.ERR_OTHER);
        c.pass("Comm.callErrhandler returns under ERRORS_RETURN");
        Win w = new Win(MPI.newIntBuffer(1), 1, 1, MPI.INFO_NULL, world);
        w.setErrhandler(MPI.ERRORS_RETURN);
        w.callErrhandler(MPI.ERR_WIN);
        c.pass("Win.callErrhandler returns under ERRORS_RETURN");
        w.free();
    }

    private static void freedKeyvals() throws Exception {
        int kv = Comm.createKeyval();
        Intracomm comm = world.dup();
        comm.setAttr(kv, "kept");
        Comm.freeKeyval(kv);
        c.equal("a freed keyval still reads its attribute", "kept", comm.getAttr(kv));
        Intracomm copy = comm.dup();
        c.equal("and a dup copies it", "kept", copy.getAttr(kv));
        comm.setAttr(kv, "changed");
        c.equal("and it can be set again there", "changed", comm.getAttr(kv));
        comm.deleteAttr(kv);
        copy.free();
        c.expectError("once no attribute uses it, it is gone", MPI.ERR_KEYVAL,
                "MPI_Comm_get_attr", () -> comm.getAttr(kv));
        c.expectError("and it cannot be set on another object", MPI.ERR_KEYVAL,
                "MPI_Comm_set_attr", () -> world.setAttr(kv, "x"));
        int tkv = Datatype.createKeyval();
        Datatype t = Datatype.createContiguous(2, MPI.INT);
        t.setAttr(tkv, 5);
        Datatype.freeKeyval(tkv);
        c.equal("a freed datatype keyval still reads", 5, t.getAttr(tkv));
        t.free();
        comm.free();
    }

    private static void infoEnv(String[] args) throws Exception {
        Info env = MPI.INFO_ENV;
        c.equal("command is the main class", BufferRulesProgram.class.getName(),
                env.get("command"));
        c.equal("argv is its arguments", String.join(" ", args), env.get("argv"));
        c.equal("maxprocs is the world size", Integer.toString(size), env.get("maxprocs"));
        for (String key : new String[] {"host", "arch", "wdir", "thread_level", "ompi_num_apps",
                "ompi_first_rank", "ompi_np"}) {
            c.check("INFO_ENV has " + key, env.get(key) != null, "missing");
        }
    }

    private static void bsendWithoutBuffer() throws Exception {
        c.equal("nothing attached", null, MPI.detachBuffer());
        IntBuffer in = MPI.newIntBuffer(1);
        Request r = world.iRecv(in, 1, MPI.INT, prev(), 9);
        world.bSend(new int[] {rank}, 1, MPI.INT, next(), 9);
        r.waitFor();
        c.equal("a small bSend with no buffer attached arrives", prev(), in.get(0));
        c.expectError("a large bSend with no buffer attached", MPI.ERR_BUFFER, "MPI_Bsend",
                () -> world.bSend(new byte[4 << 20], 4 << 20, MPI.BYTE, next(), 10));
        world.barrier();
    }
}
