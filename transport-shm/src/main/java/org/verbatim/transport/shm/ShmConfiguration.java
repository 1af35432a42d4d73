package org.verbatim.transport.shm;

import java.util.List;
import java.util.Map;
import org.verbatim.config.Setting;

/**
 * The settings of the shared-memory transport ({@code verbatim.shm.*}, also readable as
 * {@code VERBATIM_SHM_*}) and their validated values for one job.
 */
public final class ShmConfiguration {
    public static final Setting DIRECTORY = new Setting("verbatim.shm.dir", "/dev/shm",
            "Directory (a tmpfs) of the inbox files; each is unlinked once every peer has mapped it.");
    public static final Setting INBOX_SIZE = new Setting("verbatim.shm.inbox-size", "512k",
            "Bytes in each rank's eager inbox ring (power of two, >= 8 largest records); per rank, not per pair.");
    public static final Setting EAGER_SIZE = new Setting("verbatim.shm.eager-size", "16k",
            "Largest eager message, runtime header included (the transport's maxEager), 256 B to 1 MiB.");
    public static final Setting CMA = new Setting("verbatim.shm.cma", "true",
            "Use cross-memory attach (process_vm_readv/writev) for RDMA; false forces the shared-buffer fallback.");
    public static final Setting LIVENESS_INTERVAL = new Setting("verbatim.shm.liveness-interval-ms", "500",
            "Milliseconds between checks that same-host peers are alive, made while idle or while sends get RETRY.");
    public static final Setting MAX_RDMA_OPS = new Setting("verbatim.shm.max-rdma-ops", "1024",
            "Outstanding RDMA operations per rank before further posts return RETRY.");

    public static final Setting EVENTFD = new Setting("verbatim.shm.eventfd", "true",
            "Sleep on an eventfd that peers fetch with pidfd_getfd (pollable with other transports); false, or a refused pidfd_getfd, sleeps on the inbox futex.");

    /** Every setting of this module, in documentation order. */
    public static final List<Setting> SETTINGS =
            List.of(DIRECTORY, INBOX_SIZE, EAGER_SIZE, CMA, LIVENESS_INTERVAL, MAX_RDMA_OPS, EVENTFD);

    private final String directory;
    private final int inboxSize;
    private final int eagerSize;
    private final boolean cma;
    private final long livenessIntervalNanos;
    private final int maxRdmaOps;
    private final boolean eventFd;

    private ShmConfiguration(String directory, int inboxSize, int eagerSize, boolean cma,
                             long livenessIntervalNanos, int maxRdmaOps, boolean eventFd) {
        this.directory = directory;
        this.inboxSize = inboxSize;
        this.eagerSize = eagerSize;
        this.cma = cma;
        this.livenessIntervalNanos = livenessIntervalNanos;
        this.maxRdmaOps = maxRdmaOps;
        this.eventFd = eventFd;
    }

    /** Reads and validates the settings; IllegalArgumentException names the bad one. */
    public static ShmConfiguration from(Map<String, String> config) {
        String directory = DIRECTORY.get(config);
        long inbox = INBOX_SIZE.getSize(config);
        long eager = EAGER_SIZE.getSize(config);
        if (eager < 256 || eager > (1 << 20)) {
            throw new IllegalArgumentException(EAGER_SIZE.name() + " must be in [256, 1m]: " + eager);
        }
        long maxRecord = RecordDescriptor.align(RecordDescriptor.HEADER_LENGTH + (int) eager);
        if (inbox > (1L << 30) || Long.bitCount(inbox) != 1 || inbox < 8 * maxRecord) {
            throw new IllegalArgumentException(INBOX_SIZE.name()
                    + " must be a power of two, at most 1g and at least 8 records of "
                    + maxRecord + " bytes: " + inbox);
        }
        long liveness = LIVENESS_INTERVAL.getSize(config);
        if (liveness <= 0) {
            throw new IllegalArgumentException(LIVENESS_INTERVAL.name() + " must be positive: " + liveness);
        }
        long ops = MAX_RDMA_OPS.getSize(config);
        if (ops < 1 || ops > (1 << 20)) {
            throw new IllegalArgumentException(MAX_RDMA_OPS.name() + " must be in [1, 1m]: " + ops);
        }
        return new ShmConfiguration(directory, (int) inbox, (int) eager, CMA.getBoolean(config),
                liveness * 1_000_000L, (int) ops, EVENTFD.getBoolean(config));
    }

    public String directory() {
        return directory;
    }

    public int inboxSize() {
        return inboxSize;
    }

    public int eagerSize() {
        return eagerSize;
    }

    /** Largest ring record: record header plus the largest eager message, aligned. */
    int maxRecordLength() {
        return RecordDescriptor.align(RecordDescriptor.HEADER_LENGTH + eagerSize);
    }

    public boolean cma() {
        return cma;
    }

    public long livenessIntervalNanos() {
        return livenessIntervalNanos;
    }

    public int maxRdmaOps() {
        return maxRdmaOps;
    }

    /** True when the wait source may use an eventfd (see {@link #EVENTFD}). */
    public boolean eventFd() {
        return eventFd;
    }

    @Override
    public String toString() {
        return "shm[dir=" + directory + ", inbox=" + inboxSize + ", eager=" + eagerSize + ", cma="
                + cma + ", liveness=" + livenessIntervalNanos / 1_000_000 + "ms, ops=" + maxRdmaOps + "]";
    }
}
