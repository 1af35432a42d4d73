package org.verbatim.spi;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The immutable capability record of an opened transport: flags and per-operation limits (after
 * UCX {@code uct_iface_attr}, Open MPI {@code btl_flags} and libfabric {@code fi_info}). Protocol
 * selection reads it once per peer (the runtime's selection table, printed by
 * {@code verbatim.core.proto-info=true}).
 *
 * <p>There is no cost model: protocol switch points come from configuration and from these
 * limits, and measured figures live in the benchmarks, not in numbers a transport guesses.
 *
 * @param flags        what the transport can do
 * @param send         eager sends: {@code maxCopy} is the largest message (header included) one
 *                     {@link Endpoint#send} carries, {@code maxInline} what goes in the descriptor,
 *                     {@code maxIov} the entries of a send's gather list
 * @param put          RDMA writes (zero-copy from registered memory; {@code maxIov}: gather list)
 * @param get          RDMA reads (zero-copy into registered memory; {@code maxIov}: scatter list)
 * @param atomics      the remote atomic operations supported (empty without {@link Capability#ATOMICS})
 * @param readsInFlight RDMA reads one endpoint may have outstanding at once
 * @param maxListPost  most work requests of one {@link Endpoint#postList} call
 */
public record Capabilities(Set<Capability> flags, OperationLimits send, OperationLimits put,
                           OperationLimits get, Set<AtomicOp> atomics, int readsInFlight,
                           int maxListPost) {

    public Capabilities {
        flags = Collections.unmodifiableSet(flags.isEmpty() ? EnumSet.noneOf(Capability.class)
                : EnumSet.copyOf(flags));
        atomics = Collections.unmodifiableSet(atomics.isEmpty() ? EnumSet.noneOf(AtomicOp.class)
                : EnumSet.copyOf(atomics));
        if (send.maxCopy() <= 0) {
            throw new IllegalArgumentException("eager sends must carry something: " + send);
        }
        if (flags.contains(Capability.ATOMICS) == atomics.isEmpty()) {
            throw new IllegalArgumentException("ATOMICS flag " + flags.contains(Capability.ATOMICS)
                    + " but atomic operations " + atomics);
        }
        if (readsInFlight < 0 || maxListPost < 0) {
            throw new IllegalArgumentException("negative readsInFlight or maxListPost");
        }
    }

    public boolean has(Capability capability) {
        return flags.contains(capability);
    }

    /** Largest eager message (header included) one {@link Endpoint#send} can carry. */
    public int maxEager() {
        return (int) Math.min(Integer.MAX_VALUE, send.maxCopy());
    }

    /** Largest payload sent inline with the descriptor (bytes; 0 if none). */
    public int maxInline() {
        return (int) Math.min(Integer.MAX_VALUE, send.maxInline());
    }

    /**
     * Largest single RDMA read or write (bytes), however the transport carries it (zero-copy,
     * or copied where it is emulated): the smaller of the put and get limits that exist.
     */
    public long maxRdma() {
        long w = put.maxSize();
        long r = get.maxSize();
        if (w == 0) {
            return r;
        }
        return r == 0 ? w : Math.min(w, r);
    }

    /** True when the operation is native, not emulated by active messages. */
    public boolean hasNativeRdmaRead() {
        return has(Capability.RDMA_READ) && !has(Capability.RDMA_READ_EMULATED);
    }

    public boolean hasNativeRdmaWrite() {
        return has(Capability.RDMA_WRITE) && !has(Capability.RDMA_WRITE_EMULATED);
    }

    public boolean hasNativeAtomics() {
        return has(Capability.ATOMICS) && !has(Capability.ATOMICS_EMULATED);
    }

    /** A builder, for transports: flags and limits added step by step. */
    public static Builder builder() {
        return new Builder();
    }

    /** Fluent construction of a capability record; {@link #build()} validates it. */
    public static final class Builder {
        private final EnumSet<Capability> flags = EnumSet.noneOf(Capability.class);
        private final EnumSet<AtomicOp> atomics = EnumSet.noneOf(AtomicOp.class);
        private OperationLimits send = OperationLimits.NONE;
        private OperationLimits put = OperationLimits.NONE;
        private OperationLimits get = OperationLimits.NONE;
        private int readsInFlight;
        private int maxListPost;

        public Builder flag(Capability... added) {
            flags.addAll(java.util.List.of(added));
            return this;
        }

        public Builder send(OperationLimits limits) {
            this.send = limits;
            return this;
        }

        public Builder put(OperationLimits limits) {
            this.put = limits;
            return this;
        }

        public Builder get(OperationLimits limits) {
            this.get = limits;
            return this;
        }

        public Builder atomics(AtomicOp... ops) {
            atomics.addAll(java.util.List.of(ops));
            return this;
        }

        public Builder readsInFlight(int n) {
            this.readsInFlight = n;
            return this;
        }

        public Builder maxListPost(int n) {
            this.maxListPost = n;
            return this;
        }

        public Capabilities build() {
            return new Capabilities(flags, send, put, get, atomics, readsInFlight, maxListPost);
        }
    }
}
