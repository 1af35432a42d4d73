package org.verbatim.transport.iwarp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.verbatim.config.Setting;
import org.verbatim.transport.verbs.DeviceSemantics;
import org.verbatim.transport.verbs.VerbsOptions;
import org.verbatim.transport.verbs.VerbsSettings;

/**
 * The settings of the iWARP transport ({@code verbatim.iwarp.*}, also readable as
 * {@code VERBATIM_IWARP_*}) and their validated values for one job: the device and address,
 * how connections are set up, the RDMA fast path switch, and the data-path settings every verbs
 * transport has ({@link VerbsSettings}).
 */
public final class IwarpConfiguration {
    public static final Setting DEVICE = new Setting("verbatim.iwarp.device", "",
            "iWARP device to use (for example siw0); empty picks the first iWARP device that has an IPv4 address.");
    public static final Setting ADDRESS = new Setting("verbatim.iwarp.address", "",
            "IPv4 address the listener binds to (an address of the device's network interface); empty finds it.");
    public static final Setting PORT = new Setting("verbatim.iwarp.port", "0",
            "TCP port of the listener (0: any free port); published to the other ranks through the bootstrap.");
    public static final Setting CONNECT = Setting.choice("verbatim.iwarp.connect", "on-demand",
            "When connections are set up: on-demand (at the first message to a peer) or all (every pair at start-up, "
                    + "connect requests in reverse rank order, then a barrier).", "on-demand", "all");
    public static final Setting FAST_PATH = new Setting("verbatim.iwarp.fast-path", "false",
            "Allow the RDMA fast path (ardma-* eager channels), which polls the last bytes of an RDMA write: iWARP does "
                    + "not promise in-order placement, so only for adapters known to place in order.");
    public static final Setting CONNECT_TIMEOUT = new Setting("verbatim.iwarp.connect-timeout", "60",
            "Seconds a connection may take (address and route resolution, MPA exchange, first message) before it fails.");

    /** The data-path settings shared with the other verbs transports, under {@code verbatim.iwarp.}. */
    public static final VerbsSettings VERBS = new VerbsSettings("iwarp", "sr",
            "Eager design: sr (per-connection receive buffers with credits: iWARP has no receiver-not-ready "
                    + "retry, so a send that finds no posted receive ends the connection); srq (shared receive "
                    + "queue: only where no burst outruns its posted buffers); ardma-sr and ardma-srq (RDMA fast "
                    + "path) only with verbatim.iwarp.fast-path=true.");

    /** Every setting of this module, in documentation order. */
    public static final List<Setting> SETTINGS = settings();

    private static List<Setting> settings() {
        List<Setting> all = new ArrayList<>(List.of(DEVICE, ADDRESS, PORT, CONNECT, FAST_PATH, CONNECT_TIMEOUT));
        all.addAll(VERBS.list());
        return List.copyOf(all);
    }

    final String device;
    final String address;
    final int port;
    final boolean allAtOnce;
    final boolean fastPath;
    final int connectTimeoutSeconds;
    /** The values the shared verbs layer runs with. */
    final VerbsOptions verbs;

    private IwarpConfiguration(Map<String, String> c) {
        device = DEVICE.get(c).trim();
        address = ADDRESS.get(c).trim();
        port = VerbsSettings.range(PORT, c, 0, 65535);
        allAtOnce = CONNECT.getChoice(c).equals("all");
        fastPath = FAST_PATH.getBoolean(c);
        connectTimeoutSeconds = VerbsSettings.range(CONNECT_TIMEOUT, c, 1, 86_400);
        verbs = VERBS.options(c);
        if (verbs.channel().fastPath() && !fastPath) {
            throw new IllegalArgumentException(VERBS.eagerChannel.name() + "=" + verbs.channel().configName()
                    + " needs the RDMA fast path, which iWARP does not promise to support (no in-order placement):"
                    + " set " + FAST_PATH.name() + "=true to use it anyway");
        }
    }

    /** Reads and validates the settings; IllegalArgumentException names the bad one. */
    public static IwarpConfiguration from(Map<String, String> config) {
        return new IwarpConfiguration(config);
    }

    /** What the data path may rely on: iWARP's semantics, with in-order placement if switched on. */
    DeviceSemantics semantics() {
        return DeviceSemantics.IWARP.assumingInOrderPlacement(fastPath);
    }

    /** Whether every pair connects at start-up (else at first use). */
    public boolean allAtOnce() {
        return allAtOnce;
    }

    @Override
    public String toString() {
        return "iwarp[connect=" + (allAtOnce ? "all" : "on-demand") + ", fast-path=" + fastPath + ", "
                + verbs.describe() + "]";
    }
}
