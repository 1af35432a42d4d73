package org.verbatim.mpitests;

import java.nio.IntBuffer;
import java.util.List;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Message;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import mpi.Struct;

/**
 * Derived datatypes through every point-to-point call: each rank sends to the next and receives
 * from the previous one, with every constructor ({@link DatatypeCases}), and checks the received
 * buffer int by int against the hand-written type map (gaps must keep their sentinels). Also
 * sizes and bounds, pack/unpack, partial receives, a struct with gaps, and bad input.
 */
public final class DatatypeProgram {
    enum How { SEND, SSEND, BSEND, RSEND, ISEND, ISSEND, SENDRECV, REPLACE, PERSISTENT, PROBE, MPROBE,
        IMRECV }

    private final Checks c;
    private final Intracomm world = MPI.COMM_WORLD;
    private final int rank;
    private final int next;
    private final int prev;
    private final int size;

    private DatatypeProgram(Checks c, int rank, int size) {
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
        DatatypeProgram p = new DatatypeProgram(c, rank, size);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        MPI.attachBuffer(new byte[1 << 20]);
        List<DatatypeCases.Case> cases = DatatypeCases.all(rank, size);
        c.run("bounds", p::bounds);
        for (DatatypeCases.Case t : cases) {
            for (How how : How.values()) {
                c.run(t.name() + " " + how, () -> p.transfer(t, how, 2));
            }
        }
        c.run("rendezvous sizes", p::rendezvous);
        c.run("pack and unpack", () -> p.packUnpack(cases));
        c.run("partial receives", p::partial);
        c.run("struct", p::struct);
        c.run("bad input", p::badInput);
        MPI.detachBuffer();
        int status = c.summary();
        MPI.Finalize();
        System.exit(status);
    }

    private void bounds() throws Exception {
        Datatype v = Datatype.createVector(4, 2, 5, MPI.INT);
        v.commit();
        c.equal("vector size", 8, v.getSize());
        c.equal("vector extent", 17, v.getExtent());
        c.equal("vector lb", 0, v.getLb());
        Datatype r = Datatype.createResized(v, -8, 100);
        c.equal("resized lb in ints", -2, r.getLb());
        c.equal("resized extent in ints", 25, r.getExtent());
        c.equal("resized true lb", 0, r.getTrueLb());
        c.equal("resized true extent", 17, r.getTrueExtent());
        Datatype h = Datatype.createHIndexed(new int[] {1, 2}, new int[] {20, 4}, MPI.INT);
        c.equal("hindexed true lb", 1, h.getTrueLb());
        Datatype s = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE});
        c.equal("struct size in bytes", 12, s.getSize());
        c.equal("struct extent in bytes", 16, s.getExtent());
        int[] env = v.getEnvelope();
        c.equal("envelope combiner", MPI.COMBINER_VECTOR, env[3]);
        c.equal("envelope integers", 3, env[0]);
        c.equal("contents", "[4, 2, 5]", java.util.Arrays.toString(v.getContents().getIntegers()));
        c.check("contents type", v.getContents().getDatatypes()[0] == MPI.INT, "not MPI.INT");
        c.equal("envelope of INT", MPI.COMBINER_NAMED, MPI.INT.getEnvelope()[3]);
        v.free();
        c.check("freed", v.isNull(), "not null after free");
    }

    /** {@code count} elements of {@code t} from this rank's buffer to the next rank's. */
    private void transfer(DatatypeCases.Case t, How how, int count) throws Exception {
        int len = t.span(count);
        int[] send = DatatypeCases.sendBuffer(rank, len);
        int[] recv = DatatypeCases.sentinels(len);
        Datatype T = t.type();
        int tag = 40 + how.ordinal();
        Status st = switch (how) {
            case SEND -> {
                Request r = world.iRecv(recv, count, T, prev, tag);
                world.send(send, count, T, next, tag);
                yield r.waitStatus();
            }
            case SSEND -> {
                Request r = world.iRecv(recv, count, T, prev, tag);
                world.sSend(send, count, T, next, tag);
                yield r.waitStatus();
            }
            case BSEND -> {
                world.bSend(send, count, T, next, tag);
                yield world.recv(recv, count, T, prev, tag);
            }
            case RSEND -> {
                Request r = world.iRecv(recv, count, T, prev, tag);
                world.barrier();
                world.rSend(send, count, T, next, tag);
                yield r.waitStatus();
            }
            case ISEND, ISSEND -> {
                IntBuffer out = MPI.newIntBuffer(len).put(0, send);
                IntBuffer in = MPI.newIntBuffer(len).put(0, recv);
                Request r = world.iRecv(in, count, T, prev, tag);
                Request s = how == How.ISEND ? world.iSend(out, count, T, next, tag)
                        : world.isSend(out, count, T, next, tag);
                s.waitFor();
                Status x = r.waitStatus();
                in.get(0, recv);
                yield x;
            }
            case SENDRECV -> world.sendRecv(send, count, T, next, tag, recv, count, T, prev, tag);
            case REPLACE -> {
                recv = send.clone();
                // in place: the gaps keep this rank's own values
                Status x = world.sendRecvReplace(recv, count, T, next, tag, prev, tag);
                int[] want = DatatypeCases.expected(t.asBuiltBy(prev, size), t, prev, count, len, 0);
                for (int i = 0; i < len; i++) {
                    if (want[i] == DatatypeCases.SENTINEL) {
                        want[i] = send[i];
                    }
                }
                c.check(t.name() + " REPLACE data", java.util.Arrays.equals(want, recv),
                        DatatypeCases.diff(want, recv));
                yield x;
            }
            case PERSISTENT -> {
                IntBuffer out = MPI.newIntBuffer(len).put(0, send);
                IntBuffer in = MPI.newIntBuffer(len).put(0, recv);
                Prequest r = world.recvInit(in, count, T, prev, tag);
                Prequest s = world.sendInit(out, count, T, next, tag);
                Status x = null;
                for (int round = 0; round < 2; round++) {
                    in.put(0, DatatypeCases.sentinels(len));
                    r.start();
                    s.start();
                    s.waitFor();
                    x = r.waitStatus();
                }
                r.free();
                s.free();
                in.get(0, recv);
                yield x;
            }
            case PROBE -> {
                Request s = world.iSend(send, count, T, next, tag);
                Status p = world.probe(prev, tag);
                c.equal(t.name() + " probe count", count, p.getCount(T));
                Status x = world.recv(recv, count, T, prev, tag);
                s.waitFor();
                yield x;
            }
            case MPROBE, IMRECV -> {
                Request s = world.iSend(send, count, T, next, tag);
                Message m = new Message();
                m.mProbe(prev, tag, world);
                Status x;
                if (how == How.MPROBE) {
                    x = m.mRecv(recv, count, T);
                } else {
                    IntBuffer in = MPI.newIntBuffer(len).put(0, recv);
                    x = m.imRecv(in, count, T).waitStatus();
                    in.get(0, recv);
                }
                s.waitFor();
                yield x;
            }
        };
        if (how != How.REPLACE) {
            int[] want = DatatypeCases.expected(t.asBuiltBy(prev, size), t, prev, count, len, 0);
            c.check(t.name() + " " + how + " data", java.util.Arrays.equals(want, recv),
                    DatatypeCases.diff(want, recv));
        }
        c.equal(t.name() + " " + how + " count", count, st.getCount(T));
        c.equal(t.name() + " " + how + " elements", t.ints(count), st.getElements(T));
    }

    /** Messages past the eager limit: the layout is packed for the rendezvous and unpacked. */
    private void rendezvous() throws Exception {
        Datatype cols = Datatype.createVector(2048, 3, 5, MPI.INT);
        cols.commit();
        DatatypeCases.Case t = new DatatypeCases.Case("vector(2048,3,5)", cols,
                vectorMap(2048, 3, 5), 2047 * 5 + 3);
        for (How how : new How[] {How.SEND, How.SSEND, How.ISEND, How.SENDRECV, How.MPROBE}) {
            transfer(t, how, 3);
        }
    }

    private static int[] vectorMap(int count, int block, int stride) {
        int[] m = new int[count * block];
        for (int i = 0; i < count; i++) {
            for (int j = 0; j < block; j++) {
                m[i * block + j] = i * stride + j;
            }
        }
        return m;
    }

    private void packUnpack(List<DatatypeCases.Case> cases) throws Exception {
        for (DatatypeCases.Case t : cases) {
            int count = 3;
            int len = t.span(count);
            int[] src = DatatypeCases.sendBuffer(rank, len);
            int bytes = world.packSize(count, t.type());
            c.equal(t.name() + " packSize", 4L * t.ints(count), bytes);
            byte[] packed = new byte[bytes + 8];
            int end = world.pack(src, count, t.type(), packed, 8);
            c.equal(t.name() + " pack position", bytes + 8, end);
            java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(packed).order(java.nio.ByteOrder.nativeOrder());
            boolean ok = true;
            for (int k = 0; k < t.ints(count); k++) {
                ok &= bb.getInt(8 + 4 * k) == src[t.index(k)];
            }
            c.check(t.name() + " packed in type-map order", ok, "packed ints differ");
            int[] out = DatatypeCases.sentinels(len);
            c.equal(t.name() + " unpack position", bytes + 8,
                    world.unpack(packed, 8, out, count, t.type()));
            int[] want = DatatypeCases.expected(t, t, rank, count, len, 0);
            c.check(t.name() + " unpack", java.util.Arrays.equals(want, out),
                    DatatypeCases.diff(want, out));
        }
    }

    /** A receive of fewer bytes than its type holds: count, elements, and only they land. */
    private void partial() throws Exception {
        Datatype v = Datatype.createVector(4, 2, 5, MPI.INT);
        v.commit();
        int[] send = DatatypeCases.sendBuffer(rank, 64);
        int[] recv = DatatypeCases.sentinels(64);
        Request r = world.iRecv(recv, 2, v, prev, 90);
        world.send(send, 5, MPI.INT, next, 90);
        Status st = r.waitStatus();
        c.equal("partial count is undefined", MPI.UNDEFINED, st.getCount(v));
        c.equal("partial elements", 5, st.getElements(v));
        int[] want = DatatypeCases.sentinels(64);
        int[] map = {0, 1, 5, 6, 10};
        for (int k = 0; k < 5; k++) {
            want[map[k]] = DatatypeCases.value(prev, k);
        }
        c.check("partial data", java.util.Arrays.equals(want, recv), DatatypeCases.diff(want, recv));
        // one whole element and a bit: count undefined, elements 8 + 1
        recv = DatatypeCases.sentinels(64);
        r = world.iRecv(recv, 2, v, prev, 91);
        world.send(send, 9, MPI.INT, next, 91);
        st = r.waitStatus();
        c.equal("one and a bit elements", 9, st.getElements(v));
        c.equal("one and a bit count", MPI.UNDEFINED, st.getCount(v));
        // too much data: truncation, reported as an error
        recv = DatatypeCases.sentinels(64);
        Request t = world.iRecv(recv, 1, v, prev, 92);
        world.send(send, 2, v, next, 92);
        c.expectError("truncated receive", MPI.ERR_TRUNCATE, null, t::waitFor);
    }

    /** A Struct with a gap: the gap is not transferred (the receiver's gap bytes stay). */
    private void struct() throws Exception {
        Pair s = new Pair();
        int n = 3;
        byte[] out = new byte[s.getExtent() * n];
        for (int i = 0; i < n; i++) {
            Pair.Data d = s.getData(out, i);
            d.set(rank * 10 + i, rank + i / 4.0);
        }
        java.util.Arrays.fill(out, 4, 8, (byte) 1); // a gap the sender fills: must not travel
        byte[] in = new byte[s.getExtent() * n];
        java.util.Arrays.fill(in, (byte) 0x33);
        world.sendRecv(out, n, s.getType(), next, 95, in, n, s.getType(), prev, 95);
        boolean ok = true;
        for (int i = 0; i < n; i++) {
            Pair.Data d = s.getData(in, i);
            ok &= d.a() == prev * 10 + i && d.b() == prev + i / 4.0;
            for (int g = 4; g < 8; g++) {
                ok &= in[i * s.getExtent() + g] == 0x33;
            }
        }
        c.check("struct fields arrive, gaps stay", ok, java.util.Arrays.toString(in));
        c.equal("struct type size", 12, s.getType().getSize());
        c.equal("struct type extent", 16, s.getType().getExtent());
    }

    /** {int a; (4 byte gap) double b} */
    static final class Pair extends Struct {
        private final int a = addInt();
        private final int b = setOffset(8).addDouble();

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int a() {
                return getInt(a);
            }

            double b() {
                return getDouble(b);
            }

            void set(int x, double y) {
                putInt(a, x);
                putDouble(b, y);
            }
        }
    }

    private void badInput() throws Exception {
        int[] buf = new int[64];
        Datatype un = Datatype.createVector(2, 1, 3, MPI.INT);
        c.expectError("uncommitted send", MPI.ERR_TYPE, "MPI_Send",
                () -> world.send(buf, 1, un, next, 99));
        Datatype freed = Datatype.createVector(2, 1, 3, MPI.INT);
        freed.commit();
        freed.free();
        c.expectError("freed send", MPI.ERR_TYPE, "MPI_Send", () -> world.send(buf, 1, freed, next, 99));
        c.expectError("freed recv", MPI.ERR_TYPE, "MPI_Recv", () -> world.recv(buf, 1, freed, prev, 99));
        Datatype v = Datatype.createVector(4, 2, 5, MPI.INT);
        v.commit();
        int[] small = DatatypeCases.sentinels(16); // the layout needs 17 ints
        c.expectError("array too short for a send", MPI.ERR_BUFFER, "MPI_Send",
                () -> world.send(small, 1, v, next, 99));
        c.expectError("array too short for a receive", MPI.ERR_BUFFER, "MPI_Recv",
                () -> world.recv(small, 1, v, prev, 99));
        c.expectError("array too short for irecv", MPI.ERR_BUFFER, "MPI_Irecv",
                () -> world.iRecv(small, 1, v, prev, 99));
        c.expectError("array too short for unpack", MPI.ERR_BUFFER, "MPI_Unpack",
                () -> world.unpack(new byte[64], 0, small, 1, v));
        c.check("nothing written to the short array",
                java.util.Arrays.equals(DatatypeCases.sentinels(16), small), java.util.Arrays.toString(small));
        c.expectError("negative count", MPI.ERR_COUNT, "MPI_Type_contiguous",
                () -> Datatype.createContiguous(-1, MPI.INT));
        c.expectError("mismatched lists", MPI.ERR_ARG, "MPI_Type_indexed",
                () -> Datatype.createIndexed(new int[] {1, 2}, new int[] {0}, MPI.INT));
        c.expectError("bad subarray", MPI.ERR_ARG, "MPI_Type_create_subarray",
                () -> Datatype.createSubarray(new int[] {4}, new int[] {3}, new int[] {2},
                        MPI.ORDER_C, MPI.INT));
        Datatype overlap = Datatype.createIndexed(new int[] {2, 1}, new int[] {0, 1}, MPI.INT);
        overlap.commit();
        c.expectError("overlapping receive type", MPI.ERR_TYPE, "MPI_Recv",
                () -> world.recv(buf, 1, overlap, prev, 99));
        c.expectError("contents of a predefined type", MPI.ERR_ARG, "MPI_Type_get_contents",
                () -> MPI.INT.getContents());
        Datatype ints = Datatype.createVector(3, 1, 2, MPI.INT); // 12 bytes: no divisor of 64
        ints.commit();
        c.expectError("wrong array class", MPI.ERR_TYPE, "MPI_Send",
                () -> world.send(new double[8], 1, ints, next, 99));
        world.barrier();
    }
}
