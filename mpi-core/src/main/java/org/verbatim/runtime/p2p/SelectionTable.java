package org.verbatim.runtime.p2p;

import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;

/**
 * The protocol chosen for one peer, per data class and size range (after UCX's
 * {@code ucp_proto_select}): computed once, when the peer is first used, from the transport's
 * capability record, its per-operation limits and the configuration; printed by
 * {@code verbatim.core.proto-info=true}.
 *
 * <p>Size ranges: {@code [0, eagerLimit]} eager, {@code (eagerLimit, putFrom)} RGET,
 * {@code [putFrom, ...)} RPUT. Data classes: contiguous native memory (zero-copy rendezvous),
 * contiguous heap memory (staged through native memory for RDMA), and a layout over a base
 * (packed: into the eager slot itself where the transport lets us claim it, else through
 * scratch; into a staging buffer for the rendezvous).
 */
public final class SelectionTable {
    /** What kind of memory the message data is. */
    public enum DataClass { CONTIGUOUS_NATIVE, CONTIGUOUS_HEAP, LAYOUT }

    /** The protocols. */
    public enum Protocol {
        EAGER_COPY("eager (copy into the transport's buffer)"),
        EAGER_PACK_CLAIM("eager, packed straight into the claimed slot"),
        EAGER_PACK("eager, packed through scratch"),
        EAGER_FRAGMENTS("eager fragments, packed straight into claimed records and unpacked"
                + " straight out of them"),
        RGET_ZCOPY("RGET zero-copy"),
        RGET_STAGED("RGET through a native staging copy"),
        RGET_PACKED("RGET of a packed staging buffer"),
        RPUT_ZCOPY("RPUT zero-copy"),
        RPUT_STAGED("RPUT through a native staging copy"),
        RPUT_PACKED("RPUT of a packed staging buffer"),
        RPUT_LAYOUT("RPUT from the sender's blocks, no packing (multi-w: block-to-block or gather"
                + " writes in list posts)"),
        RPUT_SEGMENTS_PACKED("segments packed through the pack pool, written into the receiver's"
                + " unpack slots, unpacked as each lands (bc-spup)"),
        RPUT_SEGMENTS_GATHERED("segments gathered from the sender's blocks into the receiver's"
                + " unpack slots, unpacked as each lands (rwg-up)"),
        NONE("no protocol (the transport has neither RDMA read nor write)");

        private final String description;

        Protocol(String description) {
            this.description = description;
        }

        public boolean rendezvous() {
            return this != EAGER_COPY && this != EAGER_PACK_CLAIM && this != EAGER_PACK
                    && this != EAGER_FRAGMENTS;
        }

        public boolean put() {
            return this == RPUT_ZCOPY || this == RPUT_STAGED || this == RPUT_PACKED
                    || this == RPUT_LAYOUT || segments();
        }

        /** The segment schemes: the receiver answers with slots of its unpack pool. */
        public boolean segments() {
            return this == RPUT_SEGMENTS_PACKED || this == RPUT_SEGMENTS_GATHERED;
        }

        @Override
        public String toString() {
            return description;
        }
    }

    private final long eagerLimit;
    private final long putFrom;
    private final boolean canRead;
    private final boolean claim;
    private final boolean readEmulated;
    private final boolean writeEmulated;
    private final boolean immediate;
    private final Capabilities caps;
    private final LayoutSchemes schemes;
    /** [data class][0 eager, 1 RGET range, 2 RPUT range]. */
    private final Protocol[][] table = new Protocol[DataClass.values().length][3];

    SelectionTable(Capabilities caps, long eagerLimit, long putFrom) {
        this(caps, eagerLimit, putFrom, LayoutSchemes.auto());
    }

    SelectionTable(Capabilities caps, long eagerLimit, long putFrom, LayoutSchemes schemes) {
        this.caps = caps;
        this.schemes = schemes;
        this.eagerLimit = eagerLimit;
        this.putFrom = putFrom;
        this.canRead = caps.has(Capability.RDMA_READ);
        this.claim = caps.has(Capability.EAGER_CLAIM);
        this.readEmulated = caps.has(Capability.RDMA_READ_EMULATED);
        this.writeEmulated = caps.has(Capability.RDMA_WRITE_EMULATED);
        this.immediate = caps.has(Capability.WRITE_WITH_IMMEDIATE);
        boolean write = caps.has(Capability.RDMA_WRITE);
        for (DataClass c : DataClass.values()) {
            Protocol[] row = table[c.ordinal()];
            row[0] = switch (c) {
                case CONTIGUOUS_NATIVE, CONTIGUOUS_HEAP -> Protocol.EAGER_COPY;
                case LAYOUT -> claim ? Protocol.EAGER_PACK_CLAIM : Protocol.EAGER_PACK;
            };
            row[1] = !canRead ? (write ? put(c) : Protocol.NONE) : get(c);
            row[2] = write ? put(c) : row[1];
        }
    }

    private static Protocol get(DataClass c) {
        return switch (c) {
            case CONTIGUOUS_NATIVE -> Protocol.RGET_ZCOPY;
            case CONTIGUOUS_HEAP -> Protocol.RGET_STAGED;
            case LAYOUT -> Protocol.RGET_PACKED;
        };
    }

    private static Protocol put(DataClass c) {
        return switch (c) {
            case CONTIGUOUS_NATIVE -> Protocol.RPUT_ZCOPY;
            case CONTIGUOUS_HEAP -> Protocol.RPUT_STAGED;
            case LAYOUT -> Protocol.RPUT_PACKED;
        };
    }

    /** The protocol for {@code size} bytes of data class {@code c}. */
    public Protocol select(DataClass c, long size) {
        Protocol[] row = table[c.ordinal()];
        if (size <= eagerLimit) {
            return row[0];
        }
        return size >= putFrom ? row[2] : row[1];
    }

    /**
     * The protocol for a message of {@code size} bytes laid out by {@code layout} over a base
     * that is native memory or not: eager as {@link #select}, and above it eager fragments or
     * the datatype scheme {@link LayoutSchemes} picks (multi-w writes from the blocks; otherwise
     * packed). A synchronous send never goes in fragments (they complete without the receiver).
     */
    public Protocol selectLayout(long size, Layout layout, boolean nativeBase,
                                 boolean synchronous) {
        if (size <= eagerLimit) {
            return table[DataClass.LAYOUT.ordinal()][0];
        }
        if (!synchronous && schemes.fragments(caps, layout, size)) {
            return Protocol.EAGER_FRAGMENTS;
        }
        return switch (schemes.senderChoice(caps, layout, nativeBase)) {
            case BLOCK_WRITES -> Protocol.RPUT_LAYOUT;
            case SEGMENTS_PACKED -> Protocol.RPUT_SEGMENTS_PACKED;
            case SEGMENTS_GATHERED -> Protocol.RPUT_SEGMENTS_GATHERED;
            case PACK_FOR_READ -> Protocol.RGET_PACKED;
            case PACK -> select(DataClass.LAYOUT, size);
        };
    }

    /** The receiver of an RPUT into {@code layout}: name its blocks in the CTS (multi-w). */
    boolean blocksInCts(Layout layout, boolean nativeBase) {
        return schemes.receiverBlocksInCts(caps, layout, nativeBase);
    }

    /** The receiver of an RGET into {@code layout}: scatter-read into its blocks (p-rrs). */
    boolean scatterReads(Layout layout, boolean nativeBase) {
        return schemes.receiverScatterReads(caps, layout, nativeBase);
    }

    /** A protocol as this peer runs it: emulated operations and how RPUT closes. */
    private String label(Protocol p) {
        if (p.put()) {
            return p + (writeEmulated ? " (emulated write)" : "")
                    + (immediate ? " closed by write-with-immediate" : " closed by FIN");
        }
        if (p.rendezvous() && p != Protocol.NONE) {
            return p + (readEmulated ? " (emulated read)" : "");
        }
        return p.toString();
    }

    /** The table as lines, for proto-info. */
    public String describe(String prefix) {
        StringBuilder sb = new StringBuilder();
        for (DataClass c : DataClass.values()) {
            Protocol[] row = table[c.ordinal()];
            sb.append(prefix).append(String.format("%-17s", c.name().toLowerCase()))
                    .append(" 0..").append(eagerLimit).append(" B: ").append(label(row[0]));
            long fragmentsUpTo = c == DataClass.LAYOUT ? schemes.fragmentsUpTo(caps) : 0;
            if (fragmentsUpTo > eagerLimit) {
                sb.append("; ").append(eagerLimit + 1).append("..").append(fragmentsUpTo)
                        .append(" B: ").append(label(Protocol.EAGER_FRAGMENTS))
                        .append("; above, by the datatype scheme: ").append(label(row[1]));
                if (putFrom != RendezvousPolicy.NEVER) {
                    sb.append(" (from ").append(putFrom).append(" B: ").append(label(row[2]))
                            .append(')');
                }
                sb.append('\n');
                continue;
            }
            if (putFrom > eagerLimit + 1) {
                sb.append("; ").append(eagerLimit + 1).append("..")
                        .append(putFrom == RendezvousPolicy.NEVER ? "" : (putFrom - 1) + " B")
                        .append(": ").append(label(row[1]));
            }
            if (putFrom != RendezvousPolicy.NEVER) {
                sb.append("; ").append(Math.max(putFrom, eagerLimit + 1)).append(".. B: ")
                        .append(label(row[2]));
            }
            sb.append('\n');
        }
        sb.append(prefix).append("datatype scheme above the eager limit: ")
                .append(schemes.describe(caps)).append('\n');
        return sb.toString();
    }
}
