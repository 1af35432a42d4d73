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
        return Collectives.build(Collectives.schedule(c), s -> {
            // every byte of a non-root's buffer is written: its image is not filled first
            Collectives.Buf b = c.rank == root ? Collectives.send(c, call, s, buf, count, type)
                    : Collectives.recvWritten(c, call, s, buf, count, type);
            Broadcast.build(s, b.seg(), root);
            return Collectives.finish(c, call, s, nb, buf, b.copyBack());
        });
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
        return Collectives.build(Collectives.schedule(c), s -> {
            Collectives.Buf in;
            Collectives.Buf out = null;
            if (inPlace) {
                in = c.rank == root ? Collectives.inout(c, call, s, recvbuf, count, type)
                        : Collectives.send(c, call, s, recvbuf, count, type);
                if (c.rank == root) {
                    out = in;
                }
            } else {
                in = Collectives.send(c, call, s, sendbuf, count, type);
                if (c.rank == root) {
                    out = Collectives.recvWritten(c, call, s, recvbuf, count, type);
                }
            }
            Reduction.reduce(s, in.seg(), out == null ? null : out.seg(), count,
                    Collectives.reducer(op, type), root);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out == null ? null : out.copyBack());
        });
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
        if (c.rank == root) {
            Collectives.checkCount(c, call, recvcount, recvtype);
            if (sendbuf != null) {
                Collectives.checkCount(c, call, sendcount, sendtype);
            }
        } else {
            Collectives.checkCount(c, call, sendcount, sendtype);
        }
        return Collectives.build(Collectives.schedule(c), s -> {
            MemorySegment send = null;
            Collectives.Buf out = null;
            long block;
            if (c.rank == root) {
                block = recvtype.bytes(recvcount);
                if (sendbuf != null) {
                    send = Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg();
                    if (send.byteSize() != block) {
                        throw c.raise(call, ErrorClass.ERR_TRUNCATE, "the root's send block ("
                                + send.byteSize() + " bytes) differs from its receive block ("
                                + block + ")");
                    }
                }
                // every block is written but, in place, the root's own (already there)
                out = Collectives.recvBlocks(c, call, s, recvbuf, recvcount * p, recvtype, p,
                        block, sendbuf == null ? root : -1);
            } else {
                send = Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg();
                block = send.byteSize();
            }
            Gathering.gather(s, send, out == null ? null : out.seg(), block, root);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out == null ? null : out.copyBack());
        });
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
        if (c.rank == root) {
            Collectives.checkCount(c, call, 0, recvtype);
            Collectives.checkArray(c, call, recvcount, p, "recvcount");
            Collectives.checkArray(c, call, displs, p, "displs");
        }
        if (sendbuf != null) {
            Collectives.checkCount(c, call, sendcount, sendtype);
        }
        return Collectives.build(Collectives.schedule(c), s -> {
            MemorySegment send = null;
            Collectives.Buf out = null;
            long[] counts = null;
            long[] offsets = null;
            if (c.rank == root) {
                counts = Collectives.bytes(recvcount, p, recvtype.byteSize);
                offsets = Collectives.bytes(displs, p, recvtype.byteSize);
                // only the blocks are written (in place: not the root's own)
                out = Collectives.recvBlocks(c, call, s, recvbuf,
                        Collectives.span(recvcount, displs, p), recvtype, counts, offsets,
                        sendbuf == null ? root : -1);
            }
            if (sendbuf != null) {
                send = Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg();
            }
            Gathering.gatherv(s, send, out == null ? null : out.seg(), counts, offsets, root);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out == null ? null : out.copyBack());
        });
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
        if (c.rank == root) {
            Collectives.checkCount(c, call, sendcount, sendtype);
        }
        if (c.rank != root || recvbuf != null) {
            Collectives.checkCount(c, call, recvcount, recvtype);
        }
        return Collectives.build(Collectives.schedule(c), s -> {
            MemorySegment send = null;
            Collectives.Buf in = null;
            long block;
            if (c.rank == root) {
                block = sendtype.bytes(sendcount);
                // in place, the root's own block stays where it is: it is not packed
                send = recvbuf != null || !sendtype.isLayout()
                        ? Collectives.send(c, call, s, sendbuf, sendcount * p, sendtype).seg()
                        : Collectives.sendBlocks(c, call, s, sendbuf, sendcount * p, sendtype,
                                equalCounts(p, block), equalDispls(p, block), root).seg();
                if (recvbuf != null) {
                    in = Collectives.recvWritten(c, call, s, recvbuf, recvcount, recvtype);
                    if (in.seg().byteSize() != block) {
                        throw c.raise(call, ErrorClass.ERR_TRUNCATE, "the root's receive block ("
                                + in.seg().byteSize() + " bytes) differs from its send block ("
                                + block + ")");
                    }
                }
            } else {
                in = Collectives.recvWritten(c, call, s, recvbuf, recvcount, recvtype);
                block = in.seg().byteSize();
            }
            Gathering.scatter(s, send, in == null ? null : in.seg(), block, root);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    in == null ? null : in.copyBack());
        });
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
        if (c.rank == root) {
            Collectives.checkCount(c, call, 0, sendtype);
            Collectives.checkArray(c, call, sendcount, p, "sendcount");
            Collectives.checkArray(c, call, displs, p, "displs");
        }
        if (recvbuf != null) {
            Collectives.checkCount(c, call, recvcount, recvtype);
        }
        return Collectives.build(Collectives.schedule(c), s -> {
            MemorySegment send = null;
            Collectives.Buf in = null;
            long[] counts = null;
            long[] offsets = null;
            if (c.rank == root) {
                counts = Collectives.bytes(sendcount, p, sendtype.byteSize);
                offsets = Collectives.bytes(displs, p, sendtype.byteSize);
                // only the blocks sent are packed (in place: not the root's own)
                send = Collectives.sendBlocks(c, call, s, sendbuf,
                        Collectives.span(sendcount, displs, p), sendtype, counts, offsets,
                        recvbuf == null ? root : -1).seg();
            }
            if (recvbuf != null) {
                in = Collectives.recvWritten(c, call, s, recvbuf, recvcount, recvtype);
            }
            Gathering.scatterv(s, send, counts, offsets, in == null ? null : in.seg(), root);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    in == null ? null : in.copyBack());
        });
    }

    /** {@code n} blocks of {@code block} bytes: their lengths. */
    static long[] equalCounts(int n, long block) {
        long[] counts = new long[n];
        java.util.Arrays.fill(counts, block);
        return counts;
    }

    /** {@code n} blocks of {@code block} bytes: where they start. */
    static long[] equalDispls(int n, long block) {
        long[] displs = new long[n];
        for (int i = 0; i < n; i++) {
            displs[i] = i * block;
        }
        return displs;
    }
}
