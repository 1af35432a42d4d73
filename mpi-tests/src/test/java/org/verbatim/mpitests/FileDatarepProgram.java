package org.verbatim.mpitests;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import mpi.Datatype;
import mpi.File;
import mpi.Intracomm;
import mpi.MPI;

/**
 * The "external32" data representation across ranks: a collective write through an interleaved
 * vector filetype, a collective write of a struct with a gap, and ordered writes, each file
 * compared raw (java.nio, big-endian) by rank 0 and read back by every rank, and read through a
 * "native" view to see the swapped bytes. Argument: a directory every rank can reach.
 */
public final class FileDatarepProgram {
    private static Checks c;
    private static Intracomm world;
    private static int rank;
    private static int size;
    private static Path dir;

    private FileDatarepProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();
        dir = Path.of(args[0]);
        c = new Checks(rank);
        c.run("vector filetype, collective", FileDatarepProgram::vectorCollective);
        c.run("struct with a gap, collective", FileDatarepProgram::structCollective);
        c.run("ordered", FileDatarepProgram::ordered);
        world.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }

    private static int value(long i) {
        return (int) (i * 2654435761L) ^ 0x5bd1e995;
    }

    /** Rank 0 compares the file with {@code want} (after everyone wrote and closed it). */
    private static void checkRaw(String name, String path, byte[] want) throws Exception {
        world.barrier();
        if (rank == 0) {
            byte[] got = Files.readAllBytes(Path.of(path));
            c.check(name + ": big-endian on disk", Arrays.equals(want, got), "differs at byte "
                    + Arrays.mismatch(want, got) + " (file " + got.length + " bytes, want "
                    + want.length + ")");
        }
        world.barrier();
    }

    /** Pairs of ints, rank r's at pair r of every row of {@code size} pairs. */
    private static void vectorCollective() throws Exception {
        int rows = 257;
        String path = dir.resolve("ext32-vector").toString();
        Datatype tile = Datatype.createVector(rows, 2, 2 * size, MPI.INT);
        tile.commit();
        int[] mine = new int[2 * rows];
        for (int j = 0; j < mine.length; j++) {
            mine[j] = value((long) (j / 2) * 2 * size + 2L * rank + j % 2);
        }
        int[] copy = mine.clone();
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(8L * rank, MPI.INT, tile, "external32");
        f.writeAll(mine, mine.length, MPI.INT);
        c.check("the write left the buffer alone", Arrays.equals(copy, mine), "changed");
        f.sync();
        int total = 2 * rows * size;
        ByteBuffer want = ByteBuffer.allocate(4 * total).order(ByteOrder.BIG_ENDIAN);
        for (int g = 0; g < total; g++) {
            want.putInt(value(g));
        }
        checkRaw("vector", path, want.array());
        int[] back = new int[mine.length];
        f.readAtAll(0, back, back.length, MPI.INT);
        c.check("vector: read back", Arrays.equals(mine, back), "differs at "
                + Arrays.mismatch(mine, back));
        f.setView(8L * rank, MPI.INT, tile, "native");
        int[] swapped = new int[mine.length];
        f.readAll(swapped, swapped.length, MPI.INT);
        boolean same = true;
        for (int j = 0; j < mine.length; j++) {
            same &= swapped[j] == (ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? mine[j]
                    : Integer.reverseBytes(mine[j]));
        }
        c.check("vector: a native view sees the big-endian bytes", same, "not swapped");
        f.close();
        tile.free();
    }

    /** struct {int a; (gap) double b;}: 12 packed bytes per element, each rank a block. */
    private static void structCollective() throws Exception {
        int n = 100;
        Datatype t = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE});
        t.commit();
        int extent = t.getExtent();
        ByteBuffer mem = ByteBuffer.allocateDirect(n * extent).order(ByteOrder.nativeOrder());
        for (int e = 0; e < n; e++) {
            mem.putInt(e * extent, value(rank * n + e));
            mem.putDouble(e * extent + 8, rank * n + e + 0.5);
        }
        String path = dir.resolve("ext32-struct").toString();
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.BYTE, MPI.BYTE, "external32");
        f.writeAtAll(12L * n * rank, mem, n, t);
        f.sync();
        ByteBuffer want = ByteBuffer.allocate(12 * n * size).order(ByteOrder.BIG_ENDIAN);
        for (int g = 0; g < n * size; g++) {
            want.putInt(value(g)).putDouble(g + 0.5);
        }
        checkRaw("struct", path, want.array());
        ByteBuffer back = ByteBuffer.allocateDirect(n * extent).order(ByteOrder.nativeOrder());
        f.readAtAll(12L * n * rank, back, n, t);
        boolean same = true;
        for (int e = 0; e < n; e++) {
            same &= back.getInt(e * extent) == value(rank * n + e)
                    && back.getDouble(e * extent + 8) == rank * n + e + 0.5;
        }
        c.check("struct: read back", same, "differs");
        f.close();
        t.free();
    }

    private static void ordered() throws Exception {
        int n = 33 + rank;
        long[] mine = new long[n];
        for (int i = 0; i < n; i++) {
            mine[i] = ((long) rank << 40) | (0x0102030405L * (i + 1));
        }
        String path = dir.resolve("ext32-ordered").toString();
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.LONG, MPI.LONG, "external32");
        f.writeOrdered(mine, n, MPI.LONG);
        f.sync();
        int total = 0;
        for (int r = 0; r < size; r++) {
            total += 33 + r;
        }
        ByteBuffer want = ByteBuffer.allocate(8 * total).order(ByteOrder.BIG_ENDIAN);
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < 33 + r; i++) {
                want.putLong(((long) r << 40) | (0x0102030405L * (i + 1)));
            }
        }
        checkRaw("ordered", path, want.array());
        f.seekShared(0, MPI.SEEK_SET);
        long[] back = new long[n];
        f.readOrdered(back, n, MPI.LONG);
        c.check("ordered: read back", Arrays.equals(mine, back), "differs");
        f.close();
    }
}
