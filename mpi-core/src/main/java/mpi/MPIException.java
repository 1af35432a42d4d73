package mpi;

/**
 * An MPI error: thrown when MPI is used before Init or after Finalize, and for errors that the
 * library reports under {@link MPI#ERRORS_RETURN}. Carries the MPI error class and code.
 */
public final class MPIException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int errorCode;
    private final int errorClass;

    /** An MPI error with its message. */
    public MPIException(Throwable cause) {
        super(cause);
        this.errorCode = 0;
        this.errorClass = 0;
    }

    /** An MPI error with its message. */
    public MPIException(String message) {
        super(message);
        this.errorCode = 0;
        this.errorClass = 0;
    }

    protected MPIException(int code, int clazz, String message) {
        super(message);
        this.errorCode = code;
        this.errorClass = clazz;
    }

    static MPIException of(int errorClass, String message) {
        return new MPIException(errorClass, errorClass, message);
    }

    /** The error code (equal to the class for the library's own errors); 0 for Java-side errors. */
    public int getErrorCode() {
        return errorCode;
    }

    /** The MPI.ERR_* class; 0 for Java-side errors. */
    public int getErrorClass() {
        return errorClass;
    }
}
