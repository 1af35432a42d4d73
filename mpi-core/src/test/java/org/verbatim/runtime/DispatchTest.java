package org.verbatim.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.ext.Dispatch;
import org.verbatim.runtime.ext.Retryable;
import org.verbatim.runtime.p2p.WireHeader;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.PostStatus;

/** The runtime's extension registry: kinds, immediate ranges, tracked completions, pending work. */
class DispatchTest {
    private static final Map<String, String> CONFIG = Map.of("verbatim.core.idle", "backoff");

    @Test
    void anExtensionKindReachesItsHandlerAndAnUnknownKindEndsTheJob() throws Exception {
        InJvmJob.run(2, CONFIG, 0, new LoopbackFabric(2, 8, 2048), p -> {
            Engine e = p.engine();
            AtomicInteger got = new AtomicInteger(-1);
            int kind = e.allocateKind("test", (src, m, at, len) ->
                    got.set(m.get(ValueLayout.JAVA_INT_UNALIGNED, at + 4)));
            assertTrue(kind >= Dispatch.FIRST_EXTENSION_KIND && kind <= Dispatch.LAST_EXTENSION_KIND);
            Agreement.barrier(e, 1, InJvmJob.identity(2), p.rank());
            if (p.rank() == 0) {
                MemorySegment msg = MemorySegment.ofArray(new byte[8]);
                msg.set(ValueLayout.JAVA_BYTE, 0, (byte) kind);
                msg.set(ValueLayout.JAVA_INT_UNALIGNED, 4, 4242);
                assertEquals(PostStatus.OK, e.endpoint(1).send(msg, MemorySegment.ofArray(new byte[0])));
            } else {
                e.awaitCondition(() -> got.get() >= 0);
                assertEquals(4242, got.get());
            }
            Agreement.barrier(e, 1, InJvmJob.identity(2), p.rank());
        });
        MpiError failure = assertThrows(MpiError.class, () -> {
            Engine e = new Engine(0, 1, 1024, 2, 0, IdleStrategy.SPIN, new org.verbatim.runtime.base.Profiler(false), false);
            e.onReceive(3, MemorySegment.ofArray(new byte[] {(byte) 0xE7, 0, 0, 0}));
        });
        assertTrue(failure.getMessage().contains("unknown kind 231"), failure.getMessage());
        assertTrue(failure.getMessage().contains("rank 3"), failure.getMessage());
    }

    @Test
    void kindsAreRegisteredOnceAndTheTransportRangeIsRefused() {
        Engine e = newEngine();
        assertThrows(IllegalStateException.class,
                () -> e.registerKind(WireHeader.EAGER, "again", (s, m, a, l) -> { }));
        assertThrows(IllegalArgumentException.class,
                () -> e.registerKind(0xF3, "transport range", (s, m, a, l) -> { }));
        assertThrows(IllegalArgumentException.class,
                () -> e.registerKind(0, "zero", (s, m, a, l) -> { }));
    }

    @Test
    void thePreferredKindReachesItsHandlerAndTheOthersStillReachTheirs() {
        Engine e = newEngine();
        List<String> seen = new ArrayList<>();
        int a = e.allocateKind("a", (s, m, at, l) -> seen.add("a" + s + ":" + l));
        int b = e.allocateKind("b", (s, m, at, l) -> seen.add("b" + s + ":" + l));
        e.preferKind(a);
        e.onReceive(1, MemorySegment.ofArray(new byte[] {(byte) a, 0, 0}));
        e.onReceive(2, MemorySegment.ofArray(new byte[] {(byte) b, 0}));
        e.preferKind(b);
        e.onReceive(3, MemorySegment.ofArray(new byte[] {(byte) a}));
        e.onReceive(4, MemorySegment.ofArray(new byte[] {0, (byte) b, 0, 0}), 1, 3);
        assertEquals(List.of("a1:3", "b2:2", "a3:1", "b4:3"), seen);
        assertThrows(IllegalArgumentException.class, () -> e.preferKind(b + 1)); // no handler
        assertThrows(IllegalArgumentException.class, () -> e.preferKind(0xF3)); // transports'
        MpiError failure = assertThrows(MpiError.class,
                () -> e.onReceive(5, MemorySegment.ofArray(new byte[] {(byte) (b + 1)})));
        assertTrue(failure.getMessage().contains("unknown kind " + (b + 1)), failure.getMessage());
    }

    @Test
    void immediateRangesMayNotOverlapAndAnUnclaimedImmediateIsAnError() {
        Engine e = newEngine();
        // RPUT owns bit 31: a range inside it is refused, one beside it is taken.
        assertThrows(IllegalStateException.class,
                () -> e.registerImmediates(0x8000_0100, 0x8000_FF00, "inside RPUT", (s, i) -> { }));
        List<Integer> seen = new ArrayList<>();
        e.registerImmediates(0x4000_0000, 0xC000_0000, "fence", (s, i) -> seen.add(i));
        assertThrows(IllegalStateException.class,
                () -> e.registerImmediates(0x4000_0001, 0xC000_00FF, "overlap", (s, i) -> { }));
        e.onImmediate(1, 0x4000_0007);
        assertEquals(List.of(0x4000_0007), seen);
        MpiError err = assertThrows(MpiError.class, () -> e.onImmediate(1, 0x0000_0005));
        assertTrue(err.getMessage().contains("no registered range"), err.getMessage());
    }

    @Test
    void trackedCompletionsCallBackWithTheirStatus() {
        Engine e = newEngine();
        List<String> seen = new ArrayList<>();
        long id = e.track((wrId, status) -> seen.add(wrId + ":" + status));
        e.onComplete(id, CompletionStatus.REMOTE_ACCESS_ERROR);
        assertEquals(List.of(id + ":" + CompletionStatus.REMOTE_ACCESS_ERROR), seen);
        e.untrack(id);
        MpiError err = assertThrows(MpiError.class, () -> e.onComplete(id, CompletionStatus.OK));
        assertTrue(err.getMessage().contains("nobody tracks"), err.getMessage());
    }

    @Test
    void pendingWorkKeepsEachPeersOrder() {
        PendingQueue q = new PendingQueue(2);
        List<String> order = new ArrayList<>();
        boolean[] peer0Ready = {false};
        q.add(item(0, "a", () -> peer0Ready[0], order));
        q.add(item(0, "b", () -> true, order));
        q.add(item(1, "c", () -> true, order));
        q.add(item(-1, "d", () -> true, order));
        assertEquals(2, q.retryAll(), "c and d go, b waits behind a");
        assertEquals(List.of("c", "d"), order);
        assertEquals(2, q.orderedFor(0));
        peer0Ready[0] = true;
        assertEquals(2, q.retryAll());
        assertEquals(List.of("c", "d", "a", "b"), order);
        assertEquals(0, q.orderedFor(0));
        assertTrue(q.isEmpty());
    }

    private static Retryable item(int peer, String name, java.util.function.BooleanSupplier ready,
                                  List<String> order) {
        return new Retryable() {
            @Override
            public boolean retry() {
                if (ready.getAsBoolean()) {
                    order.add(name);
                    return true;
                }
                return false;
            }

            @Override
            public int orderedPeer() {
                return peer;
            }
        };
    }

    private static Engine newEngine() {
        return new Engine(0, 2, 1024, 2, 0, IdleStrategy.SPIN,
                new org.verbatim.runtime.base.Profiler(false), false);
    }
}
