package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.p2p.RecvOp;
import org.verbatim.runtime.p2p.TypeLayout;
import org.verbatim.runtime.p2p.Unexpected;

/**
 * A message taken by a matched probe (MPI_Mprobe/MPI_Improbe): no other receive can match it;
 * receive it with {@link #mRecv} or {@link #imRecv}.
 */
public final class Message {
    private Unexpected message;
    private Comm comm;
    private boolean noProc;

    /** A null message handle (MPI_MESSAGE_NULL). */
    public Message() {
    }

    /** True if this message was received already or never probed (MPI_MESSAGE_NULL). */
    public boolean isNull() {
        return message == null && !noProc;
    }

    /** True if this is the message of a probe for {@link MPI#PROC_NULL} (MPI_MESSAGE_NO_PROC). */
    public boolean isNoProc() {
        return noProc;
    }

    /**
     * Blocks until a matching message arrives and takes it out of matching, so that only {@link
     * #mRecv} receives it; returns its status (MPI_Mprobe).
     */
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        MPI.check();
        comm.checkUsable("MPI_Mprobe");
        CommArgs.checkSource(comm, "MPI_Mprobe", source);
        CommArgs.checkRecvTag(comm, "MPI_Mprobe", tag);
        if (source == MPI.PROC_NULL) {
            return noProc(comm);
        }
        try {
            Unexpected[] found = new Unexpected[1];
            comm.engine().awaitCondition(() ->
                    (found[0] = comm.engine().p2p().probe(comm.context, source, tag, true)) != null);
            return hold(found[0], comm);
        } catch (MpiError e) {
            throw comm.raise("MPI_Mprobe", e);
        }
    }

    /**
     * Checks, without blocking, for a matching message and takes it out of matching for {@link
     * #imRecv}; returns its status, or null (MPI_Improbe).
     */
    public Status imProbe(int source, int tag, Comm comm) throws MPIException {
        MPI.check();
        comm.checkUsable("MPI_Improbe");
        CommArgs.checkSource(comm, "MPI_Improbe", source);
        CommArgs.checkRecvTag(comm, "MPI_Improbe", tag);
        if (source == MPI.PROC_NULL) {
            return noProc(comm);
        }
        try {
            Unexpected u = comm.engine().p2p().probe(comm.context, source, tag, true);
            return u == null ? null : hold(u, comm);
        } catch (MpiError e) {
            throw comm.raise("MPI_Improbe", e);
        }
    }

    private Status noProc(Comm c) {
        this.comm = c;
        this.message = null;
        this.noProc = true;
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, 0, false);
    }

    private Status hold(Unexpected u, Comm c) {
        this.message = u;
        this.comm = c;
        this.noProc = false;
        return new Status(u.source(), u.tag(), 0, u.length(), false);
    }

    /** Receives the message taken by {@link #mProbe} or {@link #imProbe} (MPI_Mrecv). */
    public Status mRecv(Object buf, int count, Datatype type) throws MPIException {
        Request r = imRecv(buf, count, type, "MPI_Mrecv");
        return r.waitStatus();
    }

    /** Starts receiving the message taken by {@link #mProbe} or {@link #imProbe} (MPI_Imrecv). */
    public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
        return imRecv((Object) buf, count, type, "MPI_Imrecv");
    }

    /**
     * Verbatim extension: receives into an array or, zero-copy, into a {@link
     * java.lang.foreign.MemorySegment} (an Object parameter, so that a bare {@code imRecv(null,
     * 0, type)} stays the Buffer form as in Open MPI's bindings).
     */
    public Request imRecv(Object buf, int count, Datatype type) throws MPIException {
        return imRecv(buf, count, type, "MPI_Imrecv");
    }

    private Request imRecv(Object buf, int count, Datatype type, String call) throws MPIException {
        MPI.check();
        if (isNull()) {
            throw MPIException.of(ErrorClass.ERR_REQUEST, call + ": the message handle is null");
        }
        Comm c = comm;
        if (noProc) {
            noProc = false;
            return new Request(org.verbatim.runtime.base.RequestState.completed(MPI.PROC_NULL,
                    MPI.ANY_TAG, 0), c, call);
        }
        CommArgs.checkCountType(c, call, count, type);
        if (type.isLayout()) {
            LayoutBuffers.Resolved r = CommArgs.layoutReceive(c, call, buf, count, type);
            Unexpected u = message;
            message = null;
            try {
                return new Request(c.engine().p2p().receiveMatched(u, r.base(),
                        new TypeLayout(r.shape()), buf, r.copyBack(), typeCheck(c, type, count)), c, call);
            } catch (MpiError e) {
                throw c.raise(call, e);
            }
        }
        MemorySegment seg;
        try {
            seg = Buffers.forReceive(buf, count, type);
        } catch (MPIException e) {
            throw c.raise(call, new MpiError(e.getErrorClass(), e.getMessage()));
        }
        Unexpected u = message;
        message = null;
        try {
            RecvOp op = c.engine().p2p().receiveMatched(u, seg, null, buf, Buffers.booleanCopyBack(buf, seg),
                    typeCheck(c, type, count));
            return new Request(op, c, call);
        } catch (MpiError e) {
            throw c.raise(call, e);
        }
    }

    /** The verbatim.core.check-types check of a matched receive, or null when the check is off. */
    private static org.verbatim.runtime.p2p.TypeCheck typeCheck(Comm c, Datatype type, int count) {
        return c.process != null && c.process.checkTypes() ? TypeSignatures.check(type, count) : null;
    }
}
