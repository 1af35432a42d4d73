package org.verbatim.runtime.p2p;

import java.util.Locale;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;

/**
 * Which of the datatype paper's schemes moves a rendezvous-size message whose data is a
 * {@link Layout} ({@code verbatim.core.datatype-scheme}), decided per message from the layout's
 * median block size, the transport's capabilities and the receiver's buffer:
 * <ul>
 *   <li><b>generic</b>: the sender packs into a staging buffer, the contiguous rendezvous moves it,
 *       the receiver reads into a staging buffer and unpacks (three copies; the baseline).</li>
 *   <li><b>bc-spup</b>: the message is cut into segments; the sender packs segment i+1 into its
 *       pre-registered pack pool while segment i is written into a slot of the receiver's
 *       pre-registered unpack pool, each segment signalled (write-with-immediate, or a message
 *       after the write) so the receiver unpacks it at once ({@link SegmentSender},
 *       {@link SegmentReceiver}). Dynamic buffers when a pool is empty.</li>
 *   <li><b>rwg-up</b>: the same segments and receiver, but no packing: each segment is gathered
 *       straight from the sender's blocks by gather writes of up to the transport's gather-list
 *       length.</li>
 *   <li><b>multi-w</b>: no packing at the sender: it asks for RPUT, and the receiver's CTS names
 *       its own blocks (a reference to its committed type, the flattened layout itself only the
 *       first time: {@link CtsLayouts}), so the sender writes block to block in list posts.</li>
 *   <li><b>p-rrs</b>: the receiver scatter-reads a contiguous (or packed) sender's data straight
 *       into its blocks, up to the transport's scatter-list length per read.</li>
 *   <li><b>fragments</b> (not one of the paper's: an eager protocol): the sender packs the
 *       message fragment by fragment straight into claimed eager records, the receiver unpacks
 *       each straight out of its record ({@link FragmentSender}, {@link FragmentReceiver}); no
 *       RDMA, no handshake. For messages up to {@code fragmentLimit} over a transport that lets
 *       eager records be claimed.</li>
 * </ul>
 * The selection of {@code auto} is the table in docs/architecture.md ("Datatype schemes"):
 * {@link #senderChoice} for the sender, {@link #receiverBlocksInCts} and
 * {@link #receiverScatterReads} for the receiver. A forced scheme is used wherever its
 * capability exists (RDMA write for multi-w, bc-spup and rwg-up, RDMA read for p-rrs) and, where
 * the user memory itself is registered (multi-w, rwg-up, p-rrs), the memory is native; elsewhere
 * the next scheme down runs (rwg-up: bc-spup; the others: generic).
 *
 * @param poolBytes    bytes of each of the pack and unpack pools ({@code datatype-pool})
 * @param segmentBytes largest segment, the pools' unit ({@code datatype-segment})
 * @param listPost     multi-w posts its pieces as lists (one {@code postList} of up to 64 work
 *                     requests); false: one post per piece, the paper's "single post"
 *                     ({@code datatype-list-post})
 * @param fragmentLimit largest message sent in eager fragments ({@code datatype-fragment-limit};
 *                     0: never)
 */
public record LayoutSchemes(Scheme scheme, long minBlock, long poolBytes, long segmentBytes,
                            boolean listPost, long fragmentLimit) {
    /** The configured choice. */
    public enum Scheme { AUTO, GENERIC, MULTI_W, P_RRS, BC_SPUP, RWG_UP, FRAGMENTS }

    /** What the sender of a layout does above the eager limit. */
    public enum SenderChoice {
        /** Pack, then the contiguous rendezvous the size range selects (generic). */
        PACK,
        /** Pack, then RGET (p-rrs forced: the receiver scatter-reads). */
        PACK_FOR_READ,
        /** multi-w: RPUT from the blocks. */
        BLOCK_WRITES,
        /** bc-spup: segments packed through the pack pool. */
        SEGMENTS_PACKED,
        /** rwg-up: segments gathered from the blocks. */
        SEGMENTS_GATHERED
    }

    /** {@code minBlock} meaning "the transport's default". */
    public static final long TRANSPORT_DEFAULT = -1;
    /**
     * Median block below which auto packs and unpacks, for a transport whose RDMA is done by the
     * CPU (shm): measured (docs/benchmarks.md, 2026-11-26, frozen), p-rrs was 1.0-1.75x the
     * contiguous time at 256 B-4 KiB blocks where generic was 0.94-1.32x; the kernel's
     * per-iovec cost weighs less with fewer, larger blocks (not measured above 4 KiB). Measured
     * again with one scatter read per message (2026-11-26, 23:12 UTC, three alternated rounds):
     * p-rrs still slower than generic at 128 B-1 KiB blocks, in latency and in the window.
     */
    static final long CPU_MIN_BLOCK = 8192;
    /** Median block from which auto writes block to block through an adapter. */
    static final long ADAPTER_MIN_BLOCK = 2048;
    /** Median block from which a gather entry pays over packing through an adapter (rwg-up). */
    static final long ADAPTER_GATHER_BLOCK = 256;
    public static final long DEFAULT_POOL = 4L << 20;
    public static final long DEFAULT_SEGMENT = 128L << 10;
    /** Default {@code fragmentLimit}: see {@link #fragments}. */
    public static final long DEFAULT_FRAGMENT_LIMIT = 1L << 20;
    /** Smallest segment a message is cut into (unless the pool's segment is smaller). */
    static final long MIN_SEGMENT = 8L << 10;
    /** Segments a message is cut into at least, where the segment size allows (overlap). */
    static final int PIPELINE = 4;

    public LayoutSchemes {
        if (segmentBytes < 64 || poolBytes < segmentBytes) {
            throw new MpiError(ErrorClass.ERR_ARG, "datatype pools: a segment must be at least 64"
                    + " bytes and a pool at least one segment (pool " + poolBytes + ", segment "
                    + segmentBytes + ")");
        }
        if (fragmentLimit < 0) {
            throw new MpiError(ErrorClass.ERR_ARG, "datatype fragment limit must not be negative: "
                    + fragmentLimit);
        }
    }

    public static LayoutSchemes auto() {
        return new LayoutSchemes(Scheme.AUTO, TRANSPORT_DEFAULT, DEFAULT_POOL, DEFAULT_SEGMENT,
                true, DEFAULT_FRAGMENT_LIMIT);
    }

    /**
     * Parses the scheme setting's value; {@code minBlock} is in bytes, or {@link #TRANSPORT_DEFAULT}.
     */
    public static LayoutSchemes parse(String scheme, long minBlock, String schemeName) {
        return parse(scheme, minBlock, DEFAULT_POOL, DEFAULT_SEGMENT, schemeName);
    }

    /** As {@link #parse(String, long, String)} with the pools' sizes. */
    public static LayoutSchemes parse(String scheme, long minBlock, long poolBytes,
                                      long segmentBytes, String schemeName) {
        Scheme s = switch (scheme.trim().toLowerCase(Locale.ROOT)) {
            case "auto", "" -> Scheme.AUTO;
            case "generic" -> Scheme.GENERIC;
            case "multi-w" -> Scheme.MULTI_W;
            case "p-rrs" -> Scheme.P_RRS;
            case "bc-spup" -> Scheme.BC_SPUP;
            case "rwg-up" -> Scheme.RWG_UP;
            case "fragments" -> Scheme.FRAGMENTS;
            default -> throw new MpiError(ErrorClass.ERR_ARG, schemeName + ": expected auto, "
                    + "generic, multi-w, p-rrs, bc-spup, rwg-up or fragments, not '"
                    + scheme.trim() + "'");
        };
        return new LayoutSchemes(s, minBlock, poolBytes, segmentBytes, true,
                DEFAULT_FRAGMENT_LIMIT);
    }

    /** The same choice with multi-w's pieces posted as lists ({@code true}) or one by one. */
    public LayoutSchemes withListPost(boolean lists) {
        return new LayoutSchemes(scheme, minBlock, poolBytes, segmentBytes, lists, fragmentLimit);
    }

    /** The same choice with eager fragments up to {@code limit} bytes (0: never). */
    public LayoutSchemes withFragmentLimit(long limit) {
        return new LayoutSchemes(scheme, minBlock, poolBytes, segmentBytes, listPost, limit);
    }

    /**
     * True when a layout message of {@code size} bytes (above the eager limit) goes in eager
     * fragments: forced, wherever eager records can be claimed and the size is within the limit;
     * auto, also only where the CPU moves the data (shm). Measured there (docs/benchmarks.md,
     * "Eager fragments for layouts", frozen, 2026-11-27) against generic and p-rrs at blocks of
     * 128 B-8 KiB (16 KiB-1 MiB messages of the paper's matrix): fragments had the lowest
     * latency and the highest window bandwidth at every point, and beat the contiguous RGET from
     * 1 MiB down to 32 KiB. Over an adapter auto keeps the paper's schemes (the adapter copies;
     * fragments are not measured there).
     */
    boolean fragments(Capabilities caps, Layout layout, long size) {
        return size <= fragmentsUpTo(caps);
    }

    /** The largest layout message sent in eager fragments over {@code caps} (0: none). */
    long fragmentsUpTo(Capabilities caps) {
        if (!caps.has(Capability.EAGER_CLAIM)) {
            return 0;
        }
        return switch (scheme) {
            case FRAGMENTS -> fragmentLimit;
            case AUTO -> caps.has(Capability.RDMA_BY_CPU) ? fragmentLimit : 0;
            case GENERIC, MULTI_W, P_RRS, BC_SPUP, RWG_UP -> 0;
        };
    }

    /** The median block below which auto packs, for a transport with {@code caps}. */
    long minBlock(Capabilities caps) {
        if (minBlock >= 0) {
            return minBlock;
        }
        return caps.has(Capability.RDMA_BY_CPU) ? CPU_MIN_BLOCK : ADAPTER_MIN_BLOCK;
    }

    private boolean blocksLargeEnough(Capabilities caps, Layout layout) {
        return layout.blockCount() > 0 && layout.medianBlock() >= minBlock(caps);
    }

    /**
     * Auto leaves multi-w out where the CPU does the RDMA (shm's cross-memory attach): measured on
     * shm (VectorPingPong, 2026-11-26) multi-w was 1.5-6x slower than generic at 64-1,024 columns
     * of the paper's matrix. The reason is the kernel's side of CMA: {@code process_vm_writev}
     * pins the remote pages iovec by iovec, so a remote side of 64 scattered 1 KiB blocks (each on
     * its own page) cost 46 us per call, while a scattered local side is a plain copy. Over CMA
     * the cheap shape is "remote contiguous, local scattered": p-rrs from a packed sender, or
     * rwg-up (local blocks gathered into the receiver's contiguous segment).
     */
    private boolean multiWAuto(Capabilities caps, Layout layout) {
        return caps.hasNativeRdmaWrite() && !caps.has(Capability.RDMA_BY_CPU)
                && blocksLargeEnough(caps, layout);
    }

    /** The sender's choice for a layout above the eager limit. */
    SenderChoice senderChoice(Capabilities caps, Layout layout, boolean nativeBase) {
        boolean write = caps.has(Capability.RDMA_WRITE);
        return switch (scheme) {
            case GENERIC, FRAGMENTS -> SenderChoice.PACK;
            case P_RRS -> caps.has(Capability.RDMA_READ) ? SenderChoice.PACK_FOR_READ
                    : SenderChoice.PACK;
            case MULTI_W -> write && nativeBase ? SenderChoice.BLOCK_WRITES : SenderChoice.PACK;
            case BC_SPUP -> write ? SenderChoice.SEGMENTS_PACKED : SenderChoice.PACK;
            case RWG_UP -> !write ? SenderChoice.PACK
                    : nativeBase ? SenderChoice.SEGMENTS_GATHERED : SenderChoice.SEGMENTS_PACKED;
            case AUTO -> autoSender(caps, layout, nativeBase);
        };
    }

    /**
     * Auto at the sender. Emulated writes (tcp) gain nothing from segments (every write is a
     * message anyway): generic. Over an adapter: large median blocks write block to block
     * (multi-w), medium ones gather (rwg-up), small ones pack in segments (bc-spup). Over CMA
     * (shm): see {@link #multiWAuto}; generic, with the receiver's p-rrs.
     */
    private SenderChoice autoSender(Capabilities caps, Layout layout, boolean nativeBase) {
        if (!caps.hasNativeRdmaWrite()) {
            return SenderChoice.PACK;
        }
        double median = layout.medianBlock();
        boolean gather = nativeBase && caps.has(Capability.WRITE_GATHER)
                && caps.put().maxIov() > 1;
        if (caps.has(Capability.RDMA_BY_CPU)) {
            // measured on shm (docs/benchmarks.md, 2026-11-26): the segment schemes were level
            // with generic at 512 KiB and slower at 32-128 KiB (a CTS round trip and a wake-up
            // per segment on top of the same copies)
            return SenderChoice.PACK;
        }
        if (nativeBase && multiWAuto(caps, layout)) {
            return SenderChoice.BLOCK_WRITES;
        }
        if (gather && median >= ADAPTER_GATHER_BLOCK) {
            return SenderChoice.SEGMENTS_GATHERED;
        }
        return SenderChoice.SEGMENTS_PACKED;
    }

    /** The receiver of an RPUT: send its blocks in the CTS instead of staging and unpacking. */
    boolean receiverBlocksInCts(Capabilities caps, Layout layout, boolean nativeBase) {
        if (!nativeBase) {
            return false;
        }
        return switch (scheme) {
            case MULTI_W -> true;
            case AUTO -> multiWAuto(caps, layout);
            case GENERIC, P_RRS, BC_SPUP, RWG_UP, FRAGMENTS -> false;
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
            case GENERIC, MULTI_W, BC_SPUP, RWG_UP, FRAGMENTS -> false;
        };
    }

    /**
     * The segment size for a message of {@code n} bytes: at least {@link #PIPELINE} segments where
     * that leaves them at least {@link #MIN_SEGMENT}, never more than the pools' segment.
     */
    long segmentFor(long n) {
        long wanted = Math.max(MIN_SEGMENT, (n + PIPELINE - 1) / PIPELINE);
        wanted = (wanted + 63) & ~63L;
        return Math.min(segmentBytes, wanted);
    }

    /** One line for proto-info. */
    String describe(Capabilities caps) {
        String pools = "; pools " + poolBytes + " B in segments of " + segmentBytes + " B";
        String fragments = !caps.has(Capability.EAGER_CLAIM) || fragmentLimit == 0 ? ""
                : "; eager fragments up to " + fragmentLimit + " B";
        return switch (scheme) {
            case AUTO -> (caps.has(Capability.RDMA_BY_CPU) && !fragments.isEmpty()
                    ? fragments.substring(2) + ", above them " : "")
                    + "auto by the median block" + autoTable(caps) + pools;
            case FRAGMENTS -> "fragments (forced where eager records can be claimed)" + fragments
                    + "; generic above";
            case GENERIC -> "generic (forced)";
            case MULTI_W -> "multi-w (forced where RDMA write and native memory exist)"
                    + (listPost ? "" : "; single posts");
            case P_RRS -> "p-rrs (forced where RDMA read and native memory exist)";
            case BC_SPUP -> "bc-spup (forced where RDMA write exists)" + pools;
            case RWG_UP -> "rwg-up (forced where RDMA write exists; bc-spup from heap memory)"
                    + pools;
        };
    }

    private String autoTable(Capabilities caps) {
        if (!caps.hasNativeRdmaWrite()) {
            return " (emulated writes: generic; the receiver of an RGET scatter-reads (p-rrs)"
                    + " from a median block of " + minBlock(caps) + " B)";
        }
        if (caps.has(Capability.RDMA_BY_CPU)) {
            return " (CPU copies: generic; the receiver of an RGET scatter-reads (p-rrs) from a"
                    + " median block of " + minBlock(caps) + " B)";
        }
        return " (adapter: multi-w at median >= " + minBlock(caps) + " B, rwg-up at >= "
                + ADAPTER_GATHER_BLOCK + " B" + (caps.has(Capability.WRITE_GATHER) ? ""
                : " [no gather: bc-spup]") + ", bc-spup below)";
    }
}
