package org.verbatim.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.verbatim.runtime.p2p.SelectionTable.DataClass;
import org.verbatim.runtime.p2p.SelectionTable.Protocol;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.OperationLimits;

/** The per-peer protocol choice by data class and size range. */
class SelectionTableTest {
    private static Capabilities caps(Capability... flags) {
        return Capabilities.builder().flag(Capability.SEND_RECV).flag(flags)
                .send(new OperationLimits(0, 8192, 0, 2))
                .put(new OperationLimits(0, 0, 1 << 20, 1))
                .get(new OperationLimits(0, 0, 1 << 20, 1)).readsInFlight(4).build();
    }

    @Test
    void sizeRangesSelectEagerThenRgetThenRput() {
        SelectionTable t = new SelectionTable(caps(Capability.RDMA_READ, Capability.RDMA_WRITE),
                1000, 5000);
        assertEquals(Protocol.EAGER_COPY, t.select(DataClass.CONTIGUOUS_NATIVE, 1000));
        assertEquals(Protocol.RGET_ZCOPY, t.select(DataClass.CONTIGUOUS_NATIVE, 1001));
        assertEquals(Protocol.RGET_STAGED, t.select(DataClass.CONTIGUOUS_HEAP, 4999));
        assertEquals(Protocol.RPUT_ZCOPY, t.select(DataClass.CONTIGUOUS_NATIVE, 5000));
        assertEquals(Protocol.RPUT_PACKED, t.select(DataClass.LAYOUT, 1 << 20));
        assertEquals(Protocol.EAGER_PACK, t.select(DataClass.LAYOUT, 10));
    }

    @Test
    void aClaimingTransportPacksLayoutsInPlace() {
        SelectionTable t = new SelectionTable(caps(Capability.RDMA_READ, Capability.EAGER_CLAIM),
                1000, RendezvousPolicy.NEVER);
        assertEquals(Protocol.EAGER_PACK_CLAIM, t.select(DataClass.LAYOUT, 1000));
        assertEquals(Protocol.RGET_PACKED, t.select(DataClass.LAYOUT, 1 << 30));
    }

    @Test
    void withoutReadOrWriteLargeMessagesHaveNoProtocolAndTheTableSaysSo() {
        SelectionTable t = new SelectionTable(caps(), 1000, RendezvousPolicy.NEVER);
        assertEquals(Protocol.NONE, t.select(DataClass.CONTIGUOUS_NATIVE, 1001));
        assertTrue(t.describe("").contains(Protocol.NONE.toString()), t.describe(""));
    }

    @Test
    void writeOnlyTransportsUseRputAndTheTableNamesEmulationAndClosing() {
        SelectionTable t = new SelectionTable(caps(Capability.RDMA_WRITE,
                Capability.RDMA_WRITE_EMULATED), 1000, 0);
        assertEquals(Protocol.RPUT_STAGED, t.select(DataClass.CONTIGUOUS_HEAP, 2000));
        String text = t.describe("");
        assertTrue(text.contains("RPUT zero-copy (emulated write) closed by FIN"), text);
    }
}
