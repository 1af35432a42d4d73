package org.verbatim.transport.tcp;

import java.util.List;
import java.util.Map;
import org.verbatim.config.Setting;

/**
 * The settings of the TCP transport ({@code verbatim.tcp.*}, also readable as
 * {@code VERBATIM_TCP_*}) and their validated values for one job.
 */
public final class TcpConfiguration {
    public static final Setting IF_INCLUDE = new Setting("verbatim.tcp.if-include", "",
            "Interfaces whose addresses peers connect to: comma-separated names (eth0) or subnets "
                    + "(10.1.0.0/16, fd00::/8); empty = every interface that is up, loopback last.");
    public static final Setting EAGER_SIZE = new Setting("verbatim.tcp.eager-size", "1m",
            "Largest message payload in one frame (a frame adds 64 bytes of room for the headers; "
                    + "the transport's maxEager); emulated RDMA moves data in pieces of this size (1m: a "
                    + "1 MiB rendezvous is one write, 30-40% more bandwidth than 256k's four). 1k to 16m.");
    public static final Setting EAGER_LIMIT = new Setting("verbatim.tcp.eager-limit", "64k",
            "Largest message payload sent eagerly to peers over tcp, replacing verbatim.core.eager-limit's "
                    + "default (a value set for the core wins): each rendezvous step is a trip through both "
                    + "kernels, so tcp sends more eagerly than shm. Capped by verbatim.tcp.eager-size.");
    public static final Setting EAGER_WINDOW = new Setting("verbatim.tcp.eager-window", "0",
            "Bytes of messages above eager-limit (up to eager-size) a rank sends eagerly to one peer "
                    + "before the peer has received them (its credit, given back in quarters): what one "
                    + "peer can leave unexpected at a receiver; beyond it such messages go by rendezvous. "
                    + "The frames are read straight into the posted receive (or a staging buffer of the "
                    + "message's size), and the unsent rest of each is copied into the send queue (which "
                    + "shrinks back after the burst); the pool keeps staging buffers of unexpected ones: "
                    + "0 (the default) = off (1.2x the communication memory per rank in the 16-rank "
                    + "collectives with 4m); 4m halves 128-512 KiB latency. At most 1g.");
    public static final Setting SEND_QUEUE = new Setting("verbatim.tcp.send-queue", "4m",
            "Bytes queued per peer when the socket takes no more; further sends return RETRY.");
    public static final Setting SNDBUF = new Setting("verbatim.tcp.sndbuf", "0",
            "SO_SNDBUF of each connection in bytes; 0 = the operating system's (autotuned).");
    public static final Setting RCVBUF = new Setting("verbatim.tcp.rcvbuf", "0",
            "SO_RCVBUF of each connection in bytes; 0 = the operating system's (autotuned).");
    public static final Setting CONNECT_TIMEOUT = new Setting("verbatim.tcp.connect-timeout-ms",
            "20000", "How long a connection to a peer may take (over all of its addresses) before "
                    + "the job ends naming that peer.");
    public static final Setting TRACE_MS = new Setting("verbatim.tcp.trace-ms", "0",
            "Diagnostics: every this many milliseconds each rank prints a line of its socket traffic "
                    + "(progress passes, read and write calls and bytes, RETRYs, selector sleeps) on "
                    + "standard error; 0 = off.");
    public static final Setting MAX_RDMA_OPS = new Setting("verbatim.tcp.max-rdma-ops", "1024",
            "Outstanding emulated RDMA operations per rank before further posts return RETRY.");

    /** Every setting of this module, in documentation order. */
    public static final List<Setting> SETTINGS = List.of(IF_INCLUDE, EAGER_SIZE, EAGER_LIMIT, EAGER_WINDOW, SEND_QUEUE, SNDBUF,
            RCVBUF, CONNECT_TIMEOUT, MAX_RDMA_OPS, TRACE_MS);

    private final String ifInclude;
    private final int eagerSize;
    private final long eagerLimit;
    private final long eagerWindow;
    private final int sendQueue;
    private final int sndbuf;
    private final int rcvbuf;
    private final long connectTimeoutNanos;
    private final int maxRdmaOps;
    private final long traceMillis;

    private TcpConfiguration(String ifInclude, int eagerSize, long eagerLimit, long eagerWindow, int sendQueue, int sndbuf,
                             int rcvbuf, long connectTimeoutNanos, int maxRdmaOps, long traceMillis) {
        this.ifInclude = ifInclude;
        this.eagerSize = eagerSize;
        this.eagerLimit = eagerLimit;
        this.eagerWindow = eagerWindow;
        this.sendQueue = sendQueue;
        this.sndbuf = sndbuf;
        this.rcvbuf = rcvbuf;
        this.connectTimeoutNanos = connectTimeoutNanos;
        this.maxRdmaOps = maxRdmaOps;
        this.traceMillis = traceMillis;
    }

    /** Reads and validates the settings; IllegalArgumentException names the bad one. */
    public static TcpConfiguration from(Map<String, String> config) {
        long eager = EAGER_SIZE.getSize(config);
        if (eager < 1024 || eager > (16 << 20)) {
            throw new IllegalArgumentException(EAGER_SIZE.name() + " must be in [1k, 16m]: " + eager);
        }
        long limit = EAGER_LIMIT.getSize(config);
        if (limit < 0 || limit > (16 << 20)) {
            throw new IllegalArgumentException(EAGER_LIMIT.name() + " must be in [0, 16m]: " + limit);
        }
        long window = EAGER_WINDOW.getSize(config);
        if (window < 0 || window > (1L << 30)) {
            throw new IllegalArgumentException(EAGER_WINDOW.name() + " must be in [0, 1g]: " + window);
        }
        long queue = SEND_QUEUE.getSize(config);
        if (queue < 2 * (eager + Frames.LENGTH_SIZE) || queue > (1L << 30)) {
            throw new IllegalArgumentException(SEND_QUEUE.name() + " must be at least two frames ("
                    + 2 * (eager + Frames.LENGTH_SIZE) + " bytes) and at most 1g: " + queue);
        }
        long snd = SNDBUF.getSize(config);
        long rcv = RCVBUF.getSize(config);
        if (snd < 0 || snd > (1L << 30) || rcv < 0 || rcv > (1L << 30)) {
            throw new IllegalArgumentException(SNDBUF.name() + " and " + RCVBUF.name()
                    + " must be in [0, 1g]: " + snd + ", " + rcv);
        }
        long timeout = CONNECT_TIMEOUT.getSize(config);
        if (timeout <= 0) {
            throw new IllegalArgumentException(CONNECT_TIMEOUT.name() + " must be positive: " + timeout);
        }
        long ops = MAX_RDMA_OPS.getSize(config);
        if (ops < 1 || ops > (1 << 20)) {
            throw new IllegalArgumentException(MAX_RDMA_OPS.name() + " must be in [1, 1m]: " + ops);
        }
        long trace = TRACE_MS.getSize(config);
        if (trace < 0) {
            throw new IllegalArgumentException(TRACE_MS.name() + " must not be negative: " + trace);
        }
        return new TcpConfiguration(IF_INCLUDE.get(config).trim(), (int) eager, limit, window, (int) queue,
                (int) snd, (int) rcv, timeout * 1_000_000L, (int) ops, trace);
    }

    public String ifInclude() {
        return ifInclude;
    }

    public int eagerSize() {
        return eagerSize;
    }

    /** The eager limit tcp peers get unless the core's is set (0: the core's default). */
    public long eagerLimit() {
        return eagerLimit;
    }

    /** Credit per peer for eager sends above the eager limit ({@code Transport#eagerWindow}). */
    public long eagerWindow() {
        return eagerWindow;
    }

    public int sendQueue() {
        return sendQueue;
    }

    public int sndbuf() {
        return sndbuf;
    }

    public int rcvbuf() {
        return rcvbuf;
    }

    public long connectTimeoutNanos() {
        return connectTimeoutNanos;
    }

    public int maxRdmaOps() {
        return maxRdmaOps;
    }

    /** Milliseconds between two lines of the traffic trace; 0 = off. */
    public long traceMillis() {
        return traceMillis;
    }
}
