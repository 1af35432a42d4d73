package org.verbatim.onesided;

import java.util.List;
import java.util.Map;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;

/**
 * The one-sided module's configuration ({@code verbatim.rma.*}), read once per process.
 *
 * @param fence the fence design in force ({@link FenceDesign}; AUTO is resolved per window)
 * @param schedule hold the operations of PSCW, lock and deferred-fence epochs until the
 *                 synchronisation call, then issue them reordered (gets first, interleaved)
 * @param aggregate combine held operations up to {@code aggregateLimit} bytes with each other and
 *                  with the synchronisation message
 * @param aggregateLimit largest operation (bytes of data) that is aggregated
 * @param directShared puts and gets to windows mapped here are loads and stores
 * @param rdma puts and gets to members reached by native RDMA are RDMA writes and reads
 * @param rdmaThreshold smallest put or get (bytes) that goes by RDMA; smaller ones are records
 *                      (except in lock epochs of windows locked by remote atomics with {@code lockRdma})
 * @param lock passive-target locks of windows not mapped everywhere: auto, atomic or record
 * @param lockRdma every put and get of a lock epoch on a window locked by remote atomics goes by
 *                 RDMA, whatever its size
 */
record RmaSettings(FenceDesign fence, boolean schedule, boolean aggregate, long aggregateLimit,
                   boolean directShared, boolean rdma, long rdmaThreshold, String lock, boolean lockRdma) {
    static final Setting FENCE = new Setting("verbatim.rma.fence", "auto",
            "Fence design: def (deferred, two-sided), imm-naive (immediate, finish messages, "
                    + "flag messages), imm-opt (immediate, finish messages, barrier), imm-ri "
                    + "(immediate, counted puts, allreduce, barrier) or auto (imm-ri).");
    static final Setting SCHEDULE = new Setting("verbatim.rma.schedule", "true",
            "Hold RMA operations of PSCW, lock and deferred-fence epochs until the "
                    + "synchronisation call and issue them reordered (gets first, interleaved).");
    static final Setting AGGREGATE = new Setting("verbatim.rma.aggregate", "true",
            "Combine small held RMA operations with each other and with the synchronisation "
                    + "message.");
    static final Setting AGGREGATE_LIMIT = new Setting("verbatim.rma.aggregate-limit", "1k",
            "Largest RMA operation (data bytes) that is aggregated.");
    static final Setting DIRECT_SHARED = new Setting("verbatim.rma.direct-shared", "true",
            "Puts and gets to window memory mapped in this process (allocated windows of "
                    + "same-host ranks) are plain loads and stores, and their locks and accumulates CPU "
                    + "atomics on the mapping.");

    static final Setting RDMA = new Setting("verbatim.rma.rdma", "true",
            "Puts and gets of native memory to window members reached by native RDMA (shm's "
                    + "cross-memory attach, verbs) are RDMA writes and reads.");

    static final Setting RDMA_THRESHOLD = new Setting("verbatim.rma.rdma-threshold", "8k",
            "Smallest put or get (bytes) that goes by RDMA; smaller ones travel as two-sided "
                    + "records (on shm a cross-memory-attach call costs more than a message); "
                    + "but see verbatim.rma.lock-rdma.");

    static final Setting LOCK = new Setting("verbatim.rma.lock", "auto",
            "Passive-target locks of windows not mapped everywhere: atomic (two lock words per "
                    + "member, taken by CPU atomics from its host and by remote atomics from other "
                    + "hosts, no help from the target; every pair of members must be on one host "
                    + "or reached over a transport with native atomics, such as ib, or creating "
                    + "the window fails), record (LOCK/UNLOCK messages served when the target "
                    + "calls MPI) or auto (atomic where every pair can and some pair is on two "
                    + "hosts, record elsewhere).");

    static final Setting LOCK_RDMA = new Setting("verbatim.rma.lock-rdma", "true",
            "In lock epochs of windows locked by remote atomics, every put and get goes by RDMA "
                    + "whatever its size, so an epoch of puts and gets needs nothing from the target "
                    + "(unlock waits for no FLUSH/DONE unless accumulates were issued); false keeps "
                    + "puts and gets below verbatim.rma.rdma-threshold as records (docs/onesided.md).");

    static RmaSettings from(Map<String, String> config) {
        String lock = LOCK.get(config).trim().toLowerCase(java.util.Locale.ROOT);
        if (!List.of("auto", "atomic", "record").contains(lock)) {
            throw new MpiError(ErrorClass.ERR_ARG, "verbatim.rma.lock must be auto, atomic or "
                    + "record, not '" + lock + "'");
        }
        try {
            return new RmaSettings(FenceDesign.parse(FENCE.get(config)),
                    SCHEDULE.getBoolean(config), AGGREGATE.getBoolean(config),
                    AGGREGATE_LIMIT.getSize(config), DIRECT_SHARED.getBoolean(config),
                    RDMA.getBoolean(config), RDMA_THRESHOLD.getSize(config), lock,
                    LOCK_RDMA.getBoolean(config));
        } catch (IllegalArgumentException e) {
            throw new MpiError(ErrorClass.ERR_ARG, e.getMessage());
        }
    }

    /**
     * These settings with a window's info keys applied: an info key named like a setting
     * ({@code verbatim.rma.fence}, ...) overrides it for that window (every member must pass the
     * same value).
     */
    RmaSettings with(Map<String, String> info) {
        if (info.isEmpty()) {
            return this;
        }
        java.util.Map<String, String> merged = new java.util.HashMap<>();
        merged.put(FENCE.name(), fence.key());
        merged.put(SCHEDULE.name(), Boolean.toString(schedule));
        merged.put(AGGREGATE.name(), Boolean.toString(aggregate));
        merged.put(AGGREGATE_LIMIT.name(), Long.toString(aggregateLimit));
        merged.put(DIRECT_SHARED.name(), Boolean.toString(directShared));
        merged.put(RDMA.name(), Boolean.toString(rdma));
        merged.put(RDMA_THRESHOLD.name(), Long.toString(rdmaThreshold));
        merged.put(LOCK.name(), lock);
        merged.put(LOCK_RDMA.name(), Boolean.toString(lockRdma));
        for (Setting st : new Provider().settings()) {
            String v = info.get(st.name());
            if (v != null) {
                merged.put(st.name(), v);
            }
        }
        return from(merged);
    }

    /** The settings list for --print-config and the docs. */
    public static final class Provider implements SettingsProvider {
        @Override
        public String area() {
            return "rma";
        }

        @Override
        public List<Setting> settings() {
            return List.of(FENCE, SCHEDULE, AGGREGATE, AGGREGATE_LIMIT, DIRECT_SHARED, RDMA,
                    RDMA_THRESHOLD, LOCK, LOCK_RDMA);
        }
    }
}
