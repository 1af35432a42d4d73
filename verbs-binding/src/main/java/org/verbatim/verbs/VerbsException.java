package org.verbatim.verbs;

/** A verbs or RDMA CM call failed during set-up or tear-down; carries the errno it reported. */
public final class VerbsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int errno;

    /** Creates the exception for {@code call} failing with {@code errno}. */
    public VerbsException(String call, int errno) {
        super(call + " failed: errno " + errno);
        this.errno = errno;
    }

    /** The errno value (0 if the call failed without setting one). */
    public int errno() {
        return errno;
    }
}
