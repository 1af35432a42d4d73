package org.verbatim.benchmarks.io;

import java.nio.ByteBuffer;
import mpi.Datatype;
import mpi.File;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Collective write and read bandwidth of one file from every rank, as issue 18 asks: the ranks
 * write the whole file with {@code writeAll} (then {@code sync}) and read it back with
 * {@code readAll}, each through its own view:
 * <ul>
 *   <li>{@code contiguous}: rank r owns the r-th 1/P of the file (a displacement, byte view);</li>
 *   <li>{@code blocks}: the file is an N x N byte array distributed in 2-D blocks over a square
 *       process grid; rank (i, j) owns block (i, j), a vector filetype of N/q rows of N/q bytes
 *       (interleaved in the file: two-phase collective buffering in ROMIO, OMPIO and Verbatim).</li>
 * </ul>
 * Uses only the API common to Verbatim and Open MPI's Java bindings, so the same source runs on
 * both. Prints one line per repetition and the best: {@code write GB/s} (writeAll + sync) and
 * {@code read GB/s} (readAll; from the page cache when the file was just written).
 *
 * <p>Usage: {@code CollectiveIoBandwidth PATH contiguous|blocks MIB REPS}
 */
public final class CollectiveIoBandwidth {
    private CollectiveIoBandwidth() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        String path = args[0];
        boolean blocks = args[1].equals("blocks");
        long total = Long.parseLong(args[2]) << 20;
        int reps = Integer.parseInt(args[3]);
        int q = (int) Math.round(Math.sqrt(size));
        if (blocks && q * q != size) {
            throw new IllegalArgumentException("blocks needs a square number of ranks");
        }
        int n = (int) Math.round(Math.sqrt((double) total));
        long per = blocks ? (long) (n / q) * (n / q) : total / size;
        ByteBuffer data = MPI.newByteBuffer((int) per);
        for (int i = 0; i < per; i++) {
            data.put(i, (byte) (i * 31 + rank));
        }
        Datatype filetype = MPI.BYTE;
        long disp = rank * per;
        if (blocks) {
            int side = n / q;
            filetype = Datatype.createVector(side, side, n, MPI.BYTE);
            filetype.commit();
            disp = (long) (rank / q) * side * n + (long) (rank % q) * side;
        }
        double bestWrite = 0;
        double bestRead = 0;
        for (int r = 0; r < reps; r++) {
            if (rank == 0) {
                new java.io.File(path).delete();
            }
            world.barrier();
            double t0 = MPI.wtime();
            File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
            f.setView(disp, MPI.BYTE, filetype, "native");
            f.writeAll(data, (int) per, MPI.BYTE);
            world.barrier();
            double unsynced = MPI.wtime() - t0;
            f.sync();
            world.barrier();
            double write = MPI.wtime() - t0;
            f.seek(0, MPI.SEEK_SET);
            world.barrier();
            t0 = MPI.wtime();
            f.readAll(data, (int) per, MPI.BYTE);
            world.barrier();
            double read = MPI.wtime() - t0;
            f.close();
            double bytes = per * (double) size;
            bestWrite = Math.max(bestWrite, bytes / write / 1e9);
            bestRead = Math.max(bestRead, bytes / read / 1e9);
            if (rank == 0) {
                System.out.printf("rep %d %s %d MiB on %d ranks: write %.3f GB/s (%.3f s, of "
                        + "which open+writeAll %.3f s), read %.3f GB/s (%.3f s)%n", r, args[1],
                        (long) bytes >> 20, size, bytes / write / 1e9, write, unsynced,
                        bytes / read / 1e9, read);
            }
        }
        check(data, per, rank);
        if (rank == 0) {
            System.out.printf("best %s write %.3f GB/s read %.3f GB/s%n", args[1], bestWrite,
                    bestRead);
            new java.io.File(path).delete();
        }
        MPI.Finalize();
    }

    private static void check(ByteBuffer data, long per, int rank) throws MPIException {
        for (int i = 0; i < per; i += 4093) {
            if (data.get(i) != (byte) (i * 31 + rank)) {
                throw new MPIException("read back wrong data at byte " + i + " of rank " + rank);
            }
        }
    }
}
