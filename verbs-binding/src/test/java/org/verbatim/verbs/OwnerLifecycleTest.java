package org.verbatim.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.verbatim.verbs.raw.ibv_send_wr;
import org.verbatim.verbs.raw.ibv_sge;
import org.verbatim.verbs.raw.verbs_h_constants;

/** Close ordering, use after close, set-up failures without RDMA, and request patching. */
class OwnerLifecycleTest {

    /** A resource that records when it is released. */
    static final class Recorded extends NativeResource {
        private final String name;
        private final List<String> log;

        Recorded(NativeResource parent, String name, List<String> log) {
            super(parent);
            this.name = name;
            this.log = log;
            handle(MemorySegment.ofAddress(0x1000));
        }

        @Override
        void release(MemorySegment handle) {
            log.add(name);
        }
    }

    @Test
    void closeReleasesChildrenNewestFirstThenTheParent() {
        var log = new ArrayList<String>();
        var context = new Recorded(null, "context", log);
        var pd = new Recorded(context, "pd", log);
        new Recorded(context, "cq", log);
        new Recorded(pd, "srq", log);
        var qp = new Recorded(pd, "qp", log);
        context.close();
        assertEquals(List.of("cq", "qp", "srq", "pd", "context"), log);
        assertTrue(qp.isClosed());
        assertThrows(IllegalStateException.class, qp::handle);
        assertThrows(IllegalStateException.class, () -> new Recorded(context, "late", log));
        context.close();
        assertEquals(5, log.size(), "close is idempotent");
    }

    @Test
    void closedChildIsForgottenByItsParent() {
        var log = new ArrayList<String>();
        var context = new Recorded(null, "context", log);
        new Recorded(context, "pd", log).close();
        context.close();
        assertEquals(List.of("pd", "context"), log);
    }

    @Test
    void setUpFailsWithErrnoWithoutKernelSupport() {
        assumeFalse(Files.exists(Path.of("/sys/class/infiniband_verbs")), "the kernel has RDMA support");
        assertEquals(38, assertThrows(VerbsException.class, DeviceList::new).errno());
        assertEquals(19, assertThrows(VerbsException.class, EventChannel::new).errno());
    }

    @Test
    void sendRequestIsPatchedInPlace() {
        try (Arena arena = Arena.ofConfined()) {
            var request = new SendRequest(arena, 2);
            MemorySegment wr = request.segment();
            request.operation(42, verbs_h_constants.IBV_WR_RDMA_WRITE_WITH_IMM, verbs_h_constants.IBV_SEND_SIGNALED)
                    .entry(1, 0x7000, 64, 9).entries(2).remote(0x9000, 77).immediate(0x01020304);
            assertEquals(42, ibv_send_wr.wr_id(wr));
            assertEquals(2, ibv_send_wr.num_sge(wr));
            MemorySegment sge = ibv_send_wr.sg_list(wr).reinterpret(2 * ibv_sge.sizeof()).asSlice(ibv_sge.sizeof());
            assertEquals(0x7000, ibv_sge.addr(sge));
            assertEquals(64, ibv_sge.length(sge));
            assertEquals(9, ibv_sge.lkey(sge));
            MemorySegment rdma = ibv_send_wr.wr.rdma(ibv_send_wr.wr(wr));
            assertEquals(0x9000, ibv_send_wr.wr.rdma.remote_addr(rdma));
            assertEquals(77, ibv_send_wr.wr.rdma.rkey(rdma));
            assertEquals(0x04030201, ibv_send_wr.imm_data(wr), "immediate data is big-endian on the wire");
            assertThrows(IndexOutOfBoundsException.class, () -> request.entry(2, 0, 0, 0));
            assertThrows(IndexOutOfBoundsException.class, () -> request.entries(3));
        }
    }

    @Test
    void atomicRequestCarriesItsOperandsAndChainsEndInNull() {
        try (Arena arena = Arena.ofConfined()) {
            var first = new SendRequest(arena, 1);
            var second = new SendRequest(arena, 4);
            first.operation(1, verbs_h_constants.IBV_WR_ATOMIC_CMP_AND_SWP, verbs_h_constants.IBV_SEND_SIGNALED)
                    .entry(0, 0x5000, 8, 3).atomic(0xA000, 55, 7, 9).next(second);
            MemorySegment atomic = ibv_send_wr.wr.atomic(ibv_send_wr.wr(first.segment()));
            assertEquals(0xA000, ibv_send_wr.wr.atomic.remote_addr(atomic));
            assertEquals(55, ibv_send_wr.wr.atomic.rkey(atomic));
            assertEquals(7, ibv_send_wr.wr.atomic.compare_add(atomic));
            assertEquals(9, ibv_send_wr.wr.atomic.swap(atomic));
            assertEquals(second.address(), ibv_send_wr.next(first.segment()).address());
            assertEquals(0, ibv_send_wr.next(second.segment()).address(), "a new request ends its chain");
            first.next(null);
            assertEquals(0, ibv_send_wr.next(first.segment()).address());
            assertEquals(4, second.maxEntries());
        }
    }

    @Test
    void connectParametersAreCheckedAndCopied() {
        byte[] data = {1, 2, 3};
        var p = CmConnectParameters.DEFAULT.withReads(16).withPrivateData(data);
        data[0] = 9;
        assertEquals(16, p.initiatorDepth());
        assertEquals(16, p.responderResources());
        assertEquals(1, p.privateData()[0]);
        assertThrows(IllegalArgumentException.class, () -> p.withPrivateData(new byte[256]));
        assertThrows(IllegalArgumentException.class, () -> p.withReads(256));
        var c = new ConnectionParameters(1, 3, 5, 0, null, -1, 0, 0);
        assertEquals(1, c.readsOut());
        assertEquals(1, c.readsIn());
    }
}
