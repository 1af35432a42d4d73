package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.coll.Neighborhood;
import org.verbatim.runtime.coll.Schedule;

/**
 * Neighbourhood collectives of Cartesian and graph communicators. Blocks are received in source
 * order and sent in destination order. On a Cartesian grid the two sends of each dimension go
 * out +1 first, then -1, so that when one rank is both neighbours (a periodic dimension of size
 * 1 or 2) the data sent in the + direction lands in the peer's - slot, as MPI defines.
 */
final class NeighborCollectives {
    private NeighborCollectives() {
    }

    private static int[] sources(Comm c, String call) throws MPIException {
        int[] s = c.neighborSources();
        if (s == null) {
            throw c.raise(call, ErrorClass.ERR_TOPOLOGY, "the communicator has no topology");
        }
        return s;
    }

    private static int[] destinations(Comm c) {
        return c.neighborDestinations();
    }

    /** Send order of destination slots (see the class comment). */
    private static int[] sendOrder(Comm c, int n) {
        int[] order = new int[n];
        boolean cart = c instanceof CartComm;
        for (int j = 0; j < n; j++) {
            order[j] = cart ? (j ^ 1) : j;
        }
        return order;
    }

    private static Request run(Comm c, String call, Schedule s, int[] src, MemorySegment[] into,
                               int[] dst, MemorySegment[] from, boolean nb, Object keep,
                               Runnable copyBack) throws MPIException {
        int[] order = sendOrder(c, dst.length);
        int[] d = new int[dst.length];
        MemorySegment[] f = new MemorySegment[dst.length];
        for (int j = 0; j < dst.length; j++) {
            d[j] = dst[order[j]];
            f[j] = from[order[j]];
        }
        Neighborhood.exchange(s, src, into, d, f, MPI.PROC_NULL);
        return Collectives.finish(c, call, s, nb, keep, copyBack);
    }

    /**
     * Bytes each neighbour block of a layout image really carries: {@code counts[i]}, or 0 for
     * a PROC_NULL neighbour (nothing is sent to it or received from it, so that block of a
     * receive buffer keeps its bytes and that block of a send buffer is not packed).
     */
    private static long[] carried(int[] peers, long[] counts) {
        long[] out = counts.clone();
        for (int i = 0; i < peers.length; i++) {
            if (peers[i] == MPI.PROC_NULL) {
                out[i] = 0;
            }
        }
        return out;
    }

    static Request allGather(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                             Object recvbuf, int recvcount, int[] unused, Datatype recvtype,
                             boolean nb) throws MPIException {
        String call = nb ? "MPI_Ineighbor_allgather" : "MPI_Neighbor_allgather";
        Collectives.begin(c, call);
        int[] src = sources(c, call);
        int[] dst = destinations(c);
        Collectives.checkCount(c, call, sendcount, sendtype);
        Collectives.checkCount(c, call, recvcount, recvtype);
        long block = recvtype.bytes(recvcount);
        long[] counts = RootedCollectives.equalCounts(src.length, block);
        long[] displs = RootedCollectives.equalDispls(src.length, block);
        return Collectives.build(Collectives.schedule(c), s -> {
            MemorySegment send = Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg();
            Collectives.Buf out = Collectives.recvBlocks(c, call, s, recvbuf,
                    recvcount * src.length, recvtype, carried(src, counts), displs, -1);
            MemorySegment[] into = new MemorySegment[src.length];
            for (int i = 0; i < src.length; i++) {
                into[i] = out.seg().asSlice(displs[i], block);
            }
            MemorySegment[] from = new MemorySegment[dst.length];
            java.util.Arrays.fill(from, send);
            return run(c, call, s, src, into, dst, from, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }

    static Request allGatherv(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                              Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype,
                              boolean nb) throws MPIException {
        String call = nb ? "MPI_Ineighbor_allgatherv" : "MPI_Neighbor_allgatherv";
        Collectives.begin(c, call);
        int[] src = sources(c, call);
        int[] dst = destinations(c);
        Collectives.checkCount(c, call, sendcount, sendtype);
        Collectives.checkCount(c, call, 0, recvtype);
        Collectives.checkArray(c, call, recvcount, src.length, "recvcount");
        Collectives.checkArray(c, call, displs, src.length, "displs");
        long[] counts = Collectives.bytes(recvcount, src.length, recvtype.byteSize);
        long[] offsets = Collectives.bytes(displs, src.length, recvtype.byteSize);
        return Collectives.build(Collectives.schedule(c), s -> {
            MemorySegment send = Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg();
            Collectives.Buf out = Collectives.recvBlocks(c, call, s, recvbuf,
                    Collectives.span(recvcount, displs, src.length), recvtype,
                    carried(src, counts), offsets, -1);
            MemorySegment[] into = new MemorySegment[src.length];
            for (int i = 0; i < src.length; i++) {
                into[i] = out.seg().asSlice(offsets[i], counts[i]);
            }
            MemorySegment[] from = new MemorySegment[dst.length];
            java.util.Arrays.fill(from, send);
            return run(c, call, s, src, into, dst, from, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }

    static Request allToAll(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                            Object recvbuf, int recvcount, Datatype recvtype, boolean nb)
            throws MPIException {
        String call = nb ? "MPI_Ineighbor_alltoall" : "MPI_Neighbor_alltoall";
        Collectives.begin(c, call);
        int[] src = sources(c, call);
        int[] dst = destinations(c);
        Collectives.checkCount(c, call, sendcount, sendtype);
        Collectives.checkCount(c, call, recvcount, recvtype);
        long sblock = sendtype.bytes(sendcount);
        long rblock = recvtype.bytes(recvcount);
        long[] sc = RootedCollectives.equalCounts(dst.length, sblock);
        long[] sd = RootedCollectives.equalDispls(dst.length, sblock);
        long[] rc = RootedCollectives.equalCounts(src.length, rblock);
        long[] rd = RootedCollectives.equalDispls(src.length, rblock);
        return exchange(c, call, sendbuf, sendcount * dst.length, sendtype, sc, sd, recvbuf,
                recvcount * src.length, recvtype, rc, rd, src, dst, nb);
    }

    static Request allToAllv(Comm c, Object sendbuf, int[] sendcount, int[] sdispls,
                             Datatype sendtype, Object recvbuf, int[] recvcount, int[] rdispls,
                             Datatype recvtype, boolean nb) throws MPIException {
        String call = nb ? "MPI_Ineighbor_alltoallv" : "MPI_Neighbor_alltoallv";
        Collectives.begin(c, call);
        int[] src = sources(c, call);
        int[] dst = destinations(c);
        Collectives.checkCount(c, call, 0, sendtype);
        Collectives.checkCount(c, call, 0, recvtype);
        Collectives.checkArray(c, call, sendcount, dst.length, "sendcount");
        Collectives.checkArray(c, call, sdispls, dst.length, "sdispls");
        Collectives.checkArray(c, call, recvcount, src.length, "recvcount");
        Collectives.checkArray(c, call, rdispls, src.length, "rdispls");
        return exchange(c, call, sendbuf, Collectives.span(sendcount, sdispls, dst.length),
                sendtype, Collectives.bytes(sendcount, dst.length, sendtype.byteSize),
                Collectives.bytes(sdispls, dst.length, sendtype.byteSize), recvbuf,
                Collectives.span(recvcount, rdispls, src.length), recvtype,
                Collectives.bytes(recvcount, src.length, recvtype.byteSize),
                Collectives.bytes(rdispls, src.length, recvtype.byteSize), src, dst, nb);
    }

    /**
     * Alltoall(v): block j of the send buffer ({@code sc[j]} bytes at {@code sd[j]}) to
     * destination j, block i of the receive buffer from source i. Under layout types only the
     * blocks that travel are packed and unpacked.
     */
    private static Request exchange(Comm c, String call, Object sendbuf, int sendSpan,
                                    Datatype sendtype, long[] sc, long[] sd, Object recvbuf,
                                    int recvSpan, Datatype recvtype, long[] rc, long[] rd,
                                    int[] src, int[] dst, boolean nb) throws MPIException {
        return Collectives.build(Collectives.schedule(c), s -> {
            MemorySegment send = Collectives.sendBlocks(c, call, s, sendbuf, sendSpan, sendtype,
                    carried(dst, sc), sd, -1).seg();
            Collectives.Buf out = Collectives.recvBlocks(c, call, s, recvbuf, recvSpan, recvtype,
                    carried(src, rc), rd, -1);
            MemorySegment[] into = new MemorySegment[src.length];
            for (int i = 0; i < src.length; i++) {
                into[i] = out.seg().asSlice(rd[i], rc[i]);
            }
            MemorySegment[] from = new MemorySegment[dst.length];
            for (int j = 0; j < dst.length; j++) {
                from[j] = send.asSlice(sd[j], sc[j]);
            }
            return run(c, call, s, src, into, dst, from, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }
}
