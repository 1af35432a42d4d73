package mpi;

/**
 * An inter-communicator: point-to-point calls address the remote group; collectives deliver to
 * each group what the other group contributed. It uses four context ids: point-to-point, the
 * cross-group collective context (+1), and the local group's collective context (+3).
 */
public final class Intercomm extends Comm {
    Intercomm() {
    }

    /** A duplicate of this inter-communicator ({@link #dup}). */
    @Override
    public Intercomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** Duplicates this inter-communicator (MPI_Comm_dup). */
    @Override
    public Intercomm dup() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_dup");
        Intracomm merged = CommCreation.merge(this, false);
        Intercomm c = new Intercomm();
        // a fresh block of four contexts agreed over both groups (through the merged comm)
        int agreed = merged.agreeContext("MPI_Comm_dup");
        process.contextTaken(agreed + 2);
        c.bind(process, agreed, world, rank, "");
        c.remote = remote;
        c.errhandler = errhandler;
        return c;
    }

    /**
     * Nonblocking {@link #dup} (MPI_Comm_idup); the new communicator is usable once {@link
     * #getRequest} completes.
     */
    @Override
    public Intercomm iDup() throws MPIException {
        Intercomm c = dup();
        c.request = Request.completed(this, "MPI_Comm_idup");
        return c;
    }

    /** As {@link #dup}, with {@code info} attached (MPI_Comm_dup_with_info). */
    @Override
    public Intercomm dupWithInfo(Info info) throws MPIException {
        return dup();
    }

    /** The number of processes on the other side (MPI_Comm_remote_size). */
    public int getRemoteSize() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_remote_size");
        return remote.length;
    }

    /** The group of the other side (MPI_Comm_remote_group). */
    public Group getRemoteGroup() throws MPIException {
        return remoteGroup("MPI_Comm_remote_group");
    }

    /**
     * An intra-communicator of both groups, the side that passes {@code high = false} first
     * (MPI_Intercomm_merge).
     */
    public Intracomm merge(boolean high) throws MPIException {
        return CommCreation.merge(this, high);
    }

    /**
     * The inter-communicator to the parents of a world started by MPI_Comm_spawn; one whose
     * isNull() is true when this world was not spawned (or it was disconnected) (MPI_Comm_get_parent).
     */
    public static Intercomm getParent() throws MPIException {
        MPI.check();
        Intercomm p = MPI.parent;
        return p == null || p.freed ? new Intercomm() : p;
    }
}
