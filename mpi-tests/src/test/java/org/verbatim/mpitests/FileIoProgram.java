package org.verbatim.mpitests;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.CartComm;
import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * MPI-IO data paths at any rank count, each file checked byte for byte against the file a
 * sequential program would write: contiguous blocks, a 2-D block-distributed subarray view
 * (two-phase, with several rounds, and without collective buffering), an interleaved (cyclic)
 * view, shared and ordered pointers, individual pointers, nonblocking I/O overlapped with a ring
 * exchange, and split collectives. Argument: a directory every rank can reach.
 */
public final class FileIoProgram {
    private static Checks c;
    private static Intracomm world;
    private static int rank;
    private static int size;
    private static Path dir;

    private FileIoProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();
        dir = Path.of(args[0]);
        c = new Checks(rank);
        c.run("contiguous blocks", FileIoProgram::contiguousBlocks);
        for (String[] hints : new String[][] {{}, {"cb_buffer_size", "4096"},
                {"romio_cb_write", "disable", "romio_cb_read", "disable"},
                {"cb_nodes", "1", "cb_buffer_size", "8192"}}) {
            c.run("subarray view " + String.join("=", hints), () -> subarrayView(hints));
        }
        c.run("cyclic view", FileIoProgram::cyclicView);
        c.run("shared pointer", FileIoProgram::sharedPointer);
        c.run("nonblocking shared pointer", FileIoProgram::nonblockingShared);
        c.run("ordered", FileIoProgram::ordered);
        c.run("individual pointer", FileIoProgram::individualPointer);
        c.run("nonblocking overlapped with communication", FileIoProgram::nonblocking);
        c.run("split collectives", FileIoProgram::splitCollectives);
        c.run("sizes, info, atomicity", FileIoProgram::sizesInfoAtomicity);
        c.run("atomic overlapping writes", FileIoProgram::atomicOverlappingWrites);
        world.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }

    /** The value at global int index {@code i} of every reference file. */
    private static int value(long i) {
        return (int) (i * 2654435761L) ^ 0x5bd1e995;
    }

    private static String file(String name) {
        return dir.resolve(name).toString();
    }

    /** Rank 0 compares the file with {@code n} reference ints (after everyone closed it). */
    private static void checkFile(String name, String path, int n) throws Exception {
        world.barrier();
        if (rank == 0) {
            byte[] got = Files.readAllBytes(Path.of(path));
            ByteBuffer want = ByteBuffer.allocate(4 * n).order(ByteOrder.nativeOrder());
            for (int i = 0; i < n; i++) {
                want.putInt(value(i));
            }
            boolean same = java.util.Arrays.equals(got, want.array());
            int at = java.util.Arrays.mismatch(got, want.array());
            c.check(name + ": file equals the sequential reference", same, "differs at byte "
                    + at + " (file " + got.length + " bytes, reference " + 4 * n + ")");
        }
        world.barrier();
    }

    private static void contiguousBlocks() throws Exception {
        int per = 1000 + 17;
        String path = file("blocks");
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_WRONLY);
        int[] mine = new int[per];
        for (int i = 0; i < per; i++) {
            mine[i] = value((long) rank * per + i);
        }
        f.setView(0, MPI.INT, MPI.INT, "native");
        Status s = f.writeAtAll((long) rank * per, mine, per, MPI.INT);
        c.equal("writeAtAll count", per, s.getCount(MPI.INT));
        f.close();
        checkFile("contiguous writeAtAll", path, per * size);
        File g = new File(world, path, MPI.MODE_RDONLY);
        int[] back = new int[per];
        g.setView(4L * rank * per, MPI.INT, MPI.INT, "native");
        Status r = g.readAll(back, per, MPI.INT);
        c.equal("readAll count", per, r.getCount(MPI.INT));
        c.check("readAll data", java.util.Arrays.equals(back, mine), "differs");
        c.equal("pointer moved", per, g.getPosition());
        g.close();
    }

    /** A G x G int array on a process grid, each rank a block: written and read through views. */
    private static void subarrayView(String[] hints) throws Exception {
        int[] dims = new int[2];
        CartComm.createDims(size, dims);
        int g0 = 6 * dims[0] + 1;
        int g1 = 10 * dims[1] + 3;
        int r0 = rank / dims[1];
        int r1 = rank % dims[1];
        int[] sub = {g0 / dims[0] + (r0 < g0 % dims[0] ? 1 : 0),
                g1 / dims[1] + (r1 < g1 % dims[1] ? 1 : 0)};
        int[] start = {r0 * (g0 / dims[0]) + Math.min(r0, g0 % dims[0]),
                r1 * (g1 / dims[1]) + Math.min(r1, g1 % dims[1])};
        Datatype t = Datatype.createSubarray(new int[] {g0, g1}, sub, start, MPI.ORDER_C, MPI.INT);
        t.commit();
        int n = sub[0] * sub[1];
        int[] local = new int[n];
        for (int i = 0; i < sub[0]; i++) {
            for (int j = 0; j < sub[1]; j++) {
                local[i * sub[1] + j] = value((long) (start[0] + i) * g1 + start[1] + j);
            }
        }
        Info info = new Info();
        for (int i = 0; i < hints.length; i += 2) {
            info.set(hints[i], hints[i + 1]);
        }
        String path = file("subarray" + hints.length);
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR, info);
        f.setView(0, MPI.INT, t, "native");
        Status s = f.writeAll(local, n, MPI.INT);
        c.equal("writeAll count", n, s.getCount(MPI.INT));
        f.sync();
        int[] back = new int[n];
        f.seek(0, MPI.SEEK_SET);
        f.readAll(back, n, MPI.INT);
        c.check("readAll through the view", java.util.Arrays.equals(back, local), "differs");
        f.close();
        checkFile("subarray writeAll", path, g0 * g1);
        t.free();
    }

    /** Rank r owns ints r, r+p, r+2p, ...: a resized INT filetype, interleaved two-phase. */
    private static void cyclicView() throws Exception {
        int per = 5000;
        Datatype cyclic = Datatype.createResized(MPI.INT, 0, 4 * size);
        cyclic.commit();
        int[] mine = new int[per];
        for (int i = 0; i < per; i++) {
            mine[i] = value((long) i * size + rank);
        }
        String path = file("cyclic");
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_WRONLY);
        f.setView(4L * rank, MPI.INT, cyclic, "native");
        f.writeAll(MPI.slice(mine, 0), per, MPI.INT);
        c.equal("byte offset of view offset 3", 4L * rank + 3L * 4 * size, f.getByteOffset(3));
        f.close();
        checkFile("cyclic writeAll", path, per * size);
        cyclic.free();
    }

    private static void sharedPointer() throws Exception {
        String path = file("shared");
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        int records = 20;
        for (int k = 0; k < records; k++) {
            f.writeShared(new int[] {rank, k, rank * 1000 + k}, 3, MPI.INT);
        }
        world.barrier();
        c.equal("shared pointer after all writes (bytes)", 12L * records * size,
                f.getPositionShared());
        f.close();
        world.barrier();
        if (rank == 0) {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(Path.of(path)))
                    .order(ByteOrder.nativeOrder());
            c.equal("file size", 12L * records * size, b.capacity());
            boolean[][] seen = new boolean[size][records];
            boolean ok = true;
            int[] last = new int[size];
            java.util.Arrays.fill(last, -1);
            for (int i = 0; i + 12 <= b.capacity(); i += 12) {
                int r = b.getInt(i);
                int k = b.getInt(i + 4);
                boolean valid = r >= 0 && r < size && k >= 0 && k < records
                        && b.getInt(i + 8) == r * 1000 + k && !seen[r][k] && k > last[r];
                ok &= valid;
                if (valid) {
                    seen[r][k] = true;
                    last[r] = k;
                }
            }
            c.check("every record whole, once, each rank's in its order", ok, "bad records");
        }
        world.barrier();
    }

    private static void ordered() throws Exception {
        String path = file("ordered");
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        int base = 0;
        for (int r = 0; r < rank; r++) {
            base += r + 1;
        }
        int[] mine = new int[rank + 1];
        for (int i = 0; i <= rank; i++) {
            mine[i] = value(base + i);
        }
        f.setView(0, MPI.INT, MPI.INT, "native");
        f.writeOrdered(mine, rank + 1, MPI.INT);
        f.seekShared(0, MPI.SEEK_SET);
        int[] back = new int[rank + 1];
        f.readOrdered(back, rank + 1, MPI.INT);
        c.check("readOrdered gives this rank's part", java.util.Arrays.equals(back, mine),
                java.util.Arrays.toString(back));
        f.close();
        checkFile("writeOrdered", path, size * (size + 1) / 2);
    }

    private static void individualPointer() throws Exception {
        String path = file("individual" + rank);
        File f = new File(MPI.COMM_SELF, path, MPI.MODE_CREATE | MPI.MODE_RDWR
                | MPI.MODE_DELETE_ON_CLOSE);
        f.setView(0, MPI.INT, MPI.INT, "native");
        int[] a = {value(0), value(1), value(2), value(3)};
        f.write(a, 4, MPI.INT);
        c.equal("position after write", 4, f.getPosition());
        f.seek(-3, MPI.SEEK_CUR);
        int[] two = new int[2];
        f.read(two, 2, MPI.INT);
        c.check("read after seek", two[0] == a[1] && two[1] == a[2], "wrong data");
        f.seek(-1, MPI.SEEK_END);
        Status s = f.read(two, 2, MPI.INT);
        c.equal("read past the end stops there", 1, s.getCount(MPI.INT));
        c.equal("value at the end", a[3], two[0]);
        Status none = f.readAt(100, two, 2, MPI.INT);
        c.equal("readAt past the end reads nothing", 0, none.getCount(MPI.INT));
        f.close();
        c.check("MODE_DELETE_ON_CLOSE deleted it", !Files.exists(Path.of(path)), "still there");
    }

    private static void nonblocking() throws Exception {
        int ints = 2 << 20;
        String path = file("nonblocking");
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        IntBuffer out = MPI.newIntBuffer(ints);
        for (int i = 0; i < ints; i++) {
            out.put(i, value((long) rank * ints + i));
        }
        Request w = f.iWriteAt((long) rank * ints, out, ints, MPI.INT);
        int[] token = {rank};
        int[] got = new int[1];
        for (int k = 0; k < 50; k++) {
            world.sendRecv(token, 1, MPI.INT, (rank + 1) % size, 5, got, 1, MPI.INT,
                    (rank + size - 1) % size, 5);
        }
        c.equal("ring exchange during the write", (rank + size - 1) % size, got[0]);
        Status s = w.waitStatus();
        c.equal("iWriteAt count", ints, s.getCount(MPI.INT));
        world.barrier();
        IntBuffer in = MPI.newIntBuffer(ints);
        int from = (rank + 1) % size;
        Request r = f.iReadAt((long) from * ints, in, ints, MPI.INT);
        for (int k = 0; k < 20; k++) {
            world.iBarrier().waitFor();
        }
        c.equal("iReadAt count", ints, r.waitStatus().getCount(MPI.INT));
        boolean ok = true;
        for (int i = 0; i < ints; i++) {
            ok &= in.get(i) == value((long) from * ints + i);
        }
        c.check("iReadAt of the neighbour's block", ok, "differs");
        f.close();
        checkFile("iWriteAt", path, ints * size);
    }

    private static void splitCollectives() throws Exception {
        int per = 3000;
        String path = file("split");
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        int[] mine = new int[per];
        IntBuffer direct = MPI.newIntBuffer(per);
        for (int i = 0; i < per; i++) {
            mine[i] = value((long) rank * 2 * per + i);
            direct.put(i, value((long) rank * 2 * per + per + i));
        }
        f.writeAtAllBegin((long) rank * 2 * per, mine, per, MPI.INT);
        c.equal("writeAtAllEnd count", per, f.writeAtAllEnd(mine).getCount(MPI.INT));
        f.seek((long) rank * 2 * per + per, MPI.SEEK_SET);
        f.writeAllBegin(direct, per, MPI.INT);
        c.equal("writeAllEnd count", per, f.writeAllEnd(direct).getCount(MPI.INT));
        world.barrier();
        IntBuffer back = MPI.newIntBuffer(per);
        f.readAtAllBegin((long) rank * 2 * per + per, back, per, MPI.INT);
        Status s = f.readAtAllEnd(back);
        c.equal("readAtAllEnd count", per, s.getCount(MPI.INT));
        c.check("readAtAll split data", back.equals(direct.duplicate().clear()), "differs");
        f.close();
        checkFile("split collective writes", path, 2 * per * size);
    }

    private static void sizesInfoAtomicity() throws Exception {
        String path = file("sizes");
        Info hint = new Info();
        hint.set("cb_buffer_size", "65536");
        hint.set("no_such_hint", "1");
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR, hint);
        c.equal("amode", MPI.MODE_CREATE | MPI.MODE_RDWR, f.getAMode());
        c.equal("group size", size, f.getGroup().getSize());
        c.equal("cb_buffer_size hint", "65536", f.getInfo().get("cb_buffer_size"));
        c.equal("unknown hint ignored", null, f.getInfo().get("no_such_hint"));
        f.setSize(12345);
        c.equal("setSize", 12345, f.getSize());
        f.preallocate(100);
        c.equal("preallocate never shrinks", 12345, f.getSize());
        f.preallocate(20000);
        c.equal("preallocate grows", 20000, f.getSize());
        f.setSize(10);
        c.equal("setSize shrinks", 10, f.getSize());
        c.check("atomicity off at first", !f.getAtomicity(), "on");
        f.setAtomicity(true);
        c.check("atomicity on", f.getAtomicity(), "off");
        byte[] one = {(byte) rank};
        f.writeAt(rank, one, 1, MPI.BYTE);
        f.sync();
        world.barrier();
        f.sync();
        byte[] all = new byte[size];
        f.readAt(0, all, size, MPI.BYTE);
        boolean ok = true;
        for (int r = 0; r < size; r++) {
            ok &= all[r] == r;
        }
        c.check("atomic writes seen by every rank after sync-barrier-sync", ok, "differs");
        c.equal("default error handler", MPI.ERRORS_RETURN, f.getErrhandler());
        c.equal("view etype", MPI.BYTE, f.getView().getEType());
        f.close();
        world.barrier();
        if (rank == 0) {
            File.delete(path);
        }
    }

    /**
     * Atomic mode: every rank writes 12 MiB of its own value over the same bytes at once (three
     * staging chunks each); the file must then hold one rank's data throughout, never a mix.
     */
    private static void atomicOverlappingWrites() throws Exception {
        String path = file("atomic");
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setAtomicity(true);
        int n = 3 << 20;
        int[] mine = new int[n];
        java.util.Arrays.fill(mine, rank + 1);
        f.writeAt(0, mine, n, MPI.INT);
        world.barrier();
        int[] back = new int[n];
        f.readAt(0, back, n, MPI.INT);
        boolean uniform = back[0] >= 1 && back[0] <= size;
        for (int i = 1; i < n && uniform; i++) {
            uniform = back[i] == back[0];
        }
        c.check("one writer's data throughout", uniform, "mixed data, starting " + back[0]);
        f.close();
        world.barrier();
        if (rank == 0) {
            File.delete(path);
        }
    }

    /**
     * iWriteShared of one record per rank, then readShared after seekShared(0): every record is
     * written once and read back by exactly one rank.
     */
    private static void nonblockingShared() throws Exception {
        String path = file("ishared");
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        IntBuffer rec = MPI.newIntBuffer(4);
        for (int i = 0; i < 4; i++) {
            rec.put(i, rank * 100 + i);
        }
        Request w = f.iWriteShared(rec, 4, MPI.INT);
        c.equal("iWriteShared count", 4, w.waitStatus().getCount(MPI.INT));
        world.barrier();
        c.equal("shared pointer after the records", 4L * size, f.getPositionShared());
        f.seekShared(0, MPI.SEEK_SET);
        int[] got = new int[4];
        f.readShared(got, 4, MPI.INT);
        boolean whole = got[0] % 100 == 0 && got[3] == got[0] + 3;
        c.check("readShared gets a whole record", whole, java.util.Arrays.toString(got));
        int[] owners = new int[size];
        world.allGather(new int[] {got[0] / 100}, 1, MPI.INT, owners, 1, MPI.INT);
        java.util.Arrays.sort(owners);
        boolean each = true;
        for (int r = 0; r < size; r++) {
            each &= owners[r] == r;
        }
        c.check("every record read by exactly one rank", each, java.util.Arrays.toString(owners));
        f.close();
        checkFileSize(path, 16L * size);
    }

    private static void checkFileSize(String path, long bytes) throws Exception {
        world.barrier();
        if (rank == 0) {
            c.equal("file size", bytes, Files.size(Path.of(path)));
        }
        world.barrier();
    }
}
