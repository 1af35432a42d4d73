package org.verbatim.transport.verbs;

import java.util.List;
import java.util.Map;
import org.verbatim.config.Setting;

/**
 * The data-path settings every verbs transport has ({@code verbatim.<area>.eager-channel},
 * {@code .eager-size}, the SRQ, per-connection and send buffers, inline, moderation, fast path,
 * registration cache, RDMA chunk), under the transport's own area ({@code ib}, {@code iwarp}),
 * and their validation into {@link VerbsOptions}. A transport's configuration class adds its
 * device and connection settings and lists these with them.
 */
public final class VerbsSettings {
    public final Setting eagerChannel;
    public final Setting eagerSize;
    public final Setting srqSize;
    public final Setting srqMax;
    public final Setting srqLowWatermark;
    public final Setting srBuffers;
    public final Setting sendBuffers;
    public final Setting sendQueueDepth;
    public final Setting maxInline;
    public final Setting signalInterval;
    public final Setting fastPathThreshold;
    public final Setting fastPathPeers;
    public final Setting fastPathSlots;
    public final Setting recvPollInterval;
    public final Setting regCacheSize;
    public final Setting rdmaChunk;

    /**
     * The settings of {@code area}.
     *
     * @param area                the transport's name, the middle of every property name
     * @param channelDescription  what {@code eager-channel} offers on this transport
     */
    public VerbsSettings(String area, String channelDescription) {
        this(area, "srq", channelDescription);
    }

    /**
     * The settings of {@code area} with {@code defaultChannel} as the eager design.
     *
     * @param area                the transport's name, the middle of every property name
     * @param defaultChannel      the default of {@code eager-channel}
     * @param channelDescription  what {@code eager-channel} offers on this transport
     */
    public VerbsSettings(String area, String defaultChannel, String channelDescription) {
        String p = "verbatim." + area + ".";
        eagerChannel = new Setting(p + "eager-channel", defaultChannel, channelDescription);
        eagerSize = new Setting(p + "eager-size", "8k",
                "Largest eager message, runtime header included (the transport's maxEager), 256 B to 64 KiB.");
        srqSize = new Setting(p + "srq-size", "32",
                "Receive buffers first posted to the shared receive queue, and the step it grows by "
                        + "(small on purpose: it grows on the limit event, only when none is free).");
        srqMax = new Setting(p + "srq-max", "4096",
                "Most receive buffers the shared receive queue may grow to (growth only when none is free).");
        srqLowWatermark = new Setting(p + "srq-low-watermark", "8",
                "Posted receives below which the adapter raises the SRQ limit event and the transport adds buffers.");
        srBuffers = new Setting(p + "sr-buffers", "32",
                "Per-connection receive buffers (sr, ardma-sr); the sender holds as many credits minus a control reserve.");
        sendBuffers = new Setting(p + "send-buffers", "64",
                "Registered send buffers per process for eager messages too large to send inline.");
        sendQueueDepth = new Setting(p + "send-queue", "128",
                "Send queue depth of each queue pair (work requests outstanding per peer).");
        maxInline = new Setting(p + "max-inline", "128",
                "Inline bytes requested per send work request (the device may grant more or refuse; then less).");
        signalInterval = new Setting(p + "signal-interval", "16",
                "One inline send in this many asks for a completion (moderation); buffered sends and RDMA always do.");
        fastPathThreshold = new Setting(p + "fastpath-threshold", "16",
                "Messages received from a peer before it is given RDMA fast-path buffers (ardma-*).");
        fastPathPeers = new Setting(p + "fastpath-peers", "16",
                "Most peers that get RDMA fast-path buffers from this process (ardma-*).");
        fastPathSlots = new Setting(p + "fastpath-slots", "32",
                "Eager buffers in one peer's RDMA fast-path ring (ardma-*).");
        recvPollInterval = new Setting(p + "recv-poll-interval", "8",
                "While fast-path rings are polled and the receive completion queue has been empty for 64 passes, "
                        + "it is polled once in this many progress passes (1: every pass); any receive restores every pass.");
        regCacheSize = new Setting(p + "reg-cache-size", "256m",
                "Bound on memory kept pinned by the registration cache once its users have closed their registrations.");
        rdmaChunk = new Setting(p + "rdma-chunk", "0",
                "Largest single RDMA write or read the rendezvous posts (larger messages go in chunks, "
                        + "verbatim.core.reads-in-flight at once); 0: no limit below 1 GiB.");
    }

    /** Every data-path setting, in documentation order. */
    public List<Setting> list() {
        return List.of(eagerChannel, eagerSize, srqSize, srqMax, srqLowWatermark, srBuffers, sendBuffers,
                sendQueueDepth, maxInline, signalInterval, fastPathThreshold, fastPathPeers, fastPathSlots,
                recvPollInterval, regCacheSize, rdmaChunk);
    }

    /** Reads and validates the data-path settings; IllegalArgumentException names the bad one. */
    public VerbsOptions options(Map<String, String> c) {
        EagerChannel channel = EagerChannel.parse(eagerChannel.get(c));
        int size = range(eagerSize, c, 256, 64 << 10);
        int srq = range(srqSize, c, 4, 1 << 16);
        int max = range(srqMax, c, srq, 1 << 20);
        int low = range(srqLowWatermark, c, 1, srq - 1);
        int sr = range(srBuffers, c, CreditAccount.CONTROL_RESERVE + 4, 1 << 14);
        int send = range(sendBuffers, c, 2, 1 << 16);
        int depth = Integer.highestOneBit(range(sendQueueDepth, c, 8, 1 << 14));
        int inline = range(maxInline, c, 0, 1 << 12);
        int signal = range(signalInterval, c, 1, depth / 2);
        return new VerbsOptions(channel, size, srq, max, low, sr, send, depth, inline, signal,
                range(fastPathThreshold, c, 0, Integer.MAX_VALUE), range(fastPathPeers, c, 0, 1 << 20),
                range(fastPathSlots, c, 4, 1 << 12), range(recvPollInterval, c, 1, 1 << 10),
                regCacheSize.getSize(c), range(rdmaChunk, c, 0, 1 << 30));
    }

    /** The value of {@code s} as an int in [min, max]; IllegalArgumentException names it otherwise. */
    public static int range(Setting s, Map<String, String> c, long min, long max) {
        long v = s.getSize(c);
        if (v < min || v > max) {
            throw new IllegalArgumentException(s.name() + " must be in [" + min + ", " + max + "]: " + v);
        }
        return (int) v;
    }
}
