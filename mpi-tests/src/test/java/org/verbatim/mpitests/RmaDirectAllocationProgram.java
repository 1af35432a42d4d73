package org.verbatim.mpitests;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * Puts and gets that go by RDMA (CMA on shm: a window created on the program's direct buffer,
 * operations from {@code verbatim.rma.rdma-threshold} on) under a lockAll epoch: bytes the calling
 * thread allocates per put + flush and get + flush once warm, printed as
 * {@code ALLOC name: B per call}, each checked against its bound (bytes per call). Values are
 * checked too: the get reads what the put wrote. Args: [put bound] [get bound].
 */
public final class RmaDirectAllocationProgram {
    private static final int CALLS = 20_000;
    private static final int BYTES = 16 << 10;

    private RmaDirectAllocationProgram() {
    }

    private interface Call {
        void run() throws MPIException;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        long putBound = args.length > 0 ? Long.parseLong(args[0]) : Long.MAX_VALUE;
        long getBound = args.length > 1 ? Long.parseLong(args[1]) : Long.MAX_VALUE;
        int rank = MPI.COMM_WORLD.getRank();
        int p = MPI.COMM_WORLD.getSize();
        int next = (rank + 1) % p;
        Checks c = new Checks(rank);
        ByteBuffer memory = MPI.newByteBuffer(2 * BYTES);
        Win win = new Win(memory, 2 * BYTES, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
        win.setErrhandler(MPI.ERRORS_RETURN);
        ByteBuffer out = MPI.newByteBuffer(BYTES);
        ByteBuffer in = MPI.newByteBuffer(BYTES);
        for (int i = 0; i < BYTES; i++) {
            out.put(i, (byte) (rank * 31 + i));
        }
        win.lockAll(0);
        c.run("put + flush", () -> measure(c, "put + flush", putBound, () -> {
            win.put(out, BYTES, MPI.BYTE, next, 0, BYTES, MPI.BYTE);
            win.flush(next);
        }));
        c.run("get + flush", () -> measure(c, "get + flush", getBound, () -> {
            win.get(in, BYTES, MPI.BYTE, next, 0, BYTES, MPI.BYTE);
            win.flush(next);
        }));
        c.run("get reads what the put wrote", () -> {
            for (int i = 0; i < BYTES; i++) {
                if (in.get(i) != out.get(i)) {
                    c.equal("byte " + i, out.get(i), in.get(i));
                    return;
                }
            }
            c.check("16 KiB read back", true, "");
        });
        win.unlockAll();
        MPI.COMM_WORLD.barrier();
        win.free();
        int status = c.summary();
        MPI.Finalize();
        System.exit(status);
    }

    private static void measure(Checks c, String name, long bound, Call call)
            throws MPIException {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < CALLS; i++) {
            call.run();
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < CALLS; i++) {
            call.run();
        }
        long total = threads.getCurrentThreadAllocatedBytes() - before;
        System.out.println("ALLOC " + name + ": " + total / CALLS + " B per call");
        c.check(name + ": " + total + " B in " + CALLS + " calls", total / CALLS < bound,
                "allocates about " + total / CALLS + " B per call");
    }
}
