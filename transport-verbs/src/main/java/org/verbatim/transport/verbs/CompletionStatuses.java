package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.*;

import org.verbatim.spi.CompletionStatus;

/**
 * Verbs work-completion statuses ({@code enum ibv_wc_status}) in SPI terms
 * ({@link CompletionStatus}) and in words.
 */
public final class CompletionStatuses {
    private CompletionStatuses() {
    }

    /** The {@link CompletionStatus} of a work completion with {@code ibv_wc_status} {@code status}. */
    public static int of(int status) {
        return switch (status) {
            case IBV_WC_SUCCESS -> CompletionStatus.OK;
            case IBV_WC_REM_ACCESS_ERR -> CompletionStatus.REMOTE_ACCESS_ERROR;
            case IBV_WC_REM_OP_ERR, IBV_WC_REM_INV_REQ_ERR, IBV_WC_REM_INV_RD_REQ_ERR, IBV_WC_REM_ABORT_ERR ->
                    CompletionStatus.REMOTE_OPERATION_ERROR;
            case IBV_WC_WR_FLUSH_ERR -> CompletionStatus.CANCELLED;
            case IBV_WC_RETRY_EXC_ERR, IBV_WC_RNR_RETRY_EXC_ERR, IBV_WC_RESP_TIMEOUT_ERR -> CompletionStatus.PEER_GONE;
            default -> CompletionStatus.LOCAL_ERROR;
        };
    }

    /**
     * True when the status means the peer cannot be reached any more (transport or RNR retries
     * exhausted): the connection is gone, not just one operation.
     */
    public static boolean peerGone(int status) {
        return of(status) == CompletionStatus.PEER_GONE;
    }

    /** The status in words, for error messages. */
    public static String describe(int status) {
        return switch (status) {
            case IBV_WC_LOC_LEN_ERR -> "local length error";
            case IBV_WC_LOC_QP_OP_ERR -> "local queue pair operation error";
            case IBV_WC_LOC_PROT_ERR -> "local protection error";
            case IBV_WC_WR_FLUSH_ERR -> "flushed: queue pair in error";
            case IBV_WC_REM_INV_REQ_ERR -> "remote invalid request";
            case IBV_WC_REM_ACCESS_ERR -> "remote access error";
            case IBV_WC_REM_OP_ERR -> "remote operation error";
            case IBV_WC_RETRY_EXC_ERR -> "transport retry counter exceeded: peer unreachable or gone";
            case IBV_WC_RNR_RETRY_EXC_ERR -> "RNR retry counter exceeded";
            default -> "ibv_wc_status " + status;
        };
    }
}
