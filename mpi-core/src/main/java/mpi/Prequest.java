package mpi;

import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.RequestState;

/** A persistent request (MPI_Send_init and friends): started many times, waited each time. */
public final class Prequest extends Request {
    /** Starts one instance of the persistent operation. */
    interface Starter {
        RequestState start() throws MPIException;
    }

    private final Starter starter;

    Prequest(Starter starter, Comm comm, String call) {
        super(null, comm, call, false);
        this.starter = starter;
    }

    @Override
    boolean persistent() {
        return true;
    }

    /** MPI_Start. */
    public void start() throws MPIException {
        MPI.check();
        if (isNull()) {
            throw MPIException.of(ErrorClass.ERR_REQUEST, "MPI_Start: the request has been freed");
        }
        if (impl != null) { // started and not yet completed by a wait or test
            throw comm.raise("MPI_Start", new org.verbatim.runtime.base.MpiError(ErrorClass.ERR_REQUEST,
                    "the persistent request is still active"));
        }
        impl = starter.start();
    }

    /** MPI_Startall. */
    public static void startAll(Prequest[] requests) throws MPIException {
        for (Prequest p : requests) {
            p.start();
        }
    }
}
