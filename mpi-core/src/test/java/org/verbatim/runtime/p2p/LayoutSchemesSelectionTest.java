package org.verbatim.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.p2p.LayoutSchemes.SenderChoice;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.OperationLimits;

/** The datatype scheme selection table (docs/architecture.md, "Datatype schemes"). */
class LayoutSchemesSelectionTest {
    private static Capabilities caps(int maxIov, Capability... flags) {
        return Capabilities.builder().flag(Capability.SEND_RECV).flag(flags)
                .send(new OperationLimits(0, 8192, 0, 2))
                .put(new OperationLimits(0, 0, 1 << 20, maxIov))
                .get(new OperationLimits(0, 0, 1 << 20, maxIov)).readsInFlight(4).build();
    }

    private static final Capabilities ADAPTER = caps(16, Capability.RDMA_READ,
            Capability.RDMA_WRITE, Capability.WRITE_WITH_IMMEDIATE, Capability.WRITE_GATHER);
    private static final Capabilities ADAPTER_NO_GATHER = caps(1, Capability.RDMA_READ,
            Capability.RDMA_WRITE);
    private static final Capabilities CMA = caps(1024, Capability.RDMA_READ, Capability.RDMA_WRITE,
            Capability.WRITE_GATHER, Capability.READ_SCATTER, Capability.RDMA_BY_CPU);
    private static final Capabilities EMULATED = caps(64, Capability.RDMA_READ,
            Capability.RDMA_WRITE, Capability.RDMA_READ_EMULATED, Capability.RDMA_WRITE_EMULATED,
            Capability.WRITE_GATHER);

    /** 100 blocks of {@code block} bytes, except 10 of 8 bytes: the median is {@code block}. */
    private static Layout blocks(long block) {
        long[] o = new long[110];
        long[] l = new long[110];
        for (int i = 0; i < 110; i++) {
            o[i] = i * (block + 64);
            l[i] = i < 10 ? 8 : block;
        }
        return new BlockList(o, l);
    }

    @Test
    void autoPicksByTheMedianBlockAndTheTransport() {
        LayoutSchemes auto = LayoutSchemes.auto();
        assertEquals(SenderChoice.BLOCK_WRITES, auto.senderChoice(ADAPTER, blocks(4096), true));
        assertEquals(SenderChoice.SEGMENTS_GATHERED, auto.senderChoice(ADAPTER, blocks(512), true));
        assertEquals(SenderChoice.SEGMENTS_PACKED, auto.senderChoice(ADAPTER, blocks(64), true));
        // heap memory cannot be written from or gathered: packed segments
        assertEquals(SenderChoice.SEGMENTS_PACKED, auto.senderChoice(ADAPTER, blocks(4096), false));
        assertEquals(SenderChoice.SEGMENTS_PACKED,
                auto.senderChoice(ADAPTER_NO_GATHER, blocks(512), true));
        assertEquals(SenderChoice.PACK, auto.senderChoice(CMA, blocks(4096), true));
        assertEquals(SenderChoice.PACK, auto.senderChoice(EMULATED, blocks(4096), true));
        // receivers: multi-w's CTS blocks over an adapter, p-rrs over CMA
        assertTrue(auto.receiverBlocksInCts(ADAPTER, blocks(4096), true));
        assertFalse(auto.receiverBlocksInCts(ADAPTER, blocks(512), true));
        assertFalse(auto.receiverBlocksInCts(CMA, blocks(4096), true));
        assertTrue(auto.receiverScatterReads(CMA, blocks(8192), true));
        assertFalse(auto.receiverScatterReads(CMA, blocks(4096), true));
        assertTrue(auto.receiverScatterReads(ADAPTER, blocks(4096), true));
        assertFalse(auto.receiverScatterReads(CMA, blocks(8192), false));
    }

    @Test
    void theMedianNotTheMeanDecides() {
        // 1 huge block and 9 small ones: a large mean, a small median
        long[] o = new long[10];
        long[] l = new long[10];
        for (int i = 0; i < 10; i++) {
            o[i] = i * 1_000_000L;
            l[i] = i == 0 ? 900_000 : 16;
        }
        Layout skewed = new BlockList(o, l);
        assertEquals(16.0, skewed.medianBlock());
        assertEquals(SenderChoice.SEGMENTS_PACKED,
                LayoutSchemes.auto().senderChoice(ADAPTER, skewed, true));
    }

    @Test
    void forcedSchemesFallBackWhereTheirOperationIsMissing() {
        Capabilities readOnly = caps(1, Capability.RDMA_READ);
        LayoutSchemes rwg = LayoutSchemes.parse("rwg-up", -1, "s");
        assertEquals(SenderChoice.SEGMENTS_GATHERED, rwg.senderChoice(CMA, blocks(64), true));
        assertEquals(SenderChoice.SEGMENTS_PACKED, rwg.senderChoice(CMA, blocks(64), false));
        assertEquals(SenderChoice.PACK, rwg.senderChoice(readOnly, blocks(64), true));
        LayoutSchemes bc = LayoutSchemes.parse("bc-spup", -1, "s");
        assertEquals(SenderChoice.SEGMENTS_PACKED, bc.senderChoice(EMULATED, blocks(64), false));
        assertEquals(SenderChoice.PACK, bc.senderChoice(readOnly, blocks(64), true));
        assertEquals(SenderChoice.PACK,
                LayoutSchemes.parse("multi-w", -1, "s").senderChoice(CMA, blocks(64), false));
        assertEquals(SenderChoice.PACK_FOR_READ,
                LayoutSchemes.parse("p-rrs", -1, "s").senderChoice(CMA, blocks(64), true));
    }

    @Test
    void segmentsAreCutForOverlapWithinThePoolsSegment() {
        LayoutSchemes s = LayoutSchemes.auto();
        assertEquals(8192, s.segmentFor(20_000)); // small: 8 KiB pieces
        assertEquals(32768, s.segmentFor(128 << 10)); // 4 segments
        assertEquals(128 << 10, s.segmentFor(16 << 20)); // capped by the pool's segment
        assertEquals(1000, LayoutSchemes.parse("bc-spup", -1, 4096, 1000, "s").segmentFor(1 << 20));
    }

    @Test
    void badSettingsAreRefusedBeforeAnythingIsSent() {
        assertThrows(MpiError.class, () -> LayoutSchemes.parse("rwg", -1, "scheme"));
        assertThrows(MpiError.class, () -> LayoutSchemes.parse("auto", -1, 1000, 4096, "s"));
        assertThrows(MpiError.class, () -> LayoutSchemes.parse("auto", -1, 1 << 20, 32, "s"));
    }

    private static final Capabilities CMA_CLAIM = caps(1024, Capability.RDMA_READ,
            Capability.RDMA_WRITE, Capability.READ_SCATTER, Capability.RDMA_BY_CPU,
            Capability.EAGER_CLAIM);
    private static final Capabilities ADAPTER_CLAIM = caps(16, Capability.RDMA_READ,
            Capability.RDMA_WRITE, Capability.EAGER_CLAIM);

    @Test
    void eagerFragmentsWhereRecordsCanBeClaimed() {
        LayoutSchemes auto = LayoutSchemes.auto();
        // auto: CPU copies, small median block, within the limit
        assertTrue(auto.fragments(CMA_CLAIM, blocks(256), 32 << 10));
        assertTrue(auto.fragments(CMA_CLAIM, blocks(4096), LayoutSchemes.DEFAULT_FRAGMENT_LIMIT));
        assertFalse(auto.fragments(CMA_CLAIM, blocks(4096),
                LayoutSchemes.DEFAULT_FRAGMENT_LIMIT + 1));
        assertTrue(auto.fragments(CMA_CLAIM, blocks(8192), 32 << 10)); // any median block
        assertFalse(auto.fragments(CMA, blocks(256), 32 << 10)); // no claim
        assertFalse(auto.fragments(ADAPTER_CLAIM, blocks(256), 32 << 10)); // adapter: the paper's
        assertFalse(auto.withFragmentLimit(0).fragments(CMA_CLAIM, blocks(256), 32 << 10));
        // forced: any median, any transport that claims, still within the limit
        LayoutSchemes forced = LayoutSchemes.parse("fragments", -1, "s");
        assertTrue(forced.fragments(ADAPTER_CLAIM, blocks(65536), 1 << 20));
        assertFalse(forced.fragments(ADAPTER_CLAIM, blocks(64), (1 << 20) + 1));
        assertFalse(forced.fragments(CMA, blocks(64), 1000));
        assertEquals(SenderChoice.PACK, forced.senderChoice(CMA_CLAIM, blocks(64), true));
        assertFalse(LayoutSchemes.parse("generic", -1, "s").fragments(CMA_CLAIM, blocks(64), 1000));
        assertThrows(MpiError.class, () -> auto.withFragmentLimit(-1));
    }

    @Test
    void theSelectionTableSendsSynchronousMessagesWhole() {
        SelectionTable t = new SelectionTable(CMA_CLAIM, 1000, RendezvousPolicy.NEVER,
                LayoutSchemes.auto());
        assertEquals(SelectionTable.Protocol.EAGER_FRAGMENTS,
                t.selectLayout(5000, blocks(256), true, false));
        assertEquals(SelectionTable.Protocol.RGET_PACKED,
                t.selectLayout(5000, blocks(256), true, true));
        assertEquals(SelectionTable.Protocol.EAGER_PACK_CLAIM,
                t.selectLayout(1000, blocks(256), true, false));
        assertFalse(SelectionTable.Protocol.EAGER_FRAGMENTS.rendezvous());
        String text = t.describe("");
        assertTrue(text.contains("layout            0..1000 B: eager, packed straight into the"
                + " claimed slot; 1001..1048576 B: eager fragments"), text);
        assertFalse(new SelectionTable(CMA_CLAIM, 1000, RendezvousPolicy.NEVER,
                LayoutSchemes.parse("generic", -1, "s")).describe("").contains("fragments"));
    }
}
