package mpi;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.runtime.Agreement;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.coll.Allgather;
import org.verbatim.runtime.coll.Schedule;

/**
 * Making communicators: split, splitType, create, createGroup, inter-communicator create and
 * merge. Each new communicator gets a context id agreed by its members (the maximum of their
 * next free ids), so its traffic never matches any other communicator's.
 */
final class CommCreation {
    /** Tags on the parent's collective context for create_group (above collective sequence tags). */
    private static final int CREATE_GROUP_TAG = 0x4000_0000;

    private CommCreation() {
    }

    /** Allgather of one int pair per rank over {@code c} (its collective context). */
    static int[] allgatherPairs(Comm c, String call, int a, int b) throws MPIException {
        int p = c.world.length;
        int[] all = new int[2 * p];
        MemorySegment mine = MemorySegment.ofArray(new int[] {a, b});
        Schedule s = Allgather.build(Collectives.schedule(c), mine, MemorySegment.ofArray(all), 8);
        try {
            s.run();
        } catch (MpiError e) {
            throw c.raise(call, e);
        }
        return all;
    }

    static Intracomm split(Intracomm c, int colour, int key, String call) throws MPIException {
        MPI.check();
        c.checkUsable(call);
        if (colour < 0 && colour != MPI.UNDEFINED) {
            throw c.raise(call, ErrorClass.ERR_ARG, "invalid colour " + colour
                    + " (must be >= 0 or MPI.UNDEFINED)");
        }
        int[] all = allgatherPairs(c, call, colour, key);
        int ctx = c.agreeContext(call);
        Intracomm out = new Intracomm();
        if (colour == MPI.UNDEFINED) {
            return out;
        }
        List<int[]> members = new ArrayList<>();
        for (int r = 0; r < c.world.length; r++) {
            if (all[2 * r] == colour) {
                members.add(new int[] {all[2 * r + 1], r});
            }
        }
        members.sort((x, y) -> x[0] != y[0] ? Integer.compare(x[0], y[0]) : Integer.compare(x[1], y[1]));
        int[] world = new int[members.size()];
        int me = -1;
        for (int i = 0; i < world.length; i++) {
            int old = members.get(i)[1];
            world[i] = c.world[old];
            if (old == c.rank) {
                me = i;
            }
        }
        out.bind(c.process, ctx, world, me, "");
        out.errhandler = c.errhandler;
        return out;
    }

    /** Comm.TYPE_SHARED: the ranks on this host (a colour per host name). */
    static Intracomm splitType(Intracomm c, int splitType, int key) throws MPIException {
        String call = "MPI_Comm_split_type";
        MPI.check();
        c.checkUsable(call);
        if (splitType == MPI.UNDEFINED) {
            return split(c, MPI.UNDEFINED, key, call);
        }
        if (splitType != Comm.TYPE_SHARED) {
            throw c.raise(call, ErrorClass.ERR_ARG, "unknown split type " + splitType
                    + " (only Comm.TYPE_SHARED)");
        }
        String host = c.process.host(c.process.rank());
        int colour = 0;
        for (int r = 0; r < c.world.length; r++) {
            if (c.process.host(c.world[r]).equals(host)) {
                colour = r; // the lowest communicator rank on this host names the host
                break;
            }
        }
        return split(c, colour, key, call);
    }

    /** The communicator ranks of {@code g}'s members, in group order; ERR_GROUP if not a subset. */
    static int[] ranksOf(Comm c, String call, Group g) throws MPIException {
        if (g == null || g.isNull()) {
            throw c.raise(call, ErrorClass.ERR_GROUP, "invalid group");
        }
        int[] gw = g.worldRanks();
        int[] out = new int[gw.length];
        for (int i = 0; i < gw.length; i++) {
            out[i] = -1;
            for (int r = 0; r < c.world.length; r++) {
                if (c.world[r] == gw[i]) {
                    out[i] = r;
                }
            }
            if (out[i] < 0) {
                throw c.raise(call, ErrorClass.ERR_GROUP, "the group holds world rank " + gw[i]
                        + ", which is not in the communicator");
            }
        }
        return out;
    }

    static Intracomm create(Intracomm c, Group g) throws MPIException {
        String call = "MPI_Comm_create";
        MPI.check();
        c.checkUsable(call);
        ranksOf(c, call, g);
        int ctx = c.agreeContext(call);
        return bindMember(c, g, ctx);
    }

    private static Intracomm bindMember(Comm c, Group g, int ctx) {
        Intracomm out = new Intracomm();
        int[] world = g.worldRanks().clone();
        for (int i = 0; i < world.length; i++) {
            if (world[i] == c.world[c.rank]) {
                out.bind(c.process, ctx, world, i, "");
                out.errhandler = c.errhandler;
            }
        }
        return out;
    }

    /** Called only by the group's members; agreement runs among them on a tag of their own. */
    static Intracomm createGroup(Intracomm c, Group g, int tag) throws MPIException {
        String call = "MPI_Comm_create_group";
        MPI.check();
        c.checkUsable(call);
        CommArgs.checkSendTag(c, call, tag);
        int[] ranks = ranksOf(c, call, g);
        int me = g.getRank();
        if (me == MPI.UNDEFINED) {
            throw c.raise(call, ErrorClass.ERR_GROUP, "the calling rank is not in the group");
        }
        int[] targets = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            targets[i] = c.world[ranks[i]];
        }
        try {
            // among the members only: group indices address them (the tag keeps it apart)
            int agreed = (int) Agreement.allreduceMax(c.engine(), c.collectiveContext(),
                    CREATE_GROUP_TAG | (tag & 0x3fff_ffff), targets, me, c.process.proposeContext());
            c.process.contextTaken(agreed);
            return bindMember(c, g, agreed);
        } catch (MpiError e) {
            throw c.raise(call, e);
        }
    }

    // ------------------------------------------------------------------ inter-communicators

    private static final int INTER_TAG = 0x4800_0000;

    /**
     * MPI_Intercomm_create, called on the peer communicator. The leaders swap their groups and
     * proposed contexts through the peer communicator; each leader then shares the result with
     * its local group.
     */
    static Intercomm createIntercomm(Comm peer, Comm local, int localLeader, int remoteLeader,
                                     int tag) throws MPIException {
        String call = "MPI_Intercomm_create";
        MPI.check();
        local.checkUsable(call);
        if (localLeader < 0 || localLeader >= local.world.length) {
            throw local.raise(call, ErrorClass.ERR_RANK, "invalid local leader " + localLeader);
        }
        boolean leader = local.rank == localLeader;
        if (leader) {
            peer.checkUsable(call);
            CommArgs.checkDest(peer, call, remoteLeader);
            CommArgs.checkSendTag(peer, call, tag);
        }
        int proposal = (int) Agreement.allreduceMax(local.engine(), local.collectiveContext(),
                INTER_TAG, local.world, local.rank, local.process.proposeContext());
        int[] remoteWorld = null;
        int agreed = proposal;
        if (leader) {
            int[] mine = new int[local.world.length + 1];
            mine[0] = proposal;
            System.arraycopy(local.world, 0, mine, 1, local.world.length);
            int[] sizes = new int[1];
            peer.sendRecv(new int[] {mine.length}, 1, MPI.INT, remoteLeader, tag,
                    sizes, 1, MPI.INT, remoteLeader, tag);
            int[] theirs = new int[sizes[0]];
            peer.sendRecv(mine, mine.length, MPI.INT, remoteLeader, tag,
                    theirs, theirs.length, MPI.INT, remoteLeader, tag);
            agreed = Math.max(proposal, theirs[0]);
            remoteWorld = java.util.Arrays.copyOfRange(theirs, 1, theirs.length);
        }
        // share (agreed, remote group) from the leader with the local group
        int[] header = {agreed, remoteWorld == null ? 0 : remoteWorld.length};
        local.bcast(header, 2, MPI.INT, localLeader);
        if (!leader) {
            remoteWorld = new int[header[1]];
        }
        local.bcast(remoteWorld, remoteWorld.length, MPI.INT, localLeader);
        agreed = header[0];
        local.process.contextTaken(agreed + 2); // an inter-communicator uses four contexts
        Intercomm out = new Intercomm();
        out.bind(local.process, agreed, local.world.clone(), local.rank, "");
        out.remote = remoteWorld;
        out.errhandler = local.errhandler;
        return out;
    }

    /** MPI_Intercomm_merge: the group passing high=false first (ties: the lower world ranks). */
    /** A 64-bit hash of a job id (FNV-1a): the same in every process of every job. */
    private static long jobHash(String jobId) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < jobId.length(); i++) {
            h ^= jobId.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }

    static Intracomm merge(Intercomm c, boolean high) throws MPIException {
        String call = "MPI_Intercomm_merge";
        MPI.check();
        c.checkUsable(call);
        // flag, proposal, and the leader's job-wide identity (job hash, world rank): the tie-break
        // when both pass the same flag must agree on both sides, also across jobs, where the
        // peer numbers of world[] and remote[] are local to each process
        long job = jobHash(c.process.bootstrap().jobId());
        int[] mine = {high ? 1 : 0, c.process.proposeContext(), (int) (job >>> 32), (int) job,
                c.process.rank()};
        int[] theirs = new int[5];
        // local agreement on the proposed context, then the leaders swap flags and proposals
        int proposal = (int) Agreement.allreduceMax(c.engine(), c.context + 3, INTER_TAG,
                c.world, c.rank, mine[1]);
        mine[1] = proposal;
        int[] both = new int[10];
        if (c.rank == 0) {
            MemorySegment out = MemorySegment.ofArray(mine);
            MemorySegment in = MemorySegment.ofArray(theirs);
            try {
                var s = c.engine().p2p().send(c.collectiveContext(), 0, c.remote[0], INTER_TAG, out,
                        null, Mode.STANDARD);
                var r = c.engine().p2p().receive(c.collectiveContext(), 0, INTER_TAG, in, null, null);
                c.engine().await(s);
                c.engine().await(r);
            } catch (MpiError e) {
                throw c.raise(call, e);
            }
            System.arraycopy(mine, 0, both, 0, 5);
            System.arraycopy(theirs, 0, both, 5, 5);
        }
        MemorySegment b = MemorySegment.ofArray(both);
        Schedule s = org.verbatim.runtime.coll.Broadcast.build(
                new Schedule(Collectives.localGroup(c), c.nextCollectiveTag()), b, 0);
        try {
            s.run();
        } catch (MpiError e) {
            throw c.raise(call, e);
        }
        boolean myHigh = both[0] != 0;
        boolean theirHigh = both[5] != 0;
        int agreed = Math.max(both[1], both[6]);
        long myLeader = ((long) both[2] << 32) | (both[3] & 0xffff_ffffL);
        long theirLeader = ((long) both[7] << 32) | (both[8] & 0xffff_ffffL);
        boolean mineFirst = myHigh != theirHigh ? !myHigh
                : myLeader != theirLeader ? myLeader < theirLeader : both[4] < both[9];
        int[] first = mineFirst ? c.world : c.remote;
        int[] second = mineFirst ? c.remote : c.world;
        int[] world = new int[first.length + second.length];
        System.arraycopy(first, 0, world, 0, first.length);
        System.arraycopy(second, 0, world, first.length, second.length);
        c.process.contextTaken(agreed);
        Intracomm out = new Intracomm();
        out.bind(c.process, agreed, world, mineFirst ? c.rank : first.length + c.rank, "");
        out.errhandler = c.errhandler;
        return out;
    }
}
