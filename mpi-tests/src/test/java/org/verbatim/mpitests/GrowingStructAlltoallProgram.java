package org.verbatim.mpitests;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * The datatype paper's MPI_Alltoall test type (its figure 10) checked at any number of ranks:
 * a struct of INT blocks of 1, 2, 4, ..., {@code last} ints, each followed by a gap as long as
 * itself (none after the last). Every rank sends one struct element to every rank, struct to
 * struct, struct to contiguous bytes and contiguous bytes to struct, blocking and nonblocking,
 * with a small {@code last} (eager) and a large one (rendezvous); each received int is checked,
 * and every gap byte of a receive buffer must keep its sentinel.
 */
public final class GrowingStructAlltoallProgram {
    private static final int SENTINEL = 0xDEADBEEF;
    private final Checks c;
    private final Intracomm world = MPI.COMM_WORLD;
    private final int rank;
    private final int size;

    private GrowingStructAlltoallProgram(Checks c, int rank, int size) {
        this.c = c;
        this.rank = rank;
        this.size = size;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        Checks c = new Checks(rank);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        GrowingStructAlltoallProgram p = new GrowingStructAlltoallProgram(c, rank,
                MPI.COMM_WORLD.getSize());
        for (int last : new int[] {16, 2048, 32768}) {
            c.run("growing struct up to " + last + " ints", () -> p.run(last));
        }
        int status = c.summary();
        MPI.Finalize();
        System.exit(status);
    }

    /** The blocks' int offsets in one element: block i (2^i ints) at offset 2^(i+1) - 2. */
    private static int[] offsets(int last) {
        int n = Integer.numberOfTrailingZeros(last) + 1;
        int[] at = new int[n];
        for (int i = 0, b = 1, o = 0; i < n; i++, b *= 2) {
            at[i] = o;
            o += 2 * b;
        }
        return at;
    }

    /** Ints in one element's extent: the blocks and the gaps between them. */
    private static int extentInts(int last) {
        return 3 * last - 2;
    }

    /** The value of packed int {@code k} of the element that {@code from} sends to {@code to}. */
    private static int value(int from, int to, int k) {
        return (from * 64 + to) * 1_000_000 + k + 1;
    }

    private Datatype type(int last) throws Exception {
        int[] at = offsets(last);
        int n = at.length;
        int[] lengths = new int[n];
        int[] displs = new int[n];
        Datatype[] types = new Datatype[n];
        for (int i = 0; i < n; i++) {
            lengths[i] = 1 << i;
            displs[i] = at[i] * 4;
            types[i] = MPI.INT;
        }
        Datatype t = Datatype.createStruct(lengths, displs, types);
        t.commit();
        return t;
    }

    /** A buffer of {@code size} elements: the blocks hold what this rank sends, gaps sentinels. */
    private ByteBuffer structSend(int last) {
        int ext = extentInts(last);
        ByteBuffer b = MPI.newByteBuffer(ext * 4 * size).order(ByteOrder.nativeOrder());
        for (int i = 0; i < ext * size; i++) {
            b.putInt(i * 4, SENTINEL);
        }
        int[] at = offsets(last);
        for (int to = 0; to < size; to++) {
            int k = 0;
            for (int i = 0; i < at.length; i++) {
                for (int j = 0; j < 1 << i; j++) {
                    b.putInt((to * ext + at[i] + j) * 4, value(rank, to, k++));
                }
            }
        }
        return b;
    }

    private ByteBuffer sentinels(int ints) {
        ByteBuffer b = MPI.newByteBuffer(ints * 4).order(ByteOrder.nativeOrder());
        for (int i = 0; i < ints; i++) {
            b.putInt(i * 4, SENTINEL);
        }
        return b;
    }

    private ByteBuffer contiguousSend(int last) {
        int ints = 2 * last - 1;
        ByteBuffer b = MPI.newByteBuffer(ints * 4 * size).order(ByteOrder.nativeOrder());
        for (int to = 0; to < size; to++) {
            for (int k = 0; k < ints; k++) {
                b.putInt((to * ints + k) * 4, value(rank, to, k));
            }
        }
        return b;
    }

    /** Checks a buffer received under the struct: blocks from each sender, gaps untouched. */
    private void checkStruct(String name, ByteBuffer got, int last) {
        int ext = extentInts(last);
        int[] at = offsets(last);
        boolean[] inBlock = new boolean[ext];
        for (int i = 0; i < at.length; i++) {
            for (int j = 0; j < 1 << i; j++) {
                inBlock[at[i] + j] = true;
            }
        }
        String bad = null;
        for (int from = 0; from < size && bad == null; from++) {
            int k = 0;
            for (int x = 0; x < ext; x++) {
                int want = inBlock[x] ? value(from, rank, k++) : SENTINEL;
                int have = got.getInt((from * ext + x) * 4);
                if (have != want) {
                    bad = "from rank " + from + ", int " + x + " of the element: expected "
                            + Integer.toHexString(want) + ", got " + Integer.toHexString(have);
                    break;
                }
            }
        }
        c.check(name, bad == null, bad);
    }

    private void checkContiguous(String name, ByteBuffer got, int last) {
        int ints = 2 * last - 1;
        String bad = null;
        for (int from = 0; from < size && bad == null; from++) {
            for (int k = 0; k < ints; k++) {
                int have = got.getInt((from * ints + k) * 4);
                if (have != value(from, rank, k)) {
                    bad = "from rank " + from + ", packed int " + k + ": expected "
                            + value(from, rank, k) + ", got " + have;
                    break;
                }
            }
        }
        c.check(name, bad == null, bad);
    }

    private void run(int last) throws Exception {
        Datatype t = type(last);
        int ext = extentInts(last);
        int ints = 2 * last - 1;
        String at = " (last block " + last + " ints, " + size + " ranks)";
        c.equal("struct size" + at, ints * 4L, t.getSize());
        c.equal("struct extent" + at, ext * 4L, t.getExtent());

        ByteBuffer send = structSend(last);
        ByteBuffer recv = sentinels(ext * size);
        world.allToAll(send, 1, t, recv, 1, t);
        checkStruct("allToAll struct to struct" + at, recv, last);

        ByteBuffer bytes = sentinels(ints * size);
        world.allToAll(send, 1, t, bytes, ints * 4, MPI.BYTE);
        checkContiguous("allToAll struct to contiguous" + at, bytes, last);

        recv = sentinels(ext * size);
        world.allToAll(contiguousSend(last), ints * 4, MPI.BYTE, recv, 1, t);
        checkStruct("allToAll contiguous to struct" + at, recv, last);

        recv = sentinels(ext * size);
        Request r = world.iAllToAll(send, 1, t, recv, 1, t);
        r.waitFor();
        checkStruct("iAllToAll struct to struct" + at, recv, last);
        t.free();
    }
}
