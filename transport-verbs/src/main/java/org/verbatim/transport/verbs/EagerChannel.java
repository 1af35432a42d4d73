package org.verbatim.transport.verbs;

import java.util.Locale;

/**
 * The eager designs of the memory-scalability paper, chosen at run time with
 * {@code verbatim.ib.eager-channel}.
 */
public enum EagerChannel {
    /** One shared receive queue for all peers, refilled on its low-watermark event. */
    SRQ(true, false),
    /**
     * Per-connection receive buffers with credits, no fast path: a sender never sends more than
     * the receiver has posted for it. The one design safe on iWARP, which has no receiver-not-ready
     * retry: a send that finds no posted receive ends the connection (a DDP TERMINATE).
     */
    SR(false, false),
    /** Adaptive RDMA fast path plus per-connection receive buffers with credits. */
    ARDMA_SR(false, true),
    /** Adaptive RDMA fast path plus the shared receive queue. */
    ARDMA_SRQ(true, true);

    private final boolean sharedReceiveQueue;
    private final boolean fastPath;

    EagerChannel(boolean sharedReceiveQueue, boolean fastPath) {
        this.sharedReceiveQueue = sharedReceiveQueue;
        this.fastPath = fastPath;
    }

    /** Whether send/receive messages land in the shared receive queue (else per connection). */
    public boolean sharedReceiveQueue() {
        return sharedReceiveQueue;
    }

    /** Whether busy peers get dedicated RDMA eager buffers. */
    public boolean fastPath() {
        return fastPath;
    }

    /** The configuration spelling: srq, sr, ardma-sr, ardma-srq. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses the configuration spelling. */
    public static EagerChannel parse(String value) {
        for (EagerChannel c : values()) {
            if (c.configName().equals(value.trim().toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        throw new IllegalArgumentException("not an eager channel: " + value + " (srq, sr, ardma-sr, ardma-srq)");
    }
}
