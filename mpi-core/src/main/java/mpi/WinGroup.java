package mpi;

import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.rma.WindowGroup;

/**
 * A window's {@link WindowGroup}: the collectives of the one-sided module over a private
 * duplicate of the window's communicator, so that window traffic never matches the program's.
 * Its error handler returns errors, which come back to the window as {@link MpiError}.
 */
final class WinGroup implements WindowGroup {
    private final Intracomm comm;

    WinGroup(Intracomm comm) throws MPIException {
        this.comm = comm.dup();
        this.comm.setErrhandler(MPI.ERRORS_RETURN);
    }

    Intracomm comm() {
        return comm;
    }

    /** This process's rank in the window's communicator. */
    @Override
    public int rank() {
        return comm.rank;
    }

    /** Processes in the window. */
    @Override
    public int size() {
        return comm.world.length;
    }

    /** World rank of window rank {@code rank}. */
    @Override
    public int worldRank(int rank) {
        return comm.world[rank];
    }

    /** Barrier on the private duplicate. */
    @Override
    public void barrier() {
        run(comm::barrier);
    }

    /** Allgather of longs on the private duplicate. */
    @Override
    public long[] allgather(long[] mine) {
        long[] all = new long[mine.length * size()];
        run(() -> comm.allGather(mine, mine.length, MPI.LONG, all, mine.length, MPI.LONG));
        return all;
    }

    /** Allgather of byte strings of any length (lengths first). */
    @Override
    public byte[][] allgatherBytes(byte[] mine) {
        int[] lengths = new int[size()];
        run(() -> comm.allGather(new int[] {mine.length}, 1, MPI.INT, lengths, 1, MPI.INT));
        int[] displs = new int[size()];
        int total = 0;
        for (int r = 0; r < lengths.length; r++) {
            displs[r] = total;
            total += lengths[r];
        }
        byte[] all = new byte[total];
        run(() -> comm.allGatherv(mine, mine.length, MPI.BYTE, all, lengths, displs, MPI.BYTE));
        byte[][] out = new byte[size()][];
        for (int r = 0; r < out.length; r++) {
            out[r] = java.util.Arrays.copyOfRange(all, displs[r], displs[r] + lengths[r]);
        }
        return out;
    }

    /** Allreduce (sum) of ints in place. */
    @Override
    public void allreduceSum(int[] values) {
        run(() -> comm.allReduce(values, values.length, MPI.INT, MPI.SUM));
    }

    void free() throws MPIException {
        comm.free();
    }

    private interface Call {
        void run() throws MPIException;
    }

    private static void run(Call c) {
        try {
            c.run();
        } catch (MPIException e) {
            int cls = e.getErrorClass() == 0 ? ErrorClass.ERR_INTERN : e.getErrorClass();
            throw new MpiError(cls, "window synchronisation: " + e.getMessage());
        }
    }
}
