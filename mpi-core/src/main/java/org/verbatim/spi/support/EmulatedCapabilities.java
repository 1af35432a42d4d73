package org.verbatim.spi.support;

import java.util.EnumSet;
import org.verbatim.spi.AtomicOp;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.OperationLimits;

/**
 * The capability record of a send-only transport with {@link RdmaEmulation} wired in: the
 * transport's own record plus RDMA_WRITE and RDMA_READ (each with its {@code _EMULATED} flag),
 * WRITE_WITH_IMMEDIATE, ATOMICS with ATOMICS_EMULATED (fetch-and-add, compare-and-swap), FLUSH,
 * WRITE_GATHER and READ_SCATTER.
 *
 * <p>Honest limits: writes and reads are copies through the transport's buffers (maxCopy, no
 * zero-copy), of any length up to 2^40 bytes, with gather and scatter lists of the engine's
 * maxIov entries. Eager sends lose one byte ({@code maxEager - 1}): a message that begins with a
 * reserved byte travels behind an escape byte. Flags the layer would make untrue are removed:
 * EAGER_CLAIM (a claimed message could not be escaped), LIST_POST (requests are posted one by
 * one), IN_ORDER_PLACEMENT (the copy of a chunk into place has no defined byte order) and
 * RDMA_BY_CPU (no cross-memory attach underneath).
 */
public final class EmulatedCapabilities {
    /** Largest single emulated write or read (bytes): the same bound shm's emulation uses. */
    public static final long MAX_RDMA = 1L << 40;

    private EmulatedCapabilities() {
    }

    /** The record of {@code raw} with the emulated operations of an engine with these sizes. */
    public static Capabilities of(Capabilities raw, int maxOperations, int maxIov) {
        EnumSet<Capability> flags = raw.flags().isEmpty() ? EnumSet.noneOf(Capability.class)
                : EnumSet.copyOf(raw.flags());
        flags.removeAll(EnumSet.of(Capability.EAGER_CLAIM, Capability.LIST_POST,
                Capability.IN_ORDER_PLACEMENT, Capability.RDMA_BY_CPU));
        flags.addAll(EnumSet.of(Capability.RDMA_WRITE, Capability.RDMA_WRITE_EMULATED,
                Capability.RDMA_READ, Capability.RDMA_READ_EMULATED,
                Capability.WRITE_WITH_IMMEDIATE, Capability.ATOMICS, Capability.ATOMICS_EMULATED,
                Capability.FLUSH, Capability.WRITE_GATHER, Capability.READ_SCATTER));
        OperationLimits send = raw.send();
        long maxCopy = send.maxCopy() - 1;
        OperationLimits eager = new OperationLimits(Math.min(send.maxInline(), maxCopy), maxCopy,
                Math.min(send.maxZeroCopy(), maxCopy), send.maxIov());
        OperationLimits rdma = new OperationLimits(0, MAX_RDMA, 0, maxIov);
        return new Capabilities(flags, eager, rdma, rdma,
                EnumSet.of(AtomicOp.FETCH_AND_ADD, AtomicOp.COMPARE_AND_SWAP), maxOperations, 0);
    }
}
