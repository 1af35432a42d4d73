package org.verbatim.runtime.io;

/** Which offset a read or write starts at (MPI-3.1 13.4.1, "data access routines"). */
public enum Access {
    /** The offset given with the call ({@code readAt}, {@code writeAtAll}, ...). */
    EXPLICIT,
    /** This process's own file pointer ({@code read}, {@code writeAll}, ...). */
    INDIVIDUAL,
    /** The pointer all members share, in whatever order they come ({@code readShared}). */
    SHARED,
    /** The shared pointer, collectively, in rank order ({@code readOrdered}). */
    ORDERED
}
