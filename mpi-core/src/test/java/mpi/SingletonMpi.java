package mpi;

/**
 * MPI started once per test JVM as a singleton (rank 0 of 1, no process manager) and never
 * finalised, since MPI cannot start again in a process. COMM_WORLD returns errors so that tests
 * can assert on them instead of ending the JVM.
 */
final class SingletonMpi {
    private SingletonMpi() {
    }

    static synchronized void init() throws MPIException {
        if (!MPI.isInitialized()) {
            MPI.Init(new String[0]);
        }
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
    }
}
