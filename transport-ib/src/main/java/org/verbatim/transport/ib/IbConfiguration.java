package org.verbatim.transport.ib;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.verbatim.config.Setting;
import org.verbatim.transport.verbs.EagerChannel;
import org.verbatim.transport.verbs.VerbsOptions;
import org.verbatim.transport.verbs.VerbsSettings;

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
    /** The data-path settings shared with the other verbs transports, under {@code verbatim.ib.}. */
    public static final VerbsSettings VERBS = new VerbsSettings("ib",
            "Eager design: srq (shared receive queue), sr (per-connection buffers with credits), "
                    + "ardma-sr (RDMA fast path + per-connection buffers), ardma-srq.");
    public static final Setting EAGER_CHANNEL = VERBS.eagerChannel;
    public static final Setting EAGER_SIZE = VERBS.eagerSize;
    public static final Setting SRQ_SIZE = VERBS.srqSize;
    public static final Setting SRQ_MAX = VERBS.srqMax;
    public static final Setting SRQ_LOW_WATERMARK = VERBS.srqLowWatermark;
    public static final Setting SR_BUFFERS = VERBS.srBuffers;
    public static final Setting SEND_BUFFERS = VERBS.sendBuffers;
    public static final Setting SEND_QUEUE_DEPTH = VERBS.sendQueueDepth;
    public static final Setting FASTPATH_THRESHOLD = VERBS.fastPathThreshold;
    public static final Setting FASTPATH_SLOTS = VERBS.fastPathSlots;
    public static final Setting REG_CACHE_SIZE = VERBS.regCacheSize;

    public static final Setting CONNECT_RESEND = new Setting("verbatim.ib.connect-resend", "250",
            "Milliseconds after which an unanswered connection request or reply is sent again over UD.");
    public static final Setting CONNECT_TIMEOUT = new Setting("verbatim.ib.connect-timeout", "60",
            "Seconds a connection may take to set up (UD request, reply, ready) before the peer is reported failed.");

    /** Every setting of this module, in documentation order. */
    public static final List<Setting> SETTINGS = settings();

    private static List<Setting> settings() {
        List<Setting> all = new ArrayList<>(List.of(DEVICE, PORT, GID_INDEX));
        all.addAll(VERBS.list());
        all.addAll(List.of(CONNECT_RESEND, CONNECT_TIMEOUT));
        return List.copyOf(all);
    }

    final String device;
    final int port;
    final int gidIndex;
    final int connectResendMillis;
    final int connectTimeoutSeconds;
    /** The values the shared verbs layer runs with. */
    final VerbsOptions verbs;

    private IbConfiguration(Map<String, String> c) {
        device = DEVICE.get(c).trim();
        port = range(PORT, c, 0, 255);
        gidIndex = (int) GID_INDEX.getSize(c);
        connectResendMillis = range(CONNECT_RESEND, c, 1, 60_000);
        connectTimeoutSeconds = range(CONNECT_TIMEOUT, c, 1, 86_400);
        if (gidIndex < -1) {
            throw new IllegalArgumentException(GID_INDEX.name() + " must be -1 or an index: " + gidIndex);
        }
        verbs = VERBS.options(c);
    }

    /** Reads and validates the settings; IllegalArgumentException names the bad one. */
    public static IbConfiguration from(Map<String, String> config) {
        return new IbConfiguration(config);
    }

    private static int range(Setting s, Map<String, String> c, long min, long max) {
        return VerbsSettings.range(s, c, min, max);
    }

    public EagerChannel channel() {
        return verbs.channel();
    }

    public int eagerSize() {
        return verbs.eagerSize();
    }

    @Override
    public String toString() {
        return "ib[" + verbs.describe() + "]";
    }
}
