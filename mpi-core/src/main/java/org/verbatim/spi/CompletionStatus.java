package org.verbatim.spi;

/**
 * Status of a completed operation, delivered with {@link CompletionHandler#onComplete(long, int)}
 * (after verbs' {@code ibv_wc_status} and UCX's {@code ucs_status_t}). An error completion
 * reaches the operation that caused it; it ends the job only when the peer itself is gone, which
 * the transport reports separately through {@link CompletionHandler#onPeerFailure}.
 */
public final class CompletionStatus {
    /** Done: data placed (write), fetched (read), result in place (atomic), or placed (flush). */
    public static final int OK = 0;
    /** The target refused the access: unknown key, range outside the registration, or access
     *  rights missing (verbs {@code IBV_WC_REM_ACCESS_ERR}). */
    public static final int REMOTE_ACCESS_ERROR = 1;
    /** The local side of the operation was invalid (unregistered or too small local memory). */
    public static final int LOCAL_ERROR = 2;
    /** The operation was cancelled because its endpoint is closing or in error (verbs
     *  {@code IBV_WC_WR_FLUSH_ERR}). */
    public static final int CANCELLED = 3;
    /** The target could not carry the operation out (verbs {@code IBV_WC_REM_OP_ERR},
     *  a misaligned atomic). */
    public static final int REMOTE_OPERATION_ERROR = 4;
    /** The peer is gone; the job ends with {@link CompletionHandler#onPeerFailure} as well. */
    public static final int PEER_GONE = 5;

    private CompletionStatus() {
    }

    /** The status in words, for error messages. */
    public static String describe(int status) {
        return switch (status) {
            case OK -> "ok";
            case REMOTE_ACCESS_ERROR -> "remote access error";
            case LOCAL_ERROR -> "local error";
            case CANCELLED -> "cancelled";
            case REMOTE_OPERATION_ERROR -> "remote operation error";
            case PEER_GONE -> "peer gone";
            default -> "status " + status;
        };
    }
}
