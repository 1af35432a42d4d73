package org.verbatim.spi.support;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.Access;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.MemoryRegistration;

/**
 * Refused accesses complete at the initiator with REMOTE_ACCESS_ERROR; the target throws
 * nothing and the endpoint keeps working.
 */
class ErrorCompletionTest {
    @Test
    void everyRefusedAccessCompletesWithRemoteAccessError() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            MemorySegment remote = h.arena.allocate(4096, 64);
            MemoryRegistration all = h.ranks[1].register(remote, Access.ALL);
            MemoryRegistration readOnly = h.ranks[1].register(remote, Access.REMOTE_READ);
            MemoryRegistration writeOnly = h.ranks[1].register(remote, Access.REMOTE_WRITE);
            MemoryRegistration closed = h.ranks[1].register(remote, Access.ALL);
            closed.close();
            MemorySegment big = h.pattern(1000, 1);
            MemorySegment word = h.arena.allocate(8, 8);
            long a = remote.address();
            EmulatedEndpoint e = h.endpoint(0, 1);
            long k = all.remoteKey();
            Runnable[] posts = {
                () -> h.post(() -> e.write(big, a, 0x1234_5678L, 1)),                  // unknown key
                () -> h.post(() -> e.write(big, a, closed.remoteKey(), 2)),            // closed
                () -> h.post(() -> e.write(big, a + 3500, k, 3)),                      // runs past end
                () -> h.post(() -> e.write(big, a - 1, k, 4)),                         // starts before
                () -> h.post(() -> e.read(big, a + 3500, k, 5)),                       // read past end
                () -> h.post(() -> e.write(big, a, readOnly.remoteKey(), 6)),          // no write right
                () -> h.post(() -> e.read(big, a, writeOnly.remoteKey(), 7)),          // no read right
                () -> h.post(() -> e.fetchAndAdd(word, a, readOnly.remoteKey(), 1, 8)), // no atomic
                () -> h.post(() -> e.compareAndSwap(word, a + 4096, k, 0, 1, 9)),     // past end
                () -> h.post(() -> e.writeWithImmediate(big, a + 4000, k, 77, 10)),  // no immediate
            };
            for (Runnable post : posts) {
                post.run();
            }
            for (long wrId = 1; wrId <= posts.length; wrId++) {
                assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, h.awaitCompletion(0, wrId),
                        "work request " + wrId);
            }
            assertTrue(h.recorders[1].immediates.isEmpty(), "immediate of a refused write delivered");
            h.post(() -> e.write(big, a + 100, k, 20));
            assertEquals(CompletionStatus.OK, h.awaitCompletion(0, 20), "the endpoint still works");
            assertArrayEquals(EmulationHarness.array(big),
                    EmulationHarness.array(remote.asSlice(100, 1000)));
            assertTrue(h.recorders[1].received.isEmpty());
        }
    }

    @Test
    void zeroLengthAccessesAreCheckedToo() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            MemorySegment remote = h.arena.allocate(64, 8);
            MemoryRegistration reg = h.ranks[1].register(remote, Access.ALL);
            MemorySegment empty = h.arena.allocate(8, 8).asSlice(0, 0);
            EmulatedEndpoint e = h.endpoint(0, 1);
            h.post(() -> e.write(empty, remote.address() + 64, reg.remoteKey(), 1));
            h.post(() -> e.read(empty, remote.address(), 999, 2));
            assertEquals(CompletionStatus.OK, h.awaitCompletion(0, 1), "empty write at the end");
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, h.awaitCompletion(0, 2), "unknown key");
        }
    }
}
