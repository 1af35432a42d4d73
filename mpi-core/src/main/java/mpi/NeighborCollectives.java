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

    private static Request run(Comm c, String call, int[] src, MemorySegment[] into, int[] dst,
                               MemorySegment[] from, boolean nb, Object keep,
                               Runnable copyBack) throws MPIException {
        int[] order = sendOrder(c, dst.length);
        int[] d = new int[dst.length];
        MemorySegment[] f = new MemorySegment[dst.length];
        for (int j = 0; j < dst.length; j++) {
            d[j] = dst[order[j]];
            f[j] = from[order[j]];
        }
        Schedule s = Neighborhood.exchange(Collectives.schedule(c), src, into, d, f, MPI.PROC_NULL);
        return Collectives.finish(c, call, s, nb, keep, copyBack);
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
        MemorySegment send = Collectives.send(c, call, sendbuf, sendcount, sendtype).seg();
        Collectives.Buf out = Collectives.recv(c, call, recvbuf, recvcount * src.length, recvtype);
        long block = recvtype.bytes(recvcount);
        MemorySegment[] into = new MemorySegment[src.length];
        for (int i = 0; i < src.length; i++) {
            into[i] = out.seg().asSlice(i * block, block);
        }
        MemorySegment[] from = new MemorySegment[dst.length];
        java.util.Arrays.fill(from, send);
        return run(c, call, src, into, dst, from, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
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
        MemorySegment send = Collectives.send(c, call, sendbuf, sendcount, sendtype).seg();
        Collectives.Buf out = Collectives.recv(c, call, recvbuf,
                Collectives.span(recvcount, displs, src.length), recvtype);
        MemorySegment[] into = new MemorySegment[src.length];
        for (int i = 0; i < src.length; i++) {
            into[i] = out.seg().asSlice((long) displs[i] * recvtype.byteSize,
                    recvtype.bytes(recvcount[i]));
        }
        MemorySegment[] from = new MemorySegment[dst.length];
        java.util.Arrays.fill(from, send);
        return run(c, call, src, into, dst, from, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
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
        MemorySegment send = Collectives.send(c, call, sendbuf, sendcount * dst.length, sendtype).seg();
        Collectives.Buf out = Collectives.recv(c, call, recvbuf, recvcount * src.length, recvtype);
        long sblock = sendtype.bytes(sendcount);
        long rblock = recvtype.bytes(recvcount);
        MemorySegment[] into = new MemorySegment[src.length];
        for (int i = 0; i < src.length; i++) {
            into[i] = out.seg().asSlice(i * rblock, rblock);
        }
        MemorySegment[] from = new MemorySegment[dst.length];
        for (int j = 0; j < dst.length; j++) {
            from[j] = send.asSlice(j * sblock, sblock);
        }
        return run(c, call, src, into, dst, from, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
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
        MemorySegment send = Collectives.send(c, call, sendbuf,
                Collectives.span(sendcount, sdispls, dst.length), sendtype).seg();
        Collectives.Buf out = Collectives.recv(c, call, recvbuf,
                Collectives.span(recvcount, rdispls, src.length), recvtype);
        MemorySegment[] into = new MemorySegment[src.length];
        for (int i = 0; i < src.length; i++) {
            into[i] = out.seg().asSlice((long) rdispls[i] * recvtype.byteSize,
                    recvtype.bytes(recvcount[i]));
        }
        MemorySegment[] from = new MemorySegment[dst.length];
        for (int j = 0; j < dst.length; j++) {
            from[j] = send.asSlice((long) sdispls[j] * sendtype.byteSize,
                    sendtype.bytes(sendcount[j]));
        }
        return run(c, call, src, into, dst, from, nb, new Object[] {sendbuf, recvbuf}, out.copyBack());
    }
}
