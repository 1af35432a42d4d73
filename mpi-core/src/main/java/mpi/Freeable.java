package mpi;

/** An MPI object that owns resources and must be released with {@link #free()}. */
public interface Freeable {
    void free() throws MPIException;
}
