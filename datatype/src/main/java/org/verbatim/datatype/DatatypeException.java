package org.verbatim.datatype;

/**
 * Bad input to the datatype engine: a negative count, an inconsistent constructor argument, a
 * layout that overruns its buffer. Thrown before anything is written. The {@link Reason} maps
 * onto an MPI error class in the layer above (mpi-core), which this module does not know.
 */
public final class DatatypeException extends IllegalArgumentException {
    /** What was wrong, in MPI's terms. */
    public enum Reason {
        /** A negative or too large count (MPI_ERR_COUNT). */
        COUNT,
        /** An argument that is inconsistent or out of range (MPI_ERR_ARG). */
        ARGUMENT,
        /** A type that cannot be used this way (MPI_ERR_TYPE). */
        TYPE,
        /** A buffer that the layout overruns (MPI_ERR_BUFFER). */
        BUFFER,
        /** More data than the receive layout holds (MPI_ERR_TRUNCATE). */
        TRUNCATE
    }

    private final Reason reason;

    public DatatypeException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    static DatatypeException count(String message) {
        return new DatatypeException(Reason.COUNT, message);
    }

    static DatatypeException argument(String message) {
        return new DatatypeException(Reason.ARGUMENT, message);
    }
}
