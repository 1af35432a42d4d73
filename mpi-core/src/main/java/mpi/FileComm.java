package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.io.FileGroup;

/**
 * A file's {@link FileGroup}: the io module's collectives over a private duplicate of the file's
 * communicator, so that file traffic never matches the program's. Its error handler returns
 * errors, which come back to the file as {@link MpiError}.
 */
final class FileComm implements FileGroup {
    private static final int TAG = 7;
    private final Intracomm comm;
    private MemorySegment[] inbox;

    FileComm(Intracomm comm) throws MPIException {
        this.comm = comm.dup();
        this.comm.setErrhandler(MPI.ERRORS_RETURN);
    }

    /** This process's rank in the file's communicator. */
    @Override
    public int rank() {
        return comm.rank;
    }

    /** Processes that opened the file. */
    @Override
    public int size() {
        return comm.world.length;
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

    /**
     * Sizes first (all-to-all), then one nonblocking receive and send per peer with data. The
     * blocks received stay valid until the next exchange.
     */
    @Override
    public MemorySegment[] exchange(MemorySegment[] out) {
        int n = size();
        long[] sizes = new long[n];
        for (int r = 0; r < n; r++) {
            sizes[r] = out[r] == null ? 0 : out[r].byteSize();
            if (sizes[r] > Integer.MAX_VALUE) {
                throw new MpiError(ErrorClass.ERR_INTERN, "file exchange block of " + sizes[r]
                        + " bytes");
            }
        }
        long[] incoming = new long[n];
        run(() -> comm.allToAll(sizes, 1, MPI.LONG, incoming, 1, MPI.LONG));
        MemorySegment[] in = new MemorySegment[n];
        Request[] requests = new Request[2 * n];
        int k = 0;
        for (int r = 0; r < n; r++) {
            if (r == rank()) {
                in[r] = sizes[r] == 0 ? MemorySegment.NULL : out[r];
            } else if (incoming[r] == 0) {
                in[r] = MemorySegment.NULL;
            } else {
                MemorySegment m = inbox(r, incoming[r]);
                in[r] = m;
                int from = r;
                requests[k++] = call(() -> comm.iRecv(m, (int) m.byteSize(), MPI.BYTE, from,
                        TAG));
            }
        }
        for (int r = 0; r < n; r++) {
            if (r != rank() && sizes[r] > 0) {
                int to = r;
                requests[k++] = call(() -> comm.iSend(out[to], (int) sizes[to], MPI.BYTE, to,
                        TAG));
            }
        }
        Request[] used = java.util.Arrays.copyOf(requests, k);
        run(() -> Request.waitAll(used));
        return in;
    }

    /**
     * The receive buffer for peer {@code r}: native (so large blocks arrive single-copy) and
     * reused from one exchange to the next (what an exchange returns is valid until the next).
     */
    private MemorySegment inbox(int r, long bytes) {
        if (inbox == null) {
            inbox = new MemorySegment[size()];
        }
        if (inbox[r] == null || inbox[r].byteSize() < bytes) {
            inbox[r] = java.lang.foreign.Arena.ofAuto().allocate(Math.max(bytes, 1 << 16), 64);
        }
        return inbox[r].asSlice(0, bytes);
    }

    Intracomm comm() {
        return comm;
    }

    void free() throws MPIException {
        comm.free();
    }

    private interface Call {
        void run() throws MPIException;
    }

    private interface Make<T> {
        T make() throws MPIException;
    }

    private static void run(Call c) {
        try {
            c.run();
        } catch (MPIException e) {
            throw failure(e);
        }
    }

    private static <T> T call(Make<T> c) {
        try {
            return c.make();
        } catch (MPIException e) {
            throw failure(e);
        }
    }

    private static MpiError failure(MPIException e) {
        int cls = e.getErrorClass() == 0 ? ErrorClass.ERR_INTERN : e.getErrorClass();
        return new MpiError(cls, "file collective: " + e.getMessage());
    }
}
