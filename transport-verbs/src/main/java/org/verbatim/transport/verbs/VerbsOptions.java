package org.verbatim.transport.verbs;

/**
 * The validated settings the shared verbs layer runs with. Each verbs transport reads its own
 * properties ({@code verbatim.ib.*}, later {@code verbatim.iwarp.*}) in its configuration class
 * and hands the values here; this record names them once and checks their relations.
 *
 * @param channel           eager design (SRQ, per-connection buffers, RDMA fast path)
 * @param eagerSize         largest eager message, runtime header included (bytes)
 * @param srqSize           receive buffers first posted to the SRQ, and its growth step
 * @param srqMax            most buffers the SRQ grows to
 * @param srqLowWatermark   posted receives below which the SRQ limit event fires
 * @param srBuffers         per-connection receive buffers (ardma-sr)
 * @param sendBuffers       registered send buffers per process
 * @param sendQueueDepth    send queue depth per queue pair (a power of two)
 * @param maxInline         inline bytes asked for per send work request
 * @param signalInterval    one inline send in this many is signalled
 * @param fastPathThreshold messages from a peer before it gets a fast-path ring
 * @param fastPathPeers     most peers given a fast-path ring
 * @param fastPathSlots     slots in one fast-path ring
 * @param recvPollInterval  receive-CQ poll interval while rings are polled and the CQ is quiet
 * @param regCacheSize      bytes the registration cache may keep pinned for closed registrations
 * @param rdmaChunk         largest single RDMA operation advertised (maxRdma); 0: no limit of its own
 */
public record VerbsOptions(EagerChannel channel, int eagerSize, int srqSize, int srqMax, int srqLowWatermark,
                           int srBuffers, int sendBuffers, int sendQueueDepth, int maxInline, int signalInterval,
                           int fastPathThreshold, int fastPathPeers, int fastPathSlots, int recvPollInterval,
                           long regCacheSize, int rdmaChunk) {

    /** Checks what the values must satisfy together. */
    public VerbsOptions {
        if (channel == null) {
            throw new IllegalArgumentException("no eager channel");
        }
        if (Integer.bitCount(sendQueueDepth) != 1) {
            throw new IllegalArgumentException("send queue depth must be a power of two: " + sendQueueDepth);
        }
        if (srqMax < srqSize || srqLowWatermark >= srqSize) {
            throw new IllegalArgumentException("SRQ sizes out of order: size " + srqSize + ", max " + srqMax
                    + ", low watermark " + srqLowWatermark);
        }
        if (rdmaChunk < 0) {
            throw new IllegalArgumentException("negative RDMA chunk: " + rdmaChunk);
        }
        if (srBuffers < CreditAccount.CONTROL_RESERVE + 1) {
            throw new IllegalArgumentException("per-connection buffers must exceed the control reserve of "
                    + CreditAccount.CONTROL_RESERVE + ": " + srBuffers);
        }
    }

    /** The values in one line, for logs: {@code channel=srq, eager=8192, ...}. */
    public String describe() {
        return "channel=" + channel.configName() + ", eager=" + eagerSize + ", srq=" + srqSize + ".." + srqMax
                + " (low " + srqLowWatermark + "), sr-buffers=" + srBuffers + ", send-buffers=" + sendBuffers
                + ", sq=" + sendQueueDepth + ", inline=" + maxInline + ", signal=1/" + signalInterval
                + ", fastpath=" + fastPathThreshold + " msgs, " + fastPathPeers + " peers x " + fastPathSlots
                + " slots, reg-cache=" + regCacheSize + ", rdma-chunk=" + rdmaChunk;
    }
}
