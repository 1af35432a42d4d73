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
            // every byte of the receive buffer is written: layout images need no filling first
            Schedule s = Collectives.schedule(c);
            try {
                MemorySegment send = Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg();
                Collectives.Buf out = Collectives.recvWritten(c, call, s, recvbuf, recvcount * p,
                        recvtype);
                Allgather.build(s, send, out.seg(), block);
                return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                        out.copyBack());
            } catch (MPIException e) {
                s.discard();
                throw e;
            }
        }
        // in place: rank r's block is read from the receive buffer, so a layout image is filled
        Collectives.Buf out = Collectives.recv(c, call, recvbuf, recvcount * p, recvtype);
        MemorySegment send = null;
        if (out.copyBack() != null) {
            send = Collectives.send(c, call, recvbuf, recvcount * p, recvtype).seg()
                    .asSlice(c.rank * block, block);
        }
        Schedule s = Allgather.build(Collectives.schedule(c), send, out.seg(), block);
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
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
        Collectives.Buf out = Collectives.recv(c, call, recvbuf,
                Collectives.span(recvcount, displs, p), recvtype);
        long[] counts = Collectives.bytes(recvcount, p, recvtype.byteSize);
        long[] offsets = Collectives.bytes(displs, p, recvtype.byteSize);
        MemorySegment send = null;
        if (sendbuf != null) {
            Collectives.checkCount(c, call, sendcount, sendtype);
            send = Collectives.send(c, call, sendbuf, sendcount, sendtype).seg();
        }
        Schedule s = Allgather.gatherv(Collectives.schedule(c), send, out.seg(), counts, offsets);
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
    }

    static Request allToAll(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                            Object recvbuf, int recvcount, Datatype recvtype, boolean nb)
            throws MPIException {
        String call = nb ? "MPI_Ialltoall" : "MPI_Alltoall";
        Collectives.begin(c, call);
        int p = c.remote.length;
        Collectives.checkCount(c, call, sendcount, sendtype);
        Collectives.checkCount(c, call, recvcount, recvtype);
        if (c.isInterComm()) {
            MemorySegment send = Collectives.send(c, call, sendbuf, sendcount * p, sendtype).seg();
            Collectives.Buf out = Collectives.recv(c, call, recvbuf, recvcount * p, recvtype);
            long block = recvtype.bytes(recvcount);
            checkBlocks(c, call, sendtype.bytes(sendcount), block);
            return InterCollectives.allToAll(c, send, out, block, nb, sendbuf, recvbuf);
        }
        long block = recvtype.bytes(recvcount);
        checkBlocks(c, call, sendtype.bytes(sendcount), block);
        // every byte of the receive buffer is written: layout images need no filling first
        Schedule s = Collectives.schedule(c);
        try {
            MemorySegment send = Collectives.send(c, call, s, sendbuf, sendcount * p, sendtype).seg();
            Collectives.Buf out = Collectives.recvWritten(c, call, s, recvbuf, recvcount * p,
                    recvtype);
            Alltoall.build(s, send, out.seg(), block);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        } catch (MPIException e) {
            s.discard();
            throw e;
        }
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
        MemorySegment send = Collectives.send(c, call, sendbuf,
                Collectives.span(sendcount, sdispls, p), sendtype).seg();
        Collectives.Buf out = Collectives.recv(c, call, recvbuf,
                Collectives.span(recvcount, rdispls, p), recvtype);
        long[] sc = Collectives.bytes(sendcount, p, sendtype.byteSize);
        long[] sd = Collectives.bytes(sdispls, p, sendtype.byteSize);
        long[] rc = Collectives.bytes(recvcount, p, recvtype.byteSize);
        long[] rd = Collectives.bytes(rdispls, p, recvtype.byteSize);
        if (c.isInterComm()) {
            return InterRootedCollectives.allToAllBytes(c, call, send, sc, sd, out.seg(), rc,
                    rd, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
        }
        Schedule s = Alltoall.v(Collectives.schedule(c), send, sc, sd, out.seg(), rc, rd);
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
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
        MemorySegment send;
        MemorySegment recv;
        Runnable copyBack = null;
        try {
            if (LayoutBuffers.anyLayout(sendtypes, p) || LayoutBuffers.anyLayout(recvtypes, p)) {
                // each rank's block packed on its own: the schedule then moves packed blocks
                send = LayoutBuffers.packBlocks(Buffers.whole(sendbuf, sendtypes[0]), sendcount,
                        sdispls, sendtypes, sc, sd);
                Collectives.Buf out = LayoutBuffers.packedBlocksForReceive(
                        Buffers.whole(recvbuf, recvtypes[0]), recvcount, rdispls, recvtypes, rc, rd);
                recv = out.seg();
                copyBack = out.copyBack();
            } else {
                send = Buffers.segment(sendbuf, sendtypes[0], sendSpan);
                recv = Buffers.segment(recvbuf, recvtypes[0], recvSpan);
            }
        } catch (MPIException e) {
            throw c.raise(call, e.getErrorClass(), e.getMessage());
        }
        if (c.isInterComm()) {
            return InterRootedCollectives.allToAllBytes(c, call, send, sc, sd, recv, rc, rd, nb,
                    new Object[] {sendbuf, recvbuf}, copyBack);
        }
        Schedule s = Alltoall.v(Collectives.schedule(c), send, sc, sd, recv, rc, rd);
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf}, copyBack);
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
        Collectives.Buf out = sendbuf == null ? Collectives.inout(c, call, recvbuf, count, type)
                : Collectives.recv(c, call, recvbuf, count, type);
        MemorySegment in = sendbuf == null ? out.seg()
                : Collectives.send(c, call, sendbuf, count, type).seg();
        Schedule s = Reduction.allreduce(Collectives.schedule(c), in, out.seg(), count,
                type.byteSize, Collectives.reducer(op, type), Collectives.commutative(op));
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
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
        Collectives.Buf out = sendbuf == null ? Collectives.inout(c, call, recvbuf, total, type)
                : Collectives.recv(c, call, recvbuf, recvcounts[c.rank], type);
        MemorySegment in = sendbuf == null ? out.seg()
                : Collectives.send(c, call, sendbuf, total, type).seg();
        long[] counts = Collectives.bytes(recvcounts, p, type.byteSize);
        long[] offsets = new long[p];
        for (int i = 1; i < p; i++) {
            offsets[i] = offsets[i - 1] + counts[i - 1];
        }
        Schedule s = Collectives.schedule(c);
        MemorySegment full = c.rank == 0 ? s.temp(in.byteSize()) : null;
        Reduction.reduce(s, in, full, total, Collectives.reducer(op, type), 0);
        Gathering.scatterv(s, full, counts, offsets, out.seg().asSlice(0, counts[c.rank]), 0);
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
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
        Collectives.Buf out = sendbuf == null ? Collectives.inout(c, call, recvbuf, count, type)
                : Collectives.recv(c, call, recvbuf, count, type);
        MemorySegment in = sendbuf == null ? copyOf(out.seg())
                : Collectives.send(c, call, sendbuf, count, type).seg();
        Schedule s = Scan.build(Collectives.schedule(c), in, out.seg(), count,
                Collectives.reducer(op, type), exclusive);
        return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
    }

    private static MemorySegment copyOf(MemorySegment s) {
        MemorySegment c = Reduction.heap(s.byteSize());
        MemorySegment.copy(s, 0, c, 0, s.byteSize());
        return c;
    }
}
