package org.verbatim.runtime.p2p;

import java.util.Locale;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;

/**
 * How large messages travel ({@code verbatim.core.rendezvous}), resolved once per peer into the
 * smallest message size sent by RPUT (the rest goes by RGET).
 *
 * <p>The automatic rule, from the peer transport's capability record:
 * <ul>
 *   <li>native RDMA read and native RDMA write: RGET below {@code verbatim.core.rput-threshold},
 *       RPUT from there on. RGET needs no action from the sender once its RTS is out, which
 *       suits medium messages; for large ones RDMA write streams better (hardware writes are
 *       faster than reads, and reads in flight are bounded by the responder's read depth);
 *       except when the transport says {@link Capability#RDMA_BY_CPU} (shm's cross-memory
 *       attach): then always RGET (1 MiB over shm measured the same one way and 20-40% less
 *       bidirectional bandwidth with RPUT); and always RPUT when it says
 *       {@link Capability#RDMA_READ_DEFERRED} (Soft-RoCE);</li>
 *   <li>only one of the two native: that one (RPUT if only writes are native);</li>
 *   <li>both emulated: RGET (as before RPUT existed);</li>
 *   <li>neither operation at all: no rendezvous (a large message to that peer fails).</li>
 * </ul>
 * A forced {@code rget} or {@code rput} is honoured where the transport has the operation (even
 * emulated), else the other one is used.
 */
public record RendezvousPolicy(Choice choice, long rputThreshold) {
    /** The configured choice. */
    public enum Choice { AUTO, RGET, RPUT }

    /** Threshold meaning "never RPUT". */
    public static final long NEVER = Long.MAX_VALUE;

    /**
     * The policy from the setting's value ({@code auto}, {@code rget}, {@code rput}) and the RPUT
     * threshold in bytes; {@code settingName} and {@code thresholdName} name them in errors.
     */
    public static RendezvousPolicy parse(String value, long threshold, String settingName,
                                         String thresholdName) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        Choice choice = switch (v) {
            case "auto", "" -> Choice.AUTO;
            case "rget" -> Choice.RGET;
            case "rput" -> Choice.RPUT;
            default -> throw new MpiError(ErrorClass.ERR_ARG, settingName
                    + ": expected auto, rget or rput, not '" + v + "'");
        };
        if (threshold < 0) {
            throw new MpiError(ErrorClass.ERR_ARG, thresholdName + " must not be negative: "
                    + threshold);
        }
        return new RendezvousPolicy(choice, threshold);
    }

    public static RendezvousPolicy auto() {
        return new RendezvousPolicy(Choice.AUTO, 256 << 10);
    }

    /**
     * The smallest message sent by RPUT to a peer reached through a transport with {@code caps}:
     * 0 for always, {@link #NEVER} for never.
     */
    public long putFrom(Capabilities caps) {
        boolean read = caps.has(Capability.RDMA_READ);
        boolean write = caps.has(Capability.RDMA_WRITE);
        return switch (choice) {
            case RGET -> read || !write ? NEVER : 0;
            case RPUT -> write ? 0 : NEVER;
            case AUTO -> {
                if (!write) {
                    yield NEVER;
                }
                if (!read) {
                    yield 0;
                }
                boolean nativeRead = caps.hasNativeRdmaRead();
                boolean nativeWrite = caps.hasNativeRdmaWrite();
                if (nativeRead && nativeWrite) {
                    yield caps.has(Capability.RDMA_BY_CPU) ? NEVER
                            : caps.has(Capability.RDMA_READ_DEFERRED) ? 0 : rputThreshold;
                }
                yield nativeWrite ? 0 : NEVER;
            }
        };
    }
}
