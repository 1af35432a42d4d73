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
}
