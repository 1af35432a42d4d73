package org.verbatim.verbs;

/**
 * How to create a queue pair.
 *
 * @param type RC or UD
 * @param sendCq CQ for send completions
 * @param recvCq CQ for receive completions
 * @param srq the shared receive queue, or null for a private receive queue
 * @param maxSendWr send queue depth
 * @param maxRecvWr receive queue depth (ignored with an SRQ)
 * @param maxSge scatter/gather entries per request
 * @param maxInline bytes that may be sent inline
 */
public record QueuePairConfig(QueuePairType type, CompletionQueue sendCq, CompletionQueue recvCq, SharedReceiveQueue srq,
                              int maxSendWr, int maxRecvWr, int maxSge, int maxInline) {

    /** Validates the sizes once. */
    public QueuePairConfig {
        if (type == null || sendCq == null || recvCq == null) {
            throw new IllegalArgumentException("type and both CQs are required");
        }
        if (maxSendWr <= 0 || maxSge <= 0 || maxInline < 0 || (srq == null && maxRecvWr <= 0)) {
            throw new IllegalArgumentException("queue sizes must be positive");
        }
    }
}
