package org.verbatim.spi;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The immutable capability record of an opened transport: flags, per-operation limits and a cost
 * model (after UCX {@code uct_iface_attr} and Open MPI {@code btl_flags}).
 *
 * @param flags        what the transport can do
 * @param maxInline    largest payload sent inline with the descriptor (bytes; 0 if none)
 * @param maxEager     largest message (header included) one {@link Endpoint#send} can carry
 * @param maxRdma      largest single RDMA read or write (bytes)
 * @param maxGather    most gather/scatter entries per work request
 * @param latencyNanos cost model: one-way small-message latency
 * @param bandwidthBytesPerSecond cost model: large-transfer bandwidth
 * @param overheadNanos cost model: per-operation software overhead
 */
public record Capabilities(Set<Capability> flags, int maxInline, int maxEager, long maxRdma,
                           int maxGather, double latencyNanos, double bandwidthBytesPerSecond,
                           double overheadNanos) {

    public Capabilities {
        flags = Collections.unmodifiableSet(flags.isEmpty() ? EnumSet.noneOf(Capability.class)
                : EnumSet.copyOf(flags));
        if (maxEager <= 0) {
            throw new IllegalArgumentException("maxEager must be positive: " + maxEager);
        }
    }

    public boolean has(Capability capability) {
        return flags.contains(capability);
    }

    /** True when the operation is native, not emulated by active messages. */
    public boolean hasNativeRdmaRead() {
        return has(Capability.RDMA_READ) && !has(Capability.RDMA_READ_EMULATED);
    }

    public boolean hasNativeRdmaWrite() {
        return has(Capability.RDMA_WRITE) && !has(Capability.RDMA_WRITE_EMULATED);
    }
}
