package mpi;

/** An intra-communicator: COMM_WORLD, COMM_SELF, and those made from them. */
public class Intracomm extends Comm {
    Intracomm() {
    }

    @Override
    public Intracomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    @Override
    public Intracomm dup() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_dup");
        Intracomm c = new Intracomm();
        initDup(c, "MPI_Comm_dup");
        return c;
    }
}
