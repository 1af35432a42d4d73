package org.verbatim.transport.ib;

import java.util.List;
import java.util.Map;
import org.verbatim.config.Setting;
import org.verbatim.transport.verbs.CreditAccount;
import org.verbatim.transport.verbs.EagerChannel;
import org.verbatim.transport.verbs.VerbsOptions;

/**
 * The settings of the InfiniBand / RoCE transport ({@code verbatim.ib.*}, also readable as
 * {@code VERBATIM_IB_*}) and their validated values for one job.
 */
public final class IbConfiguration {
    public static final Setting DEVICE = new Setting("verbatim.ib.device", "",
            "Verbs device to use (for example rxe0); empty picks the first InfiniBand/RoCE device with an active port.");
    public static final Setting PORT = new Setting("verbatim.ib.port", "0",
            "Port number on the device (from 1); 0 picks the first active port.");
    public static final Setting GID_INDEX = new Setting("verbatim.ib.gid-index", "-1",
            "GID table index for RoCE; -1 picks the RoCE v2 IPv4 GID (else index 0). Ignored on InfiniBand (LID).");
    public static final Setting EAGER_CHANNEL = new Setting("verbatim.ib.eager-channel", "srq",
            "Eager design: srq (shared receive queue), ardma-sr (RDMA fast path + per-connection buffers), ardma-srq.");
    public static final Setting EAGER_SIZE = new Setting("verbatim.ib.eager-size", "8k",
            "Largest eager message, runtime header included (the transport's maxEager), 256 B to 64 KiB.");
    public static final Setting SRQ_SIZE = new Setting("verbatim.ib.srq-size", "32",
            "Receive buffers first posted to the shared receive queue, and the step it grows by "
                    + "(small on purpose: it grows on the limit event, only when none is free).");
    public static final Setting SRQ_MAX = new Setting("verbatim.ib.srq-max", "4096",
            "Most receive buffers the shared receive queue may grow to (growth only when none is free).");
    public static final Setting SRQ_LOW_WATERMARK = new Setting("verbatim.ib.srq-low-watermark", "8",
            "Posted receives below which the adapter raises the SRQ limit event and the transport adds buffers.");
    public static final Setting SR_BUFFERS = new Setting("verbatim.ib.sr-buffers", "32",
            "Per-connection receive buffers (ardma-sr); the sender holds as many credits minus a control reserve.");
    public static final Setting SEND_BUFFERS = new Setting("verbatim.ib.send-buffers", "64",
            "Registered send buffers per process for eager messages too large to send inline.");
    public static final Setting SEND_QUEUE_DEPTH = new Setting("verbatim.ib.send-queue", "128",
            "Send queue depth of each queue pair (work requests outstanding per peer).");
    public static final Setting MAX_INLINE = new Setting("verbatim.ib.max-inline", "128",
            "Inline bytes requested per send work request (the device may grant more or refuse; then less).");
    public static final Setting SIGNAL_INTERVAL = new Setting("verbatim.ib.signal-interval", "16",
            "One inline send in this many asks for a completion (moderation); buffered sends and RDMA always do.");
    public static final Setting FASTPATH_THRESHOLD = new Setting("verbatim.ib.fastpath-threshold", "16",
            "Messages received from a peer before it is given RDMA fast-path buffers (ardma-*).");
    public static final Setting FASTPATH_PEERS = new Setting("verbatim.ib.fastpath-peers", "16",
            "Most peers that get RDMA fast-path buffers from this process (ardma-*).");
    public static final Setting FASTPATH_SLOTS = new Setting("verbatim.ib.fastpath-slots", "32",
            "Eager buffers in one peer's RDMA fast-path ring (ardma-*).");
    public static final Setting RECV_POLL_INTERVAL = new Setting("verbatim.ib.recv-poll-interval", "8",
            "While fast-path rings are polled and the receive completion queue has been empty for 64 passes, "
                    + "it is polled once in this many progress passes (1: every pass); any receive restores every pass.");
    public static final Setting REG_CACHE_SIZE = new Setting("verbatim.ib.reg-cache-size", "256m",
            "Bound on memory kept pinned by the registration cache once its users have closed their registrations.");
    public static final Setting RDMA_CHUNK = new Setting("verbatim.ib.rdma-chunk", "0",
            "Largest single RDMA write or read the rendezvous posts (larger messages go in chunks, "
                    + "verbatim.core.reads-in-flight at once); 0: no limit below 1 GiB.");

    public static final Setting CONNECT_RESEND = new Setting("verbatim.ib.connect-resend", "250",
            "Milliseconds after which an unanswered connection request or reply is sent again over UD.");
    public static final Setting CONNECT_TIMEOUT = new Setting("verbatim.ib.connect-timeout", "60",
            "Seconds a connection may take to set up (UD request, reply, ready) before the peer is reported failed.");

    /** Every setting of this module, in documentation order. */
    public static final List<Setting> SETTINGS = List.of(DEVICE, PORT, GID_INDEX, EAGER_CHANNEL, EAGER_SIZE,
            SRQ_SIZE, SRQ_MAX, SRQ_LOW_WATERMARK, SR_BUFFERS, SEND_BUFFERS, SEND_QUEUE_DEPTH, MAX_INLINE,
            SIGNAL_INTERVAL, FASTPATH_THRESHOLD, FASTPATH_PEERS, FASTPATH_SLOTS, RECV_POLL_INTERVAL, REG_CACHE_SIZE,
            RDMA_CHUNK, CONNECT_RESEND, CONNECT_TIMEOUT);

    final String device;
    final int port;
    final int gidIndex;
    final EagerChannel channel;
    final int eagerSize;
    final int srqSize;
    final int srqMax;
    final int srqLowWatermark;
    final int srBuffers;
    final int sendBuffers;
    final int sendQueueDepth;
    final int maxInline;
    final int signalInterval;
    final int fastPathThreshold;
    final int fastPathPeers;
    final int fastPathSlots;
    final int recvPollInterval;
    final long regCacheSize;
    final int rdmaChunk;
    final int connectResendMillis;
    final int connectTimeoutSeconds;
    /** The values the shared verbs layer runs with. */
    final VerbsOptions verbs;

    private IbConfiguration(Map<String, String> c) {
        device = DEVICE.get(c).trim();
        port = range(PORT, c, 0, 255);
        gidIndex = (int) GID_INDEX.getSize(c);
        channel = EagerChannel.parse(EAGER_CHANNEL.get(c));
        eagerSize = range(EAGER_SIZE, c, 256, 64 << 10);
        srqSize = range(SRQ_SIZE, c, 4, 1 << 16);
        srqMax = range(SRQ_MAX, c, srqSize, 1 << 20);
        srqLowWatermark = range(SRQ_LOW_WATERMARK, c, 1, srqSize - 1);
        srBuffers = range(SR_BUFFERS, c, CreditAccount.CONTROL_RESERVE + 4, 1 << 14);
        sendBuffers = range(SEND_BUFFERS, c, 2, 1 << 16);
        int depth = range(SEND_QUEUE_DEPTH, c, 8, 1 << 14);
        sendQueueDepth = Integer.highestOneBit(depth);
        maxInline = range(MAX_INLINE, c, 0, 1 << 12);
        signalInterval = range(SIGNAL_INTERVAL, c, 1, sendQueueDepth / 2);
        fastPathThreshold = range(FASTPATH_THRESHOLD, c, 0, Integer.MAX_VALUE);
        fastPathPeers = range(FASTPATH_PEERS, c, 0, 1 << 20);
        fastPathSlots = range(FASTPATH_SLOTS, c, 4, 1 << 12);
        recvPollInterval = range(RECV_POLL_INTERVAL, c, 1, 1 << 10);
        regCacheSize = REG_CACHE_SIZE.getSize(c);
        rdmaChunk = range(RDMA_CHUNK, c, 0, 1 << 30);
        connectResendMillis = range(CONNECT_RESEND, c, 1, 60_000);
        connectTimeoutSeconds = range(CONNECT_TIMEOUT, c, 1, 86_400);
        if (gidIndex < -1) {
            throw new IllegalArgumentException(GID_INDEX.name() + " must be -1 or an index: " + gidIndex);
        }
        verbs = new VerbsOptions(channel, eagerSize, srqSize, srqMax, srqLowWatermark, srBuffers, sendBuffers,
                sendQueueDepth, maxInline, signalInterval, fastPathThreshold, fastPathPeers, fastPathSlots,
                recvPollInterval, regCacheSize, rdmaChunk);
    }

    /** Reads and validates the settings; IllegalArgumentException names the bad one. */
    public static IbConfiguration from(Map<String, String> config) {
        return new IbConfiguration(config);
    }

    private static int range(Setting s, Map<String, String> c, long min, long max) {
        long v = s.getSize(c);
        if (v < min || v > max) {
            throw new IllegalArgumentException(s.name() + " must be in [" + min + ", " + max + "]: " + v);
        }
        return (int) v;
    }

    public EagerChannel channel() {
        return channel;
    }

    public int eagerSize() {
        return eagerSize;
    }

    @Override
    public String toString() {
        return "ib[channel=" + channel.configName() + ", eager=" + eagerSize + ", srq=" + srqSize + ".." + srqMax
                + " (low " + srqLowWatermark + "), sr-buffers=" + srBuffers + ", send-buffers=" + sendBuffers
                + ", sq=" + sendQueueDepth + ", inline=" + maxInline + ", signal=1/" + signalInterval
                + ", fastpath=" + fastPathThreshold + " msgs, " + fastPathPeers + " peers x " + fastPathSlots
                + " slots, reg-cache=" + regCacheSize + ", rdma-chunk=" + rdmaChunk + "]";
    }
}
