package org.verbatim.runtime.ext;

/** Handles the write-with-immediate values of one registered range (see {@link Dispatch}). */
@FunctionalInterface
public interface ImmediateHandler {
    /** A write-with-immediate from {@code sourceWorld} has landed in this process's memory. */
    void onImmediate(int sourceWorld, int immediate);
}
