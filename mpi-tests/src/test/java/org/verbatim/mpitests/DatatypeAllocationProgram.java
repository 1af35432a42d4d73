package org.verbatim.mpitests;

import java.lang.management.ManagementFactory;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A repeated bcast and gatherv of 64 KiB of a vector type (256 blocks of 256 bytes, every other
 * 256 bytes) allocates no heap array of the message's size: the packed images come from the
 * schedule's pooled native scratch memory. Bytes allocated by the calling thread per call,
 * measured with the JDK's per-thread counter, from int[] and from direct buffers; the bound,
 * {@link #MAX_BYTES_PER_CALL}, is a quarter of the message (schedules, requests and rendezvous
 * records are a few hundred bytes each; packing into a fresh array cost 64 KiB per image).
 */
public final class DatatypeAllocationProgram {
    static final long MAX_BYTES_PER_CALL = 16 * 1024;
    private static final int WARMUP = 1_000;
    private static final int CALLS = 1_000;

    private DatatypeAllocationProgram() {
    }

    private interface Call {
        void run() throws MPIException;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int p = w.getSize();
        Checks c = new Checks(w.getRank());
        Datatype columns = Datatype.createVector(256, 64, 128, MPI.INT);
        columns.commit();
        int span = 255 * 128 + 64;
        int[] counts = new int[p];
        int[] displs = new int[p];
        for (int r = 0; r < p; r++) {
            counts[r] = 1;
            displs[r] = r;
        }
        int[] src = new int[span];
        for (int i = 0; i < span; i++) {
            src[i] = i + 1;
        }
        int[] dst = new int[span * p];
        IntBuffer dsrc = MPI.newIntBuffer(span).put(0, src);
        IntBuffer ddst = MPI.newIntBuffer(span * p);
        c.run("bcast int[]", () -> measure(c, w, "bcast int[]",
                () -> w.bcast(src, 1, columns, 0)));
        c.run("gatherv int[]", () -> measure(c, w, "gatherv int[]",
                () -> w.gatherv(src, 1, columns, dst, counts, displs, columns, 0)));
        c.run("bcast direct", () -> measure(c, w, "bcast direct",
                () -> w.bcast(dsrc, 1, columns, 0)));
        c.run("gatherv direct", () -> measure(c, w, "gatherv direct",
                () -> w.gatherv(dsrc, 1, columns, ddst, counts, displs, columns, 0)));
        if (w.getRank() == 0) {
            // rank r's element at displacement r (one extent, span ints, each): the last int
            // of the last rank's last block
            int at = (p - 1) * span + span - 1;
            c.check("gatherv result", dst[at] == span && dst[at + 1 - 128] == 0,
                    "got " + dst[at] + " and " + dst[at + 1 - 128]);
        }
        columns.free();
        int status = c.summary();
        MPI.Finalize();
        System.exit(status);
    }

    private static void measure(Checks c, Intracomm w, String name, Call call)
            throws MPIException {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARMUP; i++) {
            call.run();
        }
        w.barrier();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < CALLS; i++) {
            call.run();
        }
        long perCall = (threads.getCurrentThreadAllocatedBytes() - before) / CALLS;
        c.check(name + ": " + perCall + " B per call (at most " + MAX_BYTES_PER_CALL + ")",
                perCall <= MAX_BYTES_PER_CALL, "more than " + MAX_BYTES_PER_CALL + " B per call");
        w.barrier();
    }
}
