package org.verbatim.runtime;

/** Send modes of MPI point-to-point. */
public enum Mode {
    STANDARD, SYNCHRONOUS, READY, BUFFERED
}
