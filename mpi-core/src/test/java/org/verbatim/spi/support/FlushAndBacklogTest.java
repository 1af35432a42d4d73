package org.verbatim.spi.support;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.verbatim.spi.support.EmulationHarness.array;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.Access;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;

/** Flush ordering, the backlog under RETRY, the operation table, and sends behind the backlog. */
class FlushAndBacklogTest {
    @Test
    void flushCompletesAfterEveryEarlierOperation() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            MemorySegment remote = h.arena.allocate(60_000, 64);
            MemoryRegistration reg = h.ranks[1].register(remote, Access.ALL);
            MemorySegment data = h.pattern(50_000, 3);
            MemorySegment back = h.arena.allocate(100, 8);
            MemorySegment word = h.arena.allocate(8, 8);
            EmulatedEndpoint e = h.endpoint(0, 1);
            List<String> problems = new ArrayList<>();
            h.recorders[0].completionOrder.clear();
            assertEquals(PostStatus.OK, e.write(data, remote.address(), reg.remoteKey(), 1));
            assertEquals(PostStatus.OK, e.read(back, remote.address(), reg.remoteKey(), 2));
            assertEquals(PostStatus.OK, e.fetchAndAdd(word, remote.address() + 50_000, reg.remoteKey(), 5, 3));
            assertEquals(PostStatus.OK, e.accumulate(data.asSlice(0, 800), remote.address() + 51_000,
                    reg.remoteKey(), ElementKind.INT64, ReduceOp.BXOR, 4));
            assertEquals(PostStatus.OK, e.flush(99));
            assertEquals(PostStatus.OK, e.write(data.asSlice(0, 10), remote.address(), reg.remoteKey(), 5));
            assertEquals(CompletionStatus.OK, h.awaitCompletion(0, 99));
            assertEquals(List.of(1L, 2L, 3L, 4L, 99L), h.recorders[0].completionOrder.subList(0, 5));
            assertArrayEquals(array(data), array(remote.asSlice(0, 50_000)));
            assertEquals(CompletionStatus.OK, h.awaitCompletion(0, 5));
            assertEquals(List.of(), problems);
        }
    }

    @Test
    void flushWithNothingOutstandingCompletesAtTheNextProgress() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            assertEquals(PostStatus.OK, h.endpoint(0, 1).flush(7));
            assertTrue(h.recorders[0].completions.isEmpty(), "completed inside the post call");
            h.progress(0);
            assertEquals(CompletionStatus.OK, h.recorders[0].completions.get(7L));
        }
    }

    @Test
    void backlogAbsorbsRetryAndDrainsInProgress() {
        try (EmulationHarness h = new EmulationHarness(2, 256, 2, 1024)) {
            MemorySegment remote = h.arena.allocate(20 * 5000, 64);
            MemoryRegistration reg = h.ranks[1].register(remote, Access.ALL);
            MemorySegment data = h.pattern(20 * 5000, 8);
            for (int i = 0; i < 20; i++) {
                assertEquals(PostStatus.OK, h.endpoint(0, 1).write(data.asSlice(5000L * i, 5000),
                        remote.address() + 5000L * i, reg.remoteKey(), i), "post " + i);
            }
            assertFalse(h.ranks[0].emulation().idle(), "a queue of 2 cannot hold 20 writes");
            assertEquals(20, h.ranks[0].emulation().operationsInFlight());
            h.await(() -> h.recorders[0].completions.size() == 20, "20 writes");
            assertArrayEquals(array(data), array(remote));
            for (int i = 0; i < 20; i++) {
                assertEquals((long) i, h.recorders[0].completionOrder.get(i));
            }
            assertTrue(h.ranks[0].emulation().idle());
            assertEquals(0, h.ranks[0].emulation().operationsInFlight());
        }
    }

    @Test
    void fullOperationTableIsRetry() {
        try (EmulationHarness h = new EmulationHarness(2, 256, 64, 4)) {
            MemorySegment remote = h.arena.allocate(64, 8);
            MemoryRegistration reg = h.ranks[1].register(remote, Access.ALL);
            MemorySegment data = h.pattern(8, 1);
            EmulatedEndpoint e = h.endpoint(0, 1);
            for (int i = 0; i < 4; i++) {
                assertEquals(PostStatus.OK, e.write(data, remote.address(), reg.remoteKey(), i));
            }
            assertEquals(PostStatus.RETRY, e.write(data, remote.address(), reg.remoteKey(), 4));
            assertEquals(PostStatus.RETRY, e.read(data, remote.address(), reg.remoteKey(), 4));
            h.awaitCompletion(0, 0);
            assertEquals(PostStatus.OK, e.read(data, remote.address(), reg.remoteKey(), 4));
            h.awaitCompletion(0, 4);
        }
    }

    @Test
    void sendWaitsBehindTheBacklogAndArrivesAfterTheData() {
        try (EmulationHarness h = new EmulationHarness(2, 256, 2, 1024)) {
            MemorySegment remote = h.arena.allocate(5000, 64);
            MemoryRegistration reg = h.ranks[1].register(remote, Access.ALL);
            MemorySegment data = h.pattern(5000, 4);
            List<String> problems = new ArrayList<>();
            h.recorders[1].receiveHook = m -> {
                if (!java.util.Arrays.equals(array(data), array(remote))) {
                    problems.add("message overtook the write");
                }
            };
            EmulatedEndpoint e = h.endpoint(0, 1);
            assertEquals(PostStatus.OK, e.write(data, remote.address(), reg.remoteKey(), 1));
            MemorySegment message = MemorySegment.ofArray(new byte[] {1, 2, 3});
            assertEquals(PostStatus.RETRY, e.send(message, MemorySegment.ofArray(new byte[0])));
            h.post(() -> e.send(message, MemorySegment.ofArray(new byte[0])));
            h.await(() -> h.recorders[1].received.size() == 1, "the message");
            assertEquals(List.of(), problems);
            assertArrayEquals(new byte[] {1, 2, 3}, h.recorders[1].received.get(0));
        }
    }

    @Test
    void messagesBeginningWithReservedBytesPassThroughUnchanged() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            int max = h.ranks[0].capabilities().maxEager();
            assertEquals(255, max, "one byte goes to the escape");
            byte[] full = EmulationHarness.bytes(max, 1);
            full[0] = (byte) 0xF0;
            byte[][] headers = {{(byte) 0xF5, 1, 2}, {}, {}, {(byte) 0xF0}, {1}};
            byte[][] payloads = {{3}, {(byte) 0xFF, 9}, full, {}, {(byte) 0xF8}};
            EmulatedEndpoint e = h.endpoint(0, 1);
            for (int i = 0; i < headers.length; i++) {
                MemorySegment hd = MemorySegment.ofArray(headers[i]);
                MemorySegment pl = MemorySegment.ofArray(payloads[i]);
                h.post(() -> e.send(hd, pl));
            }
            h.await(() -> h.recorders[1].received.size() == headers.length, "the messages");
            for (int i = 0; i < headers.length; i++) {
                byte[] expected = new byte[headers[i].length + payloads[i].length];
                System.arraycopy(headers[i], 0, expected, 0, headers[i].length);
                System.arraycopy(payloads[i], 0, expected, headers[i].length, payloads[i].length);
                assertArrayEquals(expected, h.recorders[1].received.get(i), "message " + i);
                assertEquals(0, h.recorders[1].sources.get(i));
            }
        }
    }
}
