package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.coll.Broadcast;
import org.verbatim.runtime.coll.Gathering;
import org.verbatim.runtime.coll.Reduction;
import org.verbatim.runtime.coll.Schedule;

/** The rooted collectives of intra-communicators: bcast, reduce, gather(v), scatter(v). */
final class RootedCollectives {
    private RootedCollectives() {
    }

    static Request bcast(Comm c, Object buf, int count, Datatype type, int root, boolean nb)
            throws MPIException {
        String call = nb ? "MPI_Ibcast" : "MPI_Bcast";
        Collectives.begin(c, call);
        if (c.isInterComm()) {
            return InterCollectives.bcast(c, buf, count, type, root, nb);
        }
        Collectives.checkCount(c, call, count, type);
        Collectives.checkRoot(c, call, root);
        Collectives.Buf b = c.rank == root ? Collectives.send(c, call, buf, count, type)
                : Collectives.recv(c, call, buf, count, type);
        Schedule s = Broadcast.build(Collectives.schedule(c), b.seg(), root);
        return Collectives.finish(c, call, s, nb, buf, b.copyBack());
    }

    static Request reduce(Comm c, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                          int root, boolean nb) throws MPIException {
        String call = nb ? "MPI_Ireduce" : "MPI_Reduce";
        Collectives.begin(c, call);
        if (c.isInterComm()) {
            return InterRootedCollectives.reduce(c, sendbuf, recvbuf, count, type, op, root, nb);
        }
        Collectives.checkCount(c, call, count, type);
        Collectives.checkRoot(c, call, root);
        Collectives.checkOp(c, call, op, type);
        boolean inPlace = sendbuf == null;
        Collectives.Buf in;
        Collectives.Buf out = null;
        if (inPlace) {
            in = c.rank == root ? Collectives.inout(c, call, recvbuf, count, type)
                    : Collectives.send(c, call, recvbuf, count, type);
            if (c.rank == root) {
                out = in;
            }
        } else {
            in = Collectives.send(c, call, sendbuf, count, type);
            if (c.rank == root) {
                out = Collectives.recv(c, call, recvbuf, count, type);
            }
        }
        Schedule s = Reduction.reduce(Collectives.schedule(c), in.seg(),
                out == null ? null : out.seg(), count, Collectives.reducer(op, type), root);
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                out == null ? null : out.copyBack());
    }

    /** Gather; {@code sendbuf == null} is the in-place form (root's block already in recvbuf). */
    static Request gather(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                          Object recvbuf, int recvcount, Datatype recvtype, int root, boolean nb)
            throws MPIException {
        String call = nb ? "MPI_Igather" : "MPI_Gather";
        Collectives.begin(c, call);
        if (c.isInterComm()) {
            return InterRootedCollectives.gather(c, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, root, nb);
        }
        Collectives.checkRoot(c, call, root);
        int p = c.world.length;
        MemorySegment send = null;
        Collectives.Buf out = null;
        long block;
        if (c.rank == root) {
            Collectives.checkCount(c, call, recvcount, recvtype);
            out = Collectives.recv(c, call, recvbuf, recvcount * p, recvtype);
            block = recvtype.bytes(recvcount);
            if (sendbuf != null) {
                Collectives.checkCount(c, call, sendcount, sendtype);
                send = Collectives.send(c, call, sendbuf, sendcount, sendtype).seg();
                if (send.byteSize() != block) {
                    throw c.raise(call, ErrorClass.ERR_TRUNCATE, "the root's send block ("
                            + send.byteSize() + " bytes) differs from its receive block (" + block + ")");
                }
            }
        } else {
            Collectives.checkCount(c, call, sendcount, sendtype);
            send = Collectives.send(c, call, sendbuf, sendcount, sendtype).seg();
            block = send.byteSize();
        }
        Schedule s = Gathering.gather(Collectives.schedule(c), send,
                out == null ? null : out.seg(), block, root);
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                out == null ? null : out.copyBack());
    }

    static Request gatherv(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                           Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype,
                           int root, boolean nb) throws MPIException {
        String call = nb ? "MPI_Igatherv" : "MPI_Gatherv";
        Collectives.begin(c, call);
        if (c.isInterComm()) {
            return InterRootedCollectives.gatherv(c, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, displs, recvtype, root, nb);
        }
        Collectives.checkRoot(c, call, root);
        int p = c.world.length;
        MemorySegment send = null;
        Collectives.Buf out = null;
        long[] counts = null;
        long[] offsets = null;
        if (c.rank == root) {
            Collectives.checkCount(c, call, 0, recvtype);
            Collectives.checkArray(c, call, recvcount, p, "recvcount");
            Collectives.checkArray(c, call, displs, p, "displs");
            out = Collectives.recv(c, call, recvbuf, Collectives.span(recvcount, displs, p), recvtype);
            counts = Collectives.bytes(recvcount, p, recvtype.byteSize);
            offsets = Collectives.bytes(displs, p, recvtype.byteSize);
        }
        if (sendbuf != null) {
            Collectives.checkCount(c, call, sendcount, sendtype);
            send = Collectives.send(c, call, sendbuf, sendcount, sendtype).seg();
        }
        Schedule s = Gathering.gatherv(Collectives.schedule(c), send,
                out == null ? null : out.seg(), counts, offsets, root);
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                out == null ? null : out.copyBack());
    }

    /** Scatter; {@code recvbuf == null} at the root is the in-place form. */
    static Request scatter(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvcount, Datatype recvtype, int root, boolean nb)
            throws MPIException {
        String call = nb ? "MPI_Iscatter" : "MPI_Scatter";
        Collectives.begin(c, call);
        if (c.isInterComm()) {
            return InterRootedCollectives.scatter(c, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, root, nb);
        }
        Collectives.checkRoot(c, call, root);
        int p = c.world.length;
        MemorySegment send = null;
        Collectives.Buf in = null;
        long block;
        if (c.rank == root) {
            Collectives.checkCount(c, call, sendcount, sendtype);
            send = Collectives.send(c, call, sendbuf, sendcount * p, sendtype).seg();
            block = sendtype.bytes(sendcount);
            if (recvbuf != null) {
                Collectives.checkCount(c, call, recvcount, recvtype);
                in = Collectives.recv(c, call, recvbuf, recvcount, recvtype);
                if (in.seg().byteSize() != block) {
                    throw c.raise(call, ErrorClass.ERR_TRUNCATE, "the root's receive block ("
                            + in.seg().byteSize() + " bytes) differs from its send block (" + block + ")");
                }
            }
        } else {
            Collectives.checkCount(c, call, recvcount, recvtype);
            in = Collectives.recv(c, call, recvbuf, recvcount, recvtype);
            block = in.seg().byteSize();
        }
        Schedule s = Gathering.scatter(Collectives.schedule(c), send,
                in == null ? null : in.seg(), block, root);
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                in == null ? null : in.copyBack());
    }

    static Request scatterv(Comm c, Object sendbuf, int[] sendcount, int[] displs,
                            Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype,
                            int root, boolean nb) throws MPIException {
        String call = nb ? "MPI_Iscatterv" : "MPI_Scatterv";
        Collectives.begin(c, call);
        if (c.isInterComm()) {
            return InterRootedCollectives.scatterv(c, sendbuf, sendcount, displs, sendtype,
                    recvbuf, recvcount, recvtype, root, nb);
        }
        Collectives.checkRoot(c, call, root);
        int p = c.world.length;
        MemorySegment send = null;
        Collectives.Buf in = null;
        long[] counts = null;
        long[] offsets = null;
        if (c.rank == root) {
            Collectives.checkCount(c, call, 0, sendtype);
            Collectives.checkArray(c, call, sendcount, p, "sendcount");
            Collectives.checkArray(c, call, displs, p, "displs");
            send = Collectives.send(c, call, sendbuf, Collectives.span(sendcount, displs, p),
                    sendtype).seg();
            counts = Collectives.bytes(sendcount, p, sendtype.byteSize);
            offsets = Collectives.bytes(displs, p, sendtype.byteSize);
        }
        if (recvbuf != null) {
            Collectives.checkCount(c, call, recvcount, recvtype);
            in = Collectives.recv(c, call, recvbuf, recvcount, recvtype);
        }
        Schedule s = Gathering.scatterv(Collectives.schedule(c), send, counts, offsets,
                in == null ? null : in.seg(), root);
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                in == null ? null : in.copyBack());
    }
}
