package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.coll.Barrier;
import org.verbatim.runtime.coll.Broadcast;
import org.verbatim.runtime.coll.CollGroup;
import org.verbatim.runtime.coll.Gathering;
import org.verbatim.runtime.coll.Reduction;
import org.verbatim.runtime.coll.Schedule;

/**
 * Collectives of inter-communicators: each group's result comes from the other group. One
 * schedule spans a phase inside each group (on the inter-communicator's local context) and an
 * exchange between the two leaders (local rank 0 of each group) on the cross context, so the
 * nonblocking forms progress like any other.
 */
final class InterCollectives {
    private InterCollectives() {
    }

    private static Schedule start(Comm c, CollGroup g) {
        return new Schedule(g, c.nextCollectiveTag());
    }

    static Request barrier(Comm c, boolean nb) throws MPIException {
        String call = nb ? "MPI_Ibarrier" : "MPI_Barrier";
        CollGroup local = Collectives.localGroup(c);
        Schedule s = Barrier.build(start(c, local));
        if (c.rank == 0) {
            MemorySegment none = MemorySegment.ofArray(new byte[0]);
            s.using(Collectives.remoteGroup(c)).send(0, none).recv(0, none).waitAll();
        }
        Barrier.build(s.using(local));
        return Collectives.finish(c, call, s, nb, null);
    }

    /** Root group: the root passes MPI.ROOT, the others MPI.PROC_NULL; the other group the root's rank. */
    static Request bcast(Comm c, Object buf, int count, Datatype type, int root, boolean nb)
            throws MPIException {
        String call = nb ? "MPI_Ibcast" : "MPI_Bcast";
        Collectives.checkCount(c, call, count, type);
        CollGroup remote = Collectives.remoteGroup(c);
        if (root == MPI.PROC_NULL) {
            return Collectives.finish(c, call, start(c, remote), nb, null);
        }
        if (root == MPI.ROOT) {
            return Collectives.build(start(c, remote), s -> {
                MemorySegment data = Collectives.send(c, call, s, buf, count, type).seg();
                return Collectives.finish(c, call, s.send(0, data).waitAll(), nb, buf);
            });
        }
        if (root < 0 || root >= c.remote.length) {
            throw c.raise(call, ErrorClass.ERR_ROOT, "invalid root " + root + " (remote group size "
                    + c.remote.length + ")");
        }
        return Collectives.build(start(c, remote), s -> {
            Collectives.Buf in = Collectives.recvWritten(c, call, s, buf, count, type);
            if (c.rank == 0) {
                s.recv(root, in.seg()).waitAll();
            }
            Broadcast.build(s.using(Collectives.localGroup(c)), in.seg(), 0);
            return Collectives.finish(c, call, s, nb, buf, in.copyBack());
        });
    }

    /** Each group receives the reduction of the other group's data. */
    static Request allReduce(Comm c, Object sendbuf, Object recvbuf, int count, Datatype type,
                             Op op, boolean nb) throws MPIException {
        String call = nb ? "MPI_Iallreduce" : "MPI_Allreduce";
        if (sendbuf == null) {
            throw c.raise(call, ErrorClass.ERR_ARG, "in-place allreduce is not defined on an "
                    + "inter-communicator");
        }
        CollGroup local = Collectives.localGroup(c);
        return Collectives.build(start(c, local), s -> {
            MemorySegment in = Collectives.send(c, call, s, sendbuf, count, type).seg();
            Collectives.Buf out = Collectives.recvWritten(c, call, s, recvbuf, count, type);
            MemorySegment mine = s.temp(in.byteSize());
            Reduction.reduce(s, in, mine, count, Collectives.reducer(op, type), 0);
            if (c.rank == 0) {
                s.using(Collectives.remoteGroup(c)).send(0, mine).recv(0, out.seg()).waitAll();
            }
            Broadcast.build(s.using(local), out.seg(), 0);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }

    /** Each rank receives every remote rank's block, in remote rank order. */
    static Request allGather(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                             Object recvbuf, int recvcount, Datatype recvtype, boolean nb)
            throws MPIException {
        String call = nb ? "MPI_Iallgather" : "MPI_Allgather";
        if (sendbuf == null) {
            throw c.raise(call, ErrorClass.ERR_ARG, "in-place allgather is not defined on an "
                    + "inter-communicator");
        }
        Collectives.checkCount(c, call, sendcount, sendtype);
        Collectives.checkCount(c, call, recvcount, recvtype);
        CollGroup local = Collectives.localGroup(c);
        return Collectives.build(start(c, local), s -> {
            MemorySegment send = Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg();
            Collectives.Buf out = Collectives.recvWritten(c, call, s, recvbuf,
                    recvcount * c.remote.length, recvtype);
            long block = send.byteSize();
            MemorySegment gathered = c.rank == 0 ? s.temp(block * c.world.length) : null;
            Gathering.gather(s, send, gathered, block, 0);
            if (c.rank == 0) {
                s.using(Collectives.remoteGroup(c)).send(0, gathered).recv(0, out.seg()).waitAll();
            }
            Broadcast.build(s.using(local), out.seg(), 0);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }

    /** Block i goes to remote rank i; block j comes from remote rank j. */
    static Request allToAll(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                            Object recvbuf, int recvcount, Datatype recvtype, long block,
                            boolean nb) throws MPIException {
        String call = nb ? "MPI_Ialltoall" : "MPI_Alltoall";
        int q = c.remote.length;
        return Collectives.build(start(c, Collectives.remoteGroup(c)), s -> {
            MemorySegment send = Collectives.send(c, call, s, sendbuf, sendcount * q, sendtype)
                    .seg();
            Collectives.Buf out = Collectives.recvWritten(c, call, s, recvbuf, recvcount * q,
                    recvtype);
            for (int j = 0; j < q; j++) {
                s.recv(j, out.seg().asSlice(j * block, block));
            }
            for (int i = 0; i < q; i++) {
                s.send(i, send.asSlice(i * block, block));
            }
            s.waitAll();
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }
}
