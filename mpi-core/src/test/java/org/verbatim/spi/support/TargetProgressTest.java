package org.verbatim.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.Access;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;

/** What the *_EMULATED flags say: the target has to progress; and a peer's failure. */
class TargetProgressTest {
    @Test
    void capabilitiesSayEmulated() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            Capabilities caps = h.ranks[0].capabilities();
            for (Capability c : new Capability[] {Capability.RDMA_WRITE, Capability.RDMA_WRITE_EMULATED,
                    Capability.RDMA_READ, Capability.RDMA_READ_EMULATED, Capability.ATOMICS,
                    Capability.ATOMICS_EMULATED, Capability.WRITE_WITH_IMMEDIATE, Capability.FLUSH,
                    Capability.WRITE_GATHER, Capability.READ_SCATTER, Capability.SEND_RECV}) {
                assertTrue(caps.has(c), c.name());
            }
            assertTrue(!caps.hasNativeRdmaWrite() && !caps.hasNativeRdmaRead() && !caps.hasNativeAtomics());
            assertTrue(!caps.has(Capability.IN_ORDER_PLACEMENT) && !caps.has(Capability.LIST_POST));
            assertEquals(RdmaEmulation.DEFAULT_MAX_IOV, caps.put().maxIov());
            assertEquals(0, caps.put().maxZeroCopy(), "copies, not zero-copy");
        }
    }

    @Test
    void nothingCompletesWhileTheTargetDoesNotProgress() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            MemorySegment remote = h.arena.allocate(4096, 64);
            MemoryRegistration reg = h.ranks[1].register(remote, Access.ALL);
            MemorySegment local = h.pattern(1000, 2);
            MemorySegment word = h.arena.allocate(8, 8);
            EmulatedEndpoint e = h.endpoint(0, 1);
            assertEquals(PostStatus.OK, e.write(local, remote.address(), reg.remoteKey(), 1));
            assertEquals(PostStatus.OK, e.read(local, remote.address() + 2000, reg.remoteKey(), 2));
            assertEquals(PostStatus.OK, e.fetchAndAdd(word, remote.address(), reg.remoteKey(), 1, 3));
            assertEquals(PostStatus.OK, e.flush(4));
            h.assertNoCompletion(0, 1, 200, 0);
            assertTrue(h.recorders[0].completions.isEmpty());
            for (long wrId = 1; wrId <= 4; wrId++) {
                assertEquals(CompletionStatus.OK, h.awaitCompletion(0, wrId));
            }
        }
    }

    @Test
    void peerFailureCompletesItsOperationsWithPeerGone() {
        try (EmulationHarness h = new EmulationHarness(3)) {
            MemorySegment remote = h.arena.allocate(4096, 64);
            MemoryRegistration reg = h.ranks[1].register(remote, Access.ALL);
            MemorySegment local = h.pattern(3000, 2);
            assertEquals(PostStatus.OK, h.endpoint(0, 1).write(local, remote.address(), reg.remoteKey(), 1));
            assertEquals(PostStatus.OK, h.endpoint(0, 1).flush(2));
            assertEquals(PostStatus.OK, h.endpoint(0, 2).flush(3));
            h.ranks[0].emulation().handler().onPeerFailure(1, "test");
            assertEquals(CompletionStatus.PEER_GONE, h.recorders[0].completions.get(1L));
            assertEquals(CompletionStatus.PEER_GONE, h.recorders[0].completions.get(2L));
            assertEquals(1, h.recorders[0].failures.size(), "the failure reaches the runtime");
            assertEquals(0, h.ranks[0].emulation().operationsInFlight());
            h.progress(0);
            assertEquals(CompletionStatus.OK, h.recorders[0].completions.get(3L));
        }
    }
}
