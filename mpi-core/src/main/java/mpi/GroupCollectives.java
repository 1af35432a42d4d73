package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.coll.Allgather;
import org.verbatim.runtime.coll.Alltoall;
import org.verbatim.runtime.coll.Barrier;
import org.verbatim.runtime.coll.BlockingCollectives;
import org.verbatim.runtime.coll.Gathering;
import org.verbatim.runtime.coll.Reduction;
import org.verbatim.runtime.coll.Scan;
import org.verbatim.runtime.coll.Schedule;

/**
 * The collectives where every rank gets a result: barrier, allgather(v), alltoall(v/w),
 * allreduce, reduce-scatter(-block), scan and exscan.
 */
final class GroupCollectives {
    private GroupCollectives() {
    }

    static Request barrier(Comm c, boolean nb) throws MPIException {
        String call = nb ? "MPI_Ibarrier" : "MPI_Barrier";
        Collectives.begin(c, call);
        if (c.isInterComm()) {
            return InterCollectives.barrier(c, nb);
        }
        if (!nb) {
            try {
                c.blockingCollectives().barrier(c.nextCollectiveTag());
            } catch (MpiError e) {
                throw c.raise(call, e);
            }
            return null;
        }
        return Collectives.finish(c, call, Barrier.build(Collectives.schedule(c)), nb, null);
    }

    /** {@code sendbuf == null}: in place (rank r's block already at r*count in recvbuf). */
    static Request allGather(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                             Object recvbuf, int recvcount, Datatype recvtype, boolean nb)
            throws MPIException {
        String call = nb ? "MPI_Iallgather" : "MPI_Allgather";
        Collectives.begin(c, call);
        if (c.isInterComm()) {
            return InterCollectives.allGather(c, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, nb);
        }
        int p = c.world.length;
        Collectives.checkCount(c, call, recvcount, recvtype);
        long block = recvtype.bytes(recvcount);
        if (sendbuf != null) {
            Collectives.checkCount(c, call, sendcount, sendtype);
            checkBlocks(c, call, sendtype.bytes(sendcount), block);
        }
        return Collectives.build(Collectives.schedule(c), s -> {
            MemorySegment send = null;
            Collectives.Buf out;
            if (sendbuf != null) {
                // every byte of the receive buffer is written: layout images need no filling first
                send = Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg();
                out = Collectives.recvWritten(c, call, s, recvbuf, recvcount * p, recvtype);
            } else {
                // in place: rank r's block is read from the buffer, the others are written
                boolean layout = recvtype.isLayout();
                out = Collectives.inPlaceBlocks(c, call, s, recvbuf, recvcount * p, recvtype,
                        layout ? RootedCollectives.equalCounts(p, block) : null,
                        layout ? RootedCollectives.equalDispls(p, block) : null, c.rank);
                if (recvbuf instanceof boolean[] && !recvtype.isLayout()) {
                    send = Collectives.send(c, call, s, recvbuf, recvcount * p, recvtype).seg()
                            .asSlice(c.rank * block, block);
                }
            }
            Allgather.build(s, send, out.seg(), block);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }

    static Request allGatherv(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                              Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype,
                              boolean nb) throws MPIException {
        String call = nb ? "MPI_Iallgatherv" : "MPI_Allgatherv";
        Collectives.begin(c, call);
        if (c.isInterComm()) {
            return InterRootedCollectives.allGatherv(c, sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, displs, recvtype, nb);
        }
        int p = c.world.length;
        Collectives.checkCount(c, call, 0, recvtype);
        Collectives.checkArray(c, call, recvcount, p, "recvcount");
        Collectives.checkArray(c, call, displs, p, "displs");
        if (sendbuf != null) {
            Collectives.checkCount(c, call, sendcount, sendtype);
        }
        long[] counts = Collectives.bytes(recvcount, p, recvtype.byteSize);
        long[] offsets = Collectives.bytes(displs, p, recvtype.byteSize);
        int span = Collectives.span(recvcount, displs, p);
        return Collectives.build(Collectives.schedule(c), s -> {
            MemorySegment send = null;
            Collectives.Buf out;
            if (sendbuf != null) {
                // only the blocks are written: the gaps between them are not unpacked
                send = Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg();
                out = Collectives.recvBlocks(c, call, s, recvbuf, span, recvtype, counts, offsets,
                        -1);
            } else {
                out = Collectives.inPlaceBlocks(c, call, s, recvbuf, span, recvtype, counts,
                        offsets, c.rank);
            }
            Allgather.gatherv(s, send, out.seg(), counts, offsets);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }

    static Request allToAll(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                            Object recvbuf, int recvcount, Datatype recvtype, boolean nb)
            throws MPIException {
        String call = nb ? "MPI_Ialltoall" : "MPI_Alltoall";
        Collectives.begin(c, call);
        int p = c.remote.length;
        Collectives.checkCount(c, call, sendcount, sendtype);
        Collectives.checkCount(c, call, recvcount, recvtype);
        long block = recvtype.bytes(recvcount);
        checkBlocks(c, call, sendtype.bytes(sendcount), block);
        if (c.isInterComm()) {
            return InterCollectives.allToAll(c, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                    recvtype, block, nb);
        }
        return Collectives.build(Collectives.schedule(c), s -> {
            // every byte of the receive buffer is written: layout images need no filling first
            MemorySegment send = Collectives.send(c, call, s, sendbuf, sendcount * p, sendtype)
                    .seg();
            Collectives.Buf out = Collectives.recvWritten(c, call, s, recvbuf, recvcount * p,
                    recvtype);
            Alltoall.build(s, send, out.seg(), block);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }

    private static void checkBlocks(Comm c, String call, long sendBlock, long recvBlock)
            throws MPIException {
        if (sendBlock != recvBlock) {
            throw c.raise(call, ErrorClass.ERR_TRUNCATE, "send block (" + sendBlock
                    + " bytes) differs from receive block (" + recvBlock + " bytes)");
        }
    }

    static Request allToAllv(Comm c, Object sendbuf, int[] sendcount, int[] sdispls,
                             Datatype sendtype, Object recvbuf, int[] recvcount, int[] rdispls,
                             Datatype recvtype, boolean nb) throws MPIException {
        String call = nb ? "MPI_Ialltoallv" : "MPI_Alltoallv";
        Collectives.begin(c, call);
        int p = c.remote.length;
        Collectives.checkCount(c, call, 0, sendtype);
        Collectives.checkCount(c, call, 0, recvtype);
        Collectives.checkArray(c, call, sendcount, p, "sendcount");
        Collectives.checkArray(c, call, sdispls, p, "sdispls");
        Collectives.checkArray(c, call, recvcount, p, "recvcount");
        Collectives.checkArray(c, call, rdispls, p, "rdispls");
        long[] sc = Collectives.bytes(sendcount, p, sendtype.byteSize);
        long[] sd = Collectives.bytes(sdispls, p, sendtype.byteSize);
        long[] rc = Collectives.bytes(recvcount, p, recvtype.byteSize);
        long[] rd = Collectives.bytes(rdispls, p, recvtype.byteSize);
        boolean inter = c.isInterComm();
        Schedule schedule = inter ? InterRootedCollectives.remote(c) : Collectives.schedule(c);
        return Collectives.build(schedule, s -> {
            // only the blocks are packed and unpacked, not the gaps between them; this rank's
            // own block (intra-communicator) is copied locally, as much of it as both sides hold
            MemorySegment send = Collectives.sendBlocks(c, call, s, sendbuf,
                    Collectives.span(sendcount, sdispls, p), sendtype, sc, sd, -1).seg();
            long[] written = rc;
            if (!inter && recvtype.isLayout() && sc[c.rank] < rc[c.rank]) {
                written = rc.clone();
                written[c.rank] = sc[c.rank];
            }
            Collectives.Buf out = Collectives.recvBlocks(c, call, s, recvbuf,
                    Collectives.span(recvcount, rdispls, p), recvtype, written, rd, -1);
            if (inter) {
                return InterRootedCollectives.allToAllBytes(c, call, s, send, sc, sd, out.seg(),
                        rc, rd, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
            }
            Alltoall.v(s, send, sc, sd, out.seg(), rc, rd);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }

    /** Alltoallw: displacements in bytes, a datatype per rank (all with the same base class). */
    static Request allToAllw(Comm c, Object sendbuf, int[] sendcount, int[] sdispls,
                             Datatype[] sendtypes, Object recvbuf, int[] recvcount, int[] rdispls,
                             Datatype[] recvtypes, boolean nb) throws MPIException {
        String call = nb ? "MPI_Ialltoallw" : "MPI_Alltoallw";
        Collectives.begin(c, call);
        int p = c.remote.length;
        Collectives.checkArray(c, call, sendcount, p, "sendcount");
        Collectives.checkArray(c, call, sdispls, p, "sdispls");
        Collectives.checkArray(c, call, recvcount, p, "recvcount");
        Collectives.checkArray(c, call, rdispls, p, "rdispls");
        if (sendtypes == null || recvtypes == null || sendtypes.length < p || recvtypes.length < p) {
            throw c.raise(call, ErrorClass.ERR_TYPE, "one datatype per rank is needed");
        }
        long[] sc = new long[p];
        long[] rc = new long[p];
        long[] sd = new long[p];
        long[] rd = new long[p];
        long sendSpan = 0;
        long recvSpan = 0;
        for (int i = 0; i < p; i++) {
            Collectives.checkCount(c, call, sendcount[i], sendtypes[i]);
            Collectives.checkCount(c, call, recvcount[i], recvtypes[i]);
            sc[i] = sendtypes[i].bytes(sendcount[i]);
            rc[i] = recvtypes[i].bytes(recvcount[i]);
            sd[i] = sdispls[i];
            rd[i] = rdispls[i];
            sendSpan = Math.max(sendSpan, sc[i] == 0 ? 0 : sd[i] + sc[i]);
            recvSpan = Math.max(recvSpan, rc[i] == 0 ? 0 : rd[i] + rc[i]);
        }
        long sendBytes = sendSpan;
        long recvBytes = recvSpan;
        boolean inter = c.isInterComm();
        Schedule schedule = inter ? InterRootedCollectives.remote(c) : Collectives.schedule(c);
        return Collectives.build(schedule, s -> {
            MemorySegment send;
            MemorySegment recv;
            Runnable copyBack = null;
            try {
                if (LayoutBuffers.anyLayout(sendtypes, p) || LayoutBuffers.anyLayout(recvtypes, p)) {
                    // each rank's block packed on its own into scratch memory: the schedule
                    // then moves packed blocks, and the receive blocks are unpacked at the end
                    send = LayoutBuffers.packBlocks(s, Buffers.whole(sendbuf, sendtypes[0]),
                            sendcount, sdispls, sendtypes, sc, sd);
                    Collectives.Buf out = LayoutBuffers.blocksForReceive(s,
                            Buffers.whole(recvbuf, recvtypes[0]), recvcount, rdispls, recvtypes,
                            rc, rd, inter ? -1 : c.rank, sc[c.rank]);
                    recv = out.seg();
                    copyBack = out.copyBack();
                } else {
                    send = Buffers.segment(sendbuf, sendtypes[0], sendBytes);
                    recv = Buffers.segment(recvbuf, recvtypes[0], recvBytes);
                }
            } catch (MPIException e) {
                throw c.raise(call, e.getErrorClass(), e.getMessage());
            }
            if (inter) {
                return InterRootedCollectives.allToAllBytes(c, call, s, send, sc, sd, recv, rc,
                        rd, nb, new Object[] {sendbuf, recvbuf}, copyBack);
            }
            Alltoall.v(s, send, sc, sd, recv, rc, rd);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf}, copyBack);
        });
    }

    /** Allreduce; {@code sendbuf == null} is the in-place form. */
    static Request allReduce(Comm c, Object sendbuf, Object recvbuf, int count, Datatype type,
                             Op op, boolean nb) throws MPIException {
        String call = nb ? "MPI_Iallreduce" : "MPI_Allreduce";
        Collectives.begin(c, call);
        Collectives.checkCount(c, call, count, type);
        Collectives.checkOp(c, call, op, type);
        if (c.isInterComm()) {
            return InterCollectives.allReduce(c, sendbuf, recvbuf, count, type, op, nb);
        }
        if (!nb && blockingAllReduce(c, call, sendbuf, recvbuf, count, type, op)) {
            return null;
        }
        return Collectives.build(Collectives.schedule(c), s -> {
            Collectives.Buf out = sendbuf == null ? Collectives.inout(c, call, s, recvbuf, count, type)
                    : Collectives.recvWritten(c, call, s, recvbuf, count, type);
            MemorySegment in = sendbuf == null ? out.seg()
                    : Collectives.send(c, call, s, sendbuf, count, type).seg();
            Reduction.allreduce(s, in, out.seg(), count, type.byteSize,
                    Collectives.reducer(op, type), Collectives.commutative(op));
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }

    /**
     * The blocking allreduce of a small vector without a schedule (no allocation once warm):
     * user buffers through the communicator's segment cache. False when the vector is too large
     * or a boolean[] needs conversion; the schedule then does it.
     */
    private static boolean blockingAllReduce(Comm c, String call, Object sendbuf, Object recvbuf,
                                             int count, Datatype type, Op op)
            throws MPIException {
        BlockingCollectives b = c.blockingCollectives();
        if (!b.allreduceFits((long) count * type.byteSize) || type.isLayout()
                || recvbuf instanceof boolean[]
                || sendbuf instanceof boolean[]) {
            return false;
        }
        MemorySegment out = CommArgs.recvSegment(c, call, recvbuf, count, type);
        MemorySegment in = sendbuf == null ? out
                : CommArgs.sendSegment(c, call, sendbuf, count, type);
        try {
            b.allreduce(c.nextCollectiveTag(), in, out, count, op.reducer(type));
        } catch (MpiError e) {
            throw c.raise(call, e);
        }
        return true;
    }

    /**
     * Reduce-scatter: the canonical (binomial) reduction of the whole vector to rank 0, then
     * scattered in the given counts. {@code sendbuf == null}: in place (input in recvbuf, the
     * result block at its start).
     */
    static Request reduceScatter(Comm c, Object sendbuf, Object recvbuf, int[] recvcounts,
                                 Datatype type, Op op, boolean nb, String call) throws MPIException {
        Collectives.begin(c, call);
        if (c.isInterComm()) {
            return InterRootedCollectives.reduceScatter(c, sendbuf, recvbuf, recvcounts, type, op,
                    nb, call);
        }
        int p = c.world.length;
        Collectives.checkCount(c, call, 0, type);
        Collectives.checkArray(c, call, recvcounts, p, "recvcounts");
        Collectives.checkOp(c, call, op, type);
        int total = 0;
        for (int i = 0; i < p; i++) {
            total += recvcounts[i];
        }
        long[] counts = Collectives.bytes(recvcounts, p, type.byteSize);
        long[] offsets = new long[p];
        for (int i = 1; i < p; i++) {
            offsets[i] = offsets[i - 1] + counts[i - 1];
        }
        int all = total;
        return Collectives.build(Collectives.schedule(c), s -> {
            // in place, the input is the whole buffer and the result only its first block
            Collectives.Buf out = sendbuf == null
                    ? Collectives.inout(c, call, s, recvbuf, all, type, counts[c.rank])
                    : Collectives.recvWritten(c, call, s, recvbuf, recvcounts[c.rank], type);
            MemorySegment in = sendbuf == null ? out.seg()
                    : Collectives.send(c, call, s, sendbuf, all, type).seg();
            MemorySegment full = c.rank == 0 ? s.temp(in.byteSize()) : null;
            Reduction.reduce(s, in, full, all, Collectives.reducer(op, type), 0);
            Gathering.scatterv(s, full, counts, offsets, out.seg().asSlice(0, counts[c.rank]), 0);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }

    static Request reduceScatterBlock(Comm c, Object sendbuf, Object recvbuf, int recvcount,
                                      Datatype type, Op op, boolean nb) throws MPIException {
        String call = nb ? "MPI_Ireduce_scatter_block" : "MPI_Reduce_scatter_block";
        MPI.check();
        c.checkUsable(call);
        if (recvcount < 0) {
            throw c.raise(call, ErrorClass.ERR_COUNT, "negative count " + recvcount);
        }
        int[] counts = new int[c.world.length];
        java.util.Arrays.fill(counts, recvcount);
        return reduceScatter(c, sendbuf, recvbuf, counts, type, op, nb, call);
    }

    static Request scan(Comm c, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                        boolean nb, boolean exclusive) throws MPIException {
        String call = exclusive ? (nb ? "MPI_Iexscan" : "MPI_Exscan") : (nb ? "MPI_Iscan" : "MPI_Scan");
        Collectives.begin(c, call);
        if (c.isInterComm()) {
            throw c.raise(call, ErrorClass.ERR_COMM, "scan and exscan are not defined on "
                    + "inter-communicators");
        }
        Collectives.checkCount(c, call, count, type);
        Collectives.checkOp(c, call, op, type);
        return Collectives.build(Collectives.schedule(c), s -> {
            Collectives.Buf out = sendbuf == null ? Collectives.inout(c, call, s, recvbuf, count, type)
                    : Collectives.recvWritten(c, call, s, recvbuf, count, type);
            // in place, the input is read once, at the start, before the result is written
            MemorySegment in = sendbuf == null ? out.seg()
                    : Collectives.send(c, call, s, sendbuf, count, type).seg();
            Scan.build(s, in, out.seg(), count, Collectives.reducer(op, type), exclusive);
            // exScan leaves rank 0's buffer as it was (its result is undefined)
            Runnable back = exclusive && c.rank == 0 ? null : out.copyBack();
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf}, back);
        });
    }
}
