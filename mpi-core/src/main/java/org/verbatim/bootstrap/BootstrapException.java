package org.verbatim.bootstrap;

/** The bootstrap could not reach or talk to the process manager, or the process manager refused. */
public final class BootstrapException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BootstrapException(String message) {
        super(message);
    }

    public BootstrapException(String message, Throwable cause) {
        super(message, cause);
    }
}
