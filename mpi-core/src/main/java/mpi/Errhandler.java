package mpi;

/**
 * An error handler: {@link MPI#ERRORS_ARE_FATAL} (the default on COMM_WORLD: the rank prints
 * rank, call and reason, and the whole job ends), {@link MPI#ERRORS_ABORT} (the same), or
 * {@link MPI#ERRORS_RETURN} (the error reaches the caller as an {@link MPIException}).
 */
public final class Errhandler {
    final boolean fatal;
    private final String name;

    Errhandler(boolean fatal, String name) {
        this.fatal = fatal;
        this.name = name;
    }

    /** The handler's name. */
    @Override
    public String toString() {
        return name;
    }
}
