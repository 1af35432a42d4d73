package org.verbatim.runtime.base;

/**
 * An MPI error raised inside the runtime, carrying its error class. The public API turns it into
 * an {@code mpi.MPIException} or, under ERRORS_ARE_FATAL, into the end of the job.
 */
public final class MpiError extends RuntimeException {
    private final int errorClass;

    public MpiError(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    public MpiError(int errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    public int errorClass() {
        return errorClass;
    }
}
