package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.coll.CollGroup;
import org.verbatim.runtime.coll.Gathering;
import org.verbatim.runtime.coll.Reduction;
import org.verbatim.runtime.coll.Schedule;

/**
 * Rooted and vector collectives of inter-communicators. In the root's group the root passes
 * MPI.ROOT and the others MPI.PROC_NULL; the other group passes the root's rank in the root's
 * group. Data always crosses between the groups: the root gathers from (or scatters to, or
 * receives the reduction of) the remote group.
 */
final class InterRootedCollectives {
    private InterRootedCollectives() {
    }

    /** A schedule on the remote group (the cross context). */
    static Schedule remote(Comm c) {
        return new Schedule(Collectives.remoteGroup(c), c.nextCollectiveTag());
    }

    /** -1: this rank takes no part; 0: this rank is the root; 1: it is in the other group. */
    private static int role(Comm c, String call, int root) throws MPIException {
        if (root == MPI.PROC_NULL) {
            return -1;
        }
        if (root == MPI.ROOT) {
            return 0;
        }
        if (root < 0 || root >= c.remote.length) {
            throw c.raise(call, ErrorClass.ERR_ROOT, "invalid root " + root + " (on an "
                    + "inter-communicator: MPI.ROOT, MPI.PROC_NULL, or a rank of the remote group "
                    + "of size " + c.remote.length + ")");
        }
        return 1;
    }

    static Request gather(Comm c, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                          int recvcount, Datatype recvtype, int root, boolean nb)
            throws MPIException {
        String call = nb ? "MPI_Igather" : "MPI_Gather";
        int role = role(c, call, root);
        if (role == 0) {
            Collectives.checkCount(c, call, recvcount, recvtype);
        } else if (role == 1) {
            Collectives.checkCount(c, call, sendcount, sendtype);
        }
        return Collectives.build(remote(c), s -> {
            Runnable back = null;
            if (role == 0) {
                // every remote rank's block is written: the image is not filled first
                Collectives.Buf out = Collectives.recvWritten(c, call, s, recvbuf,
                        recvcount * c.remote.length, recvtype);
                long block = recvtype.bytes(recvcount);
                for (int j = 0; j < c.remote.length; j++) {
                    s.recv(j, out.seg().asSlice(j * block, block));
                }
                back = out.copyBack();
            } else if (role == 1) {
                s.send(root, Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg());
            }
            return Collectives.finish(c, call, s.waitAll(), nb, new Object[] {sendbuf, recvbuf},
                    back);
        });
    }

    static Request gatherv(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                           Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype,
                           int root, boolean nb) throws MPIException {
        String call = nb ? "MPI_Igatherv" : "MPI_Gatherv";
        int role = role(c, call, root);
        int q = c.remote.length;
        if (role == 0) {
            Collectives.checkCount(c, call, 0, recvtype);
            Collectives.checkArray(c, call, recvcount, q, "recvcount");
            Collectives.checkArray(c, call, displs, q, "displs");
        } else if (role == 1) {
            Collectives.checkCount(c, call, sendcount, sendtype);
        }
        return Collectives.build(remote(c), s -> {
            Runnable back = null;
            if (role == 0) {
                long[] counts = Collectives.bytes(recvcount, q, recvtype.byteSize);
                long[] offsets = Collectives.bytes(displs, q, recvtype.byteSize);
                // only the blocks are written: the gaps between them are not unpacked
                Collectives.Buf out = Collectives.recvBlocks(c, call, s, recvbuf,
                        Collectives.span(recvcount, displs, q), recvtype, counts, offsets, -1);
                for (int j = 0; j < q; j++) {
                    s.recv(j, out.seg().asSlice(offsets[j], counts[j]));
                }
                back = out.copyBack();
            } else if (role == 1) {
                s.send(root, Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg());
            }
            return Collectives.finish(c, call, s.waitAll(), nb, new Object[] {sendbuf, recvbuf},
                    back);
        });
    }

    static Request scatter(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvcount, Datatype recvtype, int root, boolean nb)
            throws MPIException {
        String call = nb ? "MPI_Iscatter" : "MPI_Scatter";
        int role = role(c, call, root);
        if (role == 0) {
            Collectives.checkCount(c, call, sendcount, sendtype);
        } else if (role == 1) {
            Collectives.checkCount(c, call, recvcount, recvtype);
        }
        return Collectives.build(remote(c), s -> {
            Runnable back = null;
            if (role == 0) {
                MemorySegment all = Collectives.send(c, call, s, sendbuf,
                        sendcount * c.remote.length, sendtype).seg();
                long block = sendtype.bytes(sendcount);
                for (int j = 0; j < c.remote.length; j++) {
                    s.send(j, all.asSlice(j * block, block));
                }
            } else if (role == 1) {
                Collectives.Buf in = Collectives.recvWritten(c, call, s, recvbuf, recvcount,
                        recvtype);
                s.recv(root, in.seg());
                back = in.copyBack();
            }
            return Collectives.finish(c, call, s.waitAll(), nb, new Object[] {sendbuf, recvbuf},
                    back);
        });
    }

    static Request scatterv(Comm c, Object sendbuf, int[] sendcount, int[] displs,
                            Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype,
                            int root, boolean nb) throws MPIException {
        String call = nb ? "MPI_Iscatterv" : "MPI_Scatterv";
        int role = role(c, call, root);
        int q = c.remote.length;
        if (role == 0) {
            Collectives.checkCount(c, call, 0, sendtype);
            Collectives.checkArray(c, call, sendcount, q, "sendcount");
            Collectives.checkArray(c, call, displs, q, "displs");
        } else if (role == 1) {
            Collectives.checkCount(c, call, recvcount, recvtype);
        }
        return Collectives.build(remote(c), s -> {
            Runnable back = null;
            if (role == 0) {
                long[] counts = Collectives.bytes(sendcount, q, sendtype.byteSize);
                long[] offsets = Collectives.bytes(displs, q, sendtype.byteSize);
                // only the blocks sent are packed
                MemorySegment all = Collectives.sendBlocks(c, call, s, sendbuf,
                        Collectives.span(sendcount, displs, q), sendtype, counts, offsets, -1)
                        .seg();
                for (int j = 0; j < q; j++) {
                    s.send(j, all.asSlice(offsets[j], counts[j]));
                }
            } else if (role == 1) {
                Collectives.Buf in = Collectives.recvWritten(c, call, s, recvbuf, recvcount,
                        recvtype);
                s.recv(root, in.seg());
                back = in.copyBack();
            }
            return Collectives.finish(c, call, s.waitAll(), nb, new Object[] {sendbuf, recvbuf},
                    back);
        });
    }

    /** The root receives the reduction of the remote group's data (reduced to its leader first). */
    static Request reduce(Comm c, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                          int root, boolean nb) throws MPIException {
        String call = nb ? "MPI_Ireduce" : "MPI_Reduce";
        int role = role(c, call, root);
        Collectives.checkCount(c, call, count, type);
        Collectives.checkOp(c, call, op, type);
        if (role == 1 && sendbuf == null) {
            throw c.raise(call, ErrorClass.ERR_ARG, "in-place reduce is not defined on an "
                    + "inter-communicator");
        }
        return Collectives.build(remote(c), s -> {
            Runnable back = null;
            if (role == 0) {
                Collectives.Buf out = Collectives.recvWritten(c, call, s, recvbuf, count, type);
                s.recv(0, out.seg()).waitAll();
                back = out.copyBack();
            } else if (role == 1) {
                MemorySegment in = Collectives.send(c, call, s, sendbuf, count, type).seg();
                MemorySegment mine = s.temp(in.byteSize());
                CollGroup local = Collectives.localGroup(c);
                Reduction.reduce(s.using(local), in, mine, count, Collectives.reducer(op, type), 0);
                if (c.rank == 0) {
                    s.using(Collectives.remoteGroup(c)).send(root, mine).waitAll();
                }
            }
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf}, back);
        });
    }

    /** Every rank receives each remote rank's block at displs[j]; linear. */
    static Request allGatherv(Comm c, Object sendbuf, int sendcount, Datatype sendtype,
                              Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype,
                              boolean nb) throws MPIException {
        String call = nb ? "MPI_Iallgatherv" : "MPI_Allgatherv";
        int q = c.remote.length;
        if (sendbuf == null) {
            throw c.raise(call, ErrorClass.ERR_ARG, "in-place allgatherv is not defined on an "
                    + "inter-communicator");
        }
        Collectives.checkCount(c, call, sendcount, sendtype);
        Collectives.checkCount(c, call, 0, recvtype);
        Collectives.checkArray(c, call, recvcount, q, "recvcount");
        Collectives.checkArray(c, call, displs, q, "displs");
        long[] counts = Collectives.bytes(recvcount, q, recvtype.byteSize);
        long[] offsets = Collectives.bytes(displs, q, recvtype.byteSize);
        return Collectives.build(remote(c), s -> {
            MemorySegment send = Collectives.send(c, call, s, sendbuf, sendcount, sendtype).seg();
            // only the blocks are written: the gaps between them are not unpacked
            Collectives.Buf out = Collectives.recvBlocks(c, call, s, recvbuf,
                    Collectives.span(recvcount, displs, q), recvtype, counts, offsets, -1);
            for (int j = 0; j < q; j++) {
                s.recv(j, out.seg().asSlice(offsets[j], counts[j]));
            }
            for (int j = 0; j < q; j++) {
                s.send(j, send);
            }
            return Collectives.finish(c, call, s.waitAll(), nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }

    /** Alltoallv/w across the groups (counts and displacements in bytes); linear. */
    static Request allToAllBytes(Comm c, String call, Schedule s, MemorySegment send, long[] sc,
                                 long[] sd, MemorySegment recv, long[] rc, long[] rd, boolean nb,
                                 Object keep, Runnable copyBack) throws MPIException {
        int q = c.remote.length;
        for (int j = 0; j < q; j++) {
            s.recv(j, recv.asSlice(rd[j], rc[j]));
        }
        for (int j = 0; j < q; j++) {
            s.send(j, send.asSlice(sd[j], sc[j]));
        }
        return Collectives.finish(c, call, s.waitAll(), nb, keep, copyBack);
    }

    /**
     * Reduce-scatter across the groups: group A's vectors (as long as the sum of group B's
     * counts) are reduced and scattered over B by B's counts, and the other way round. The
     * leaders first swap their groups' counts.
     */
    static Request reduceScatter(Comm c, Object sendbuf, Object recvbuf, int[] recvcounts,
                                 Datatype type, Op op, boolean nb, String call)
            throws MPIException {
        int p = c.world.length;
        Collectives.checkArray(c, call, recvcounts, p, "recvcounts");
        if (sendbuf == null) {
            throw c.raise(call, ErrorClass.ERR_ARG, "in-place reduce-scatter is not defined on "
                    + "an inter-communicator");
        }
        // the remote group's counts: leaders swap them, then share them locally
        int[] theirCounts = new int[c.remote.length];
        MemorySegment mineSeg = MemorySegment.ofArray(recvcounts.clone());
        MemorySegment theirSeg = MemorySegment.ofArray(theirCounts);
        Schedule counts = remote(c);
        if (c.rank == 0) {
            counts.send(0, mineSeg.asSlice(0, 4L * p)).recv(0, theirSeg).waitAll();
        }
        org.verbatim.runtime.coll.Broadcast.build(counts.using(Collectives.localGroup(c)),
                theirSeg, 0);
        try {
            counts.run();
        } catch (MpiError e) {
            throw c.raise(call, e);
        }
        int total = 0;
        for (int n : theirCounts) {
            total += n;
        }
        int theirTotal = total;
        int mineTotal = 0;
        for (int i = 0; i < p; i++) {
            mineTotal += recvcounts[i];
        }
        long[] byteCounts = Collectives.bytes(recvcounts, p, type.byteSize);
        long[] offsets = new long[p];
        for (int i = 1; i < p; i++) {
            offsets[i] = offsets[i - 1] + byteCounts[i - 1];
        }
        CollGroup local = Collectives.localGroup(c);
        long incomingBytes = type.bytes(mineTotal);
        return Collectives.build(new Schedule(local, c.nextCollectiveTag()), s -> {
            MemorySegment in = Collectives.send(c, call, s, sendbuf, theirTotal, type).seg();
            Collectives.Buf out = Collectives.recvWritten(c, call, s, recvbuf,
                    recvcounts[c.rank], type);
            MemorySegment reduced = c.rank == 0 ? s.temp(in.byteSize()) : null;
            MemorySegment incoming = c.rank == 0 ? s.temp(incomingBytes) : null;
            Reduction.reduce(s, in, reduced, theirTotal, Collectives.reducer(op, type), 0);
            if (c.rank == 0) {
                s.using(Collectives.remoteGroup(c)).send(0, reduced).recv(0, incoming).waitAll();
            }
            Gathering.scatterv(s.using(local), incoming, byteCounts, offsets, out.seg(), 0);
            return Collectives.finish(c, call, s, nb, new Object[] {sendbuf, recvbuf},
                    out.copyBack());
        });
    }
}
