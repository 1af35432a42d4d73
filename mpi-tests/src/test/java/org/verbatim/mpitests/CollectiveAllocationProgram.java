package org.verbatim.mpitests;

import java.lang.management.ManagementFactory;
import java.nio.DoubleBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The blocking small collectives allocate (next to) nothing once warm: bytes allocated by the
 * calling thread per blocking barrier and per small allreduce (arrays, direct buffers, in
 * place), measured with the JDK's per-thread allocation counter. The collective path itself
 * allocates nothing; the engine allocates a small record (about 150 B) for a message that
 * arrives before its receive is posted, so the bound is {@link #BYTES_PER_ROUND} per round
 * (ceil(log2 p) rounds); the schedule-built path took 600 to 1500 B per call. Args: none.
 */
public final class CollectiveAllocationProgram {
    static final long BYTES_PER_ROUND = 200;
    private static final int WARMUP = 20_000;
    private static final int CALLS = 20_000;

    private CollectiveAllocationProgram() {
    }

    private interface Call {
        void run() throws MPIException;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        Checks c = new Checks(w.getRank());
        double[] in = {1, 2, 3};
        double[] out = new double[3];
        DoubleBuffer din = MPI.newDoubleBuffer(3).put(0, 1).put(1, 2).put(2, 3);
        DoubleBuffer dout = MPI.newDoubleBuffer(3);
        c.run("barrier", () -> measure(c, w, "barrier", w::barrier));
        c.run("allreduce array", () -> measure(c, w, "allreduce array",
                () -> w.allReduce(in, out, 3, MPI.DOUBLE, MPI.SUM)));
        c.run("allreduce direct", () -> measure(c, w, "allreduce direct",
                () -> w.allReduce(din, dout, 3, MPI.DOUBLE, MPI.SUM)));
        c.run("allreduce in place", () -> measure(c, w, "allreduce in place",
                () -> w.allReduce(out, 3, MPI.DOUBLE, MPI.MAX)));
        c.check("allreduce result", out[2] == 3.0 * w.getSize(), "got " + out[2]);
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
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < CALLS; i++) {
            call.run();
        }
        long perCall = (threads.getCurrentThreadAllocatedBytes() - before) / CALLS;
        int rounds = 32 - Integer.numberOfLeadingZeros(w.getSize() - 1);
        long max = BYTES_PER_ROUND * rounds;
        c.check(name + ": " + perCall + " B per call (at most " + max + ")", perCall <= max,
                "more than " + max + " B per call");
        w.barrier();
    }
}
