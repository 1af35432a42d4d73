package org.verbatim.runtime.base;

/** Send modes of MPI point-to-point. */
public enum Mode {
    STANDARD, SYNCHRONOUS, READY, BUFFERED
}
