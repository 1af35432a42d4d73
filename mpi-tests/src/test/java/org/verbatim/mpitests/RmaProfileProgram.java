package org.verbatim.mpitests;

import mpi.MPI;
import mpi.Win;

/**
 * A few known one-sided operations under the profiler: per rank one put as a store (allocated
 * window, fence epoch), one put as RDMA or a message (created window, lock epoch), one
 * accumulate as a message (created window, RDMA never carries accumulates); three epochs.
 */
public final class RmaProfileProgram {
    private RmaProfileProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int next = (rank + 1) % MPI.COMM_WORLD.getSize();
        Win a = Win.allocate(64, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
        a.fence(MPI.MODE_NOPRECEDE);
        a.put(MPI.newByteBuffer(8), 8, MPI.BYTE, next, 0, 8, MPI.BYTE);
        a.fence(MPI.MODE_NOSUCCEED);
        a.free();
        Win c = new Win(MPI.newByteBuffer(64), 64, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
        c.lock(MPI.LOCK_SHARED, next, 0);
        c.put(MPI.newByteBuffer(16), 16, MPI.BYTE, next, 0, 16, MPI.BYTE);
        c.accumulate(MPI.newIntBuffer(2), 2, MPI.INT, next, 16, 2, MPI.INT, MPI.SUM);
        c.unlock(next);
        MPI.COMM_WORLD.barrier();
        c.free();
        MPI.Finalize();
    }
}
