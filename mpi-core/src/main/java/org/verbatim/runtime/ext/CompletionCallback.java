package org.verbatim.runtime.ext;

/**
 * Told when a one-sided operation posted with a tracked work-request id completes
 * ({@link Dispatch#track}), with its {@link org.verbatim.spi.CompletionStatus}.
 */
@FunctionalInterface
public interface CompletionCallback {
    void onComplete(long wrId, int status);
}
