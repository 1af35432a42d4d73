package org.verbatim.spi.support;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.PostStatus;

/**
 * Ranks of one in-JVM job on {@link QueueTransport}s, driven from one test thread: each call
 * that waits progresses the ranks it is told to (all by default), so a test decides exactly which
 * targets make progress.
 */
final class EmulationHarness implements AutoCloseable {
    static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    final Arena arena = Arena.ofShared();
    final QueueTransport[] ranks;
    final Recorder[] recorders;
    private final String jobId = UUID.randomUUID().toString();

    EmulationHarness(int size) {
        this(size, 256, 64, RdmaEmulation.DEFAULT_MAX_OPERATIONS);
    }

    EmulationHarness(int size, int maxEager, int capacity, int maxOperations) {
        QueueTransport.Fabric fabric = QueueTransport.fabric(jobId, size, maxEager, capacity);
        ranks = new QueueTransport[size];
        recorders = new Recorder[size];
        for (int r = 0; r < size; r++) {
            recorders[r] = new Recorder();
            ranks[r] = new QueueTransport(r, fabric, recorders[r], maxOperations);
        }
    }

    EmulatedEndpoint endpoint(int from, int to) {
        return ranks[from].endpoint(to);
    }

    /** Native memory filled with a reproducible pattern. */
    MemorySegment pattern(long length, int seed) {
        MemorySegment m = arena.allocate(Math.max(1, length), 64).asSlice(0, length);
        m.copyFrom(MemorySegment.ofArray(bytes((int) length, seed)));
        return m;
    }

    static byte[] bytes(int length, int seed) {
        byte[] b = new byte[length];
        int x = seed * 0x9E3779B1 + 1;
        for (int i = 0; i < length; i++) {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            b[i] = (byte) x;
        }
        return b;
    }

    static byte[] array(MemorySegment m) {
        return m.toArray(ValueLayout.JAVA_BYTE);
    }

    /** One progress pass over {@code which} (every rank when empty); the work done. */
    int progress(int... which) {
        int work = 0;
        if (which.length == 0) {
            for (QueueTransport t : ranks) {
                work += t.progress();
            }
        } else {
            for (int r : which) {
                work += ranks[r].progress();
            }
        }
        return work;
    }

    /** Posts, progressing every rank while the post says RETRY. */
    void post(IntSupplier op) {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (op.getAsInt() == PostStatus.RETRY) {
            progress();
            check(deadline, "a post accepted");
        }
    }

    void await(BooleanSupplier done, String what, int... which) {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (!done.getAsBoolean()) {
            progress(which);
            check(deadline, what);
        }
    }

    /** Waits for the completion of {@code wrId} at {@code rank}; returns its status. */
    int awaitCompletion(int rank, long wrId, int... which) {
        await(() -> recorders[rank].completions.containsKey(wrId),
                "completion of " + wrId + " at rank " + rank, which);
        return recorders[rank].completions.get(wrId);
    }

    /** Progresses {@code which} for {@code millis} and checks {@code wrId} did not complete. */
    void assertNoCompletion(int rank, long wrId, long millis, int... which) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() - end < 0) {
            progress(which);
            assertFalse(recorders[rank].completions.containsKey(wrId),
                    "work request " + wrId + " completed without the target's progress");
        }
    }

    private static void check(long deadline, String what) {
        if (System.nanoTime() - deadline > 0) {
            fail("timed out waiting for " + what);
        }
    }

    @Override
    public void close() {
        QueueTransport.forget(jobId);
        arena.close();
    }

    /** What the runtime would get: messages, immediates and completions, in order. */
    static final class Recorder implements CompletionHandler {
        final Map<Long, Integer> completions = new LinkedHashMap<>();
        final List<Long> completionOrder = new ArrayList<>();
        final List<int[]> immediates = new ArrayList<>();
        final List<byte[]> received = new ArrayList<>();
        final List<Integer> sources = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        /** Runs at each immediate, before it is recorded (to look at the data then). */
        java.util.function.BiConsumer<Integer, Integer> immediateHook = (s, i) -> { };

        /** Runs at each message, before it is recorded. */
        java.util.function.Consumer<byte[]> receiveHook = m -> { };

        @Override
        public void onReceive(int source, MemorySegment message) {
            receiveHook.accept(message.toArray(ValueLayout.JAVA_BYTE));
            received.add(message.toArray(ValueLayout.JAVA_BYTE));
            sources.add(source);
        }

        @Override
        public void onImmediate(int source, int immediate) {
            immediateHook.accept(source, immediate);
            immediates.add(new int[] {source, immediate});
        }

        @Override
        public void onComplete(long wrId, int status) {
            if (completions.put(wrId, status) != null) {
                fail("work request " + wrId + " completed twice");
            }
            completionOrder.add(wrId);
        }

        @Override
        public void onPeerFailure(int peer, String reason) {
            failures.add(peer + ": " + reason);
        }
    }
}
