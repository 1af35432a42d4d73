package org.verbatim.spi;

/**
 * Result codes of the non-blocking data-path calls. A full queue or missing credit is not an
 * error: the caller keeps the operation and retries after progress (Aeron's BACK_PRESSURED).
 */
public final class PostStatus {
    /** Posted (for sends: the data has been copied out of the caller's memory). */
    public static final int OK = 0;
    /** No send buffer, credit or queue slot now; retry after {@link Transport#progress}. */
    public static final int RETRY = 1;

    private PostStatus() {
    }
}
