package org.verbatim.spi;

/** A transport could not be set up (not a data-path condition: those are status codes). */
public class TransportException extends Exception {
    public TransportException(String message) {
        super(message);
    }

    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
