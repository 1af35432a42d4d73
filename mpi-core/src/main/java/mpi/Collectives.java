package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.coll.CollGroup;
import org.verbatim.runtime.coll.Reducer;
import org.verbatim.runtime.coll.Schedule;

/**
 * What every collective call shares: argument checks (before anything is sent), buffer
 * resolution, building the schedule on the communicator's collective context, and running it
 * (blocking) or returning it as a Request (nonblocking; the progress engine advances it).
 */
final class Collectives {
    private Collectives() {
    }

    /**
     * A resolved buffer: the bytes, and what to do once the collective has written them. Under a
     * derived layout type the bytes are the packed image ({@link LayoutBuffers}), so
     * displacements in elements count {@code type.byteSize} bytes each.
     */
    record Buf(MemorySegment seg, Runnable copyBack) {
    }

    static Schedule schedule(Comm c) {
        return new Schedule(new CollGroup(c.engine(), c.collectiveContext(), c.rank, c.world,
                c.process.collSettings()), c.nextCollectiveTag());
    }

    static void begin(Comm c, String call) throws MPIException {
        MPI.check();
        c.checkUsable(call);
    }

    static void checkCount(Comm c, String call, int count, Datatype type) throws MPIException {
        CommArgs.checkCountType(c, call, count, type);
    }

    static void checkRoot(Comm c, String call, int root) throws MPIException {
        if (root < 0 || root >= c.world.length) {
            throw c.raise(call, ErrorClass.ERR_ROOT, "invalid root " + root + " (communicator size "
                    + c.world.length + ")");
        }
    }

    static void checkArray(Comm c, String call, int[] a, int n, String what) throws MPIException {
        if (a == null) {
            throw c.raise(call, ErrorClass.ERR_ARG, what + " is null");
        }
        if (a.length < n) {
            throw c.raise(call, ErrorClass.ERR_ARG, what + " has " + a.length + " entries, "
                    + n + " needed");
        }
        for (int i = 0; i < n; i++) {
            if (a[i] < 0) {
                throw c.raise(call, what.contains("count") ? ErrorClass.ERR_COUNT : ErrorClass.ERR_ARG,
                        what + "[" + i + "] is negative: " + a[i]);
            }
        }
    }

    static void checkOp(Comm c, String call, Op op, Datatype type) throws MPIException {
        if (op == null) {
            throw c.raise(call, ErrorClass.ERR_OP, "op is null");
        }
        try {
            op.check(type);
        } catch (MPIException e) {
            throw c.raise(call, ErrorClass.ERR_OP, e.getMessage());
        }
    }

    static Buf send(Comm c, String call, Object buf, int count, Datatype type) throws MPIException {
        try {
            if (type.isLayout()) {
                return LayoutBuffers.packedForSend(buf, count, type);
            }
            return new Buf(Buffers.forSend(buf, count, type), null);
        } catch (MPIException e) {
            throw c.raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    /**
     * As {@link #send(Comm, String, Object, int, Datatype)} for a collective run by {@code s}: a
     * layout type is packed into the schedule's pooled native scratch memory.
     */
    static Buf send(Comm c, String call, Schedule s, Object buf, int count, Datatype type)
            throws MPIException {
        if (!type.isLayout()) {
            return send(c, call, buf, count, type);
        }
        try {
            return LayoutBuffers.packedForSend(s, buf, count, type);
        } catch (MPIException e) {
            throw c.raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    /**
     * The receive buffer of a collective run by {@code s} that writes every byte of it
     * (alltoall, allgather): a layout type gets an image in the schedule's pooled native scratch
     * memory, not filled from the buffer first, unpacked into it at the end.
     */
    static Buf recvWritten(Comm c, String call, Schedule s, Object buf, int count, Datatype type)
            throws MPIException {
        if (!type.isLayout()) {
            return recv(c, call, buf, count, type);
        }
        try {
            return LayoutBuffers.writtenForReceive(s, buf, count, type);
        } catch (MPIException e) {
            throw c.raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    static Buf recv(Comm c, String call, Object buf, int count, Datatype type) throws MPIException {
        try {
            if (type.isLayout()) {
                return LayoutBuffers.packedForReceive(buf, count, type);
            }
            MemorySegment seg = Buffers.forReceive(buf, count, type);
            return new Buf(seg, Buffers.booleanCopyBack(buf, seg));
        } catch (MPIException e) {
            throw c.raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    /** A buffer both read and written (in-place forms, bcast): a boolean[] is converted both ways. */
    static Buf inout(Comm c, String call, Object buf, int count, Datatype type) throws MPIException {
        if (buf instanceof boolean[] && !type.isLayout()) {
            Buf out = send(c, call, buf, count, type);
            return new Buf(out.seg(), Buffers.booleanCopyBack(buf, out.seg()));
        }
        return recv(c, call, buf, count, type);
    }

    static boolean commutative(Op op) {
        return op.isCommutative();
    }

    /** The local group of an inter-communicator, on its own context (+3). */
    static CollGroup localGroup(Comm c) {
        return new CollGroup(c.engine(), c.context + 3, c.rank, c.world, c.process.collSettings());
    }

    /** The remote group of an inter-communicator (cross context, +1). */
    static CollGroup remoteGroup(Comm c) {
        return new CollGroup(c.engine(), c.collectiveContext(), c.rank, c.remote,
                c.process.collSettings());
    }

    static Reducer reducer(Op op, Datatype type) {
        return op.reducer(type);
    }

    static long[] bytes(int[] counts, int n, int unit) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = (long) counts[i] * unit;
        }
        return out;
    }

    /** Elements needed in a buffer addressed by counts and displacements (in elements). */
    static int span(int[] counts, int[] displs, int n) {
        long max = 0;
        for (int i = 0; i < n; i++) {
            if (counts[i] > 0) {
                max = Math.max(max, (long) displs[i] + counts[i]);
            }
        }
        return (int) max;
    }

    /**
     * Runs the schedule to completion (blocking, returns null) or starts it and returns its
     * Request (nonblocking). Copy-backs run as the schedule's last step.
     */
    static Request finish(Comm c, String call, Schedule s, boolean nonblocking, Object keep,
                          Runnable... copyBacks) throws MPIException {
        for (Runnable r : copyBacks) {
            if (r != null) {
                s.local(r);
            }
        }
        try {
            if (!nonblocking) {
                s.run();
                return null;
            }
            s.start();
        } catch (MpiError e) {
            throw c.raise(call, e);
        }
        Request r = new Request(s, c, call);
        r.keepAlive = keep;
        return r;
    }
}
