package org.verbatim.runtime.p2p;

import java.util.Locale;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;

/**
 * Which of the datatype paper's schemes moves a rendezvous-size message whose data is a
 * {@link Layout} ({@code verbatim.core.datatype-scheme}), decided per message from the layout's
 * block statistics and the transport's capabilities:
 * <ul>
 *   <li><b>generic</b>: the sender packs into a staging buffer, the contiguous rendezvous moves it,
 *       the receiver reads into a staging buffer and unpacks (three copies; the baseline).</li>
 *   <li><b>multi-w</b>: no packing at the sender: it asks for RPUT, and the receiver's CTS carries
 *       its own blocks (a flattened {@code <address, length>} list) when its data is a layout, so
 *       the sender writes from its blocks straight into the receiver's blocks, every piece one
 *       work request of one list post (one system call per run over shared memory); a contiguous
 *       receiver gets gather writes from the sender's blocks (RWG without unpacking).</li>
 *   <li><b>p-rrs</b>: the receiver scatter-reads a contiguous (or packed) sender's data straight
 *       into its blocks, up to the transport's scatter-list length per read.</li>
 * </ul>
 * {@code auto} uses multi-w at the sender (not where the CPU does the RDMA: see
 * {@link #multiWAuto}) and both direct paths at the receiver when the layout's
 * mean block is at least {@code verbatim.core.datatype-min-block} bytes (per block costs a work
 * request or an iovec entry, which only pays when blocks are not tiny), and generic otherwise.
 * A forced scheme is used wherever its capability exists (RDMA write for multi-w, RDMA read for
 * p-rrs) and the memory is native; elsewhere the generic path runs.
 */
public record LayoutSchemes(Scheme scheme, long minBlock) {
    /** The configured choice. */
    public enum Scheme { AUTO, GENERIC, MULTI_W, P_RRS }

    /** {@code minBlock} meaning "the transport's default". */
    public static final long TRANSPORT_DEFAULT = -1;
    /** Mean block below which auto packs, for a transport whose RDMA is done by the CPU (shm). */
    static final long CPU_MIN_BLOCK = 128;
    /** The same for an adapter (every block costs a work request and a DMA start). */
    static final long ADAPTER_MIN_BLOCK = 2048;

    public static LayoutSchemes auto() {
        return new LayoutSchemes(Scheme.AUTO, TRANSPORT_DEFAULT);
    }

    /**
     * Parses the scheme setting's value; {@code minBlock} is in bytes, or {@link #TRANSPORT_DEFAULT}.
     */
    public static LayoutSchemes parse(String scheme, long minBlock, String schemeName) {
        Scheme s = switch (scheme.trim().toLowerCase(Locale.ROOT)) {
            case "auto", "" -> Scheme.AUTO;
            case "generic" -> Scheme.GENERIC;
            case "multi-w" -> Scheme.MULTI_W;
            case "p-rrs" -> Scheme.P_RRS;
            default -> throw new MpiError(ErrorClass.ERR_ARG, schemeName
                    + ": expected auto, generic, multi-w or p-rrs, not '" + scheme.trim() + "'");
        };
        return new LayoutSchemes(s, minBlock);
    }

    /** The mean block below which auto packs, for a transport with {@code caps}. */
    long minBlock(Capabilities caps) {
        if (minBlock >= 0) {
            return minBlock;
        }
        return caps.has(Capability.RDMA_BY_CPU) ? CPU_MIN_BLOCK : ADAPTER_MIN_BLOCK;
    }

    private boolean blocksLargeEnough(Capabilities caps, Layout layout) {
        int n = layout.blockCount();
        return n > 0 && layout.size() / n >= minBlock(caps);
    }

    /**
     * Auto leaves multi-w out where the CPU does the RDMA (shm's cross-memory attach): measured on
     * shm (VectorPingPong, 2026-11-26) multi-w was 1.5-6x slower than generic at 64-1,024 columns
     * of the paper's matrix, where p-rrs was level with it or better. The reason is the kernel's
     * side of CMA: {@code process_vm_writev} pins the remote pages iovec by iovec, so a remote
     * side of 64 scattered 1 KiB blocks (each on its own page) cost 46 us per call under strace,
     * while a scattered local side is a plain copy. Over CMA the cheap shape is "remote
     * contiguous, local scattered": p-rrs from a packed sender. Multi-w there only when forced.
     */
    private boolean multiWAuto(Capabilities caps, Layout layout) {
        return !caps.has(Capability.RDMA_BY_CPU) && blocksLargeEnough(caps, layout);
    }

    /** The sender's choice: write from its own blocks (multi-w) instead of packing. */
    boolean senderWrites(Capabilities caps, Layout layout, boolean nativeBase) {
        if (!nativeBase || !caps.has(Capability.RDMA_WRITE)) {
            return false;
        }
        return switch (scheme) {
            case MULTI_W -> true;
            case AUTO -> multiWAuto(caps, layout);
            case GENERIC, P_RRS -> false;
        };
    }

    /** The receiver of an RPUT: send its blocks in the CTS instead of staging and unpacking. */
    boolean receiverBlocksInCts(Capabilities caps, Layout layout, boolean nativeBase,
                                int maxBlocks) {
        if (!nativeBase || layout.blockCount() > maxBlocks) {
            return false;
        }
        return switch (scheme) {
            case MULTI_W -> true;
            case AUTO -> multiWAuto(caps, layout);
            case GENERIC, P_RRS -> false;
        };
    }

    /** The receiver of an RGET: scatter-read into its blocks instead of staging and unpacking. */
    boolean receiverScatterReads(Capabilities caps, Layout layout, boolean nativeBase) {
        if (!nativeBase || !caps.has(Capability.RDMA_READ)) {
            return false;
        }
        return switch (scheme) {
            case P_RRS -> true;
            case AUTO -> blocksLargeEnough(caps, layout);
            case GENERIC, MULTI_W -> false;
        };
    }

    /** True when a layout sender must use RGET of its packed data (p-rrs forced). */
    boolean senderPrefersRead(Capabilities caps) {
        return scheme == Scheme.P_RRS && caps.has(Capability.RDMA_READ);
    }

    /** One line for proto-info. */
    String describe(Capabilities caps) {
        return switch (scheme) {
            case AUTO -> (caps.has(Capability.RDMA_BY_CPU) ? "auto (p-rrs" : "auto (multi-w / p-rrs")
                    + " when the mean block >= " + minBlock(caps)
                    + " B and the memory is native, else generic)";
            case GENERIC -> "generic (forced)";
            case MULTI_W -> "multi-w (forced where RDMA write and native memory exist)";
            case P_RRS -> "p-rrs (forced where RDMA read and native memory exist)";
        };
    }
}
