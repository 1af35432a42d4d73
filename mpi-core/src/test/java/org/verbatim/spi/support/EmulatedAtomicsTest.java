package org.verbatim.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.Access;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;

/** Fetch-and-add and compare-and-swap, applied by the target. */
class EmulatedAtomicsTest {
    @Test
    void fetchAndAddAndCompareAndSwapReturnTheOldValue() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            MemorySegment words = h.arena.allocate(16, 8);
            words.set(ValueLayout.JAVA_LONG, 0, 40);
            MemoryRegistration reg = h.ranks[1].register(words, Access.ALL);
            MemorySegment result = h.arena.allocate(8, 8);
            EmulatedEndpoint e = h.endpoint(0, 1);
            h.post(() -> e.fetchAndAdd(result, words.address(), reg.remoteKey(), 2, 1));
            assertEquals(CompletionStatus.OK, h.awaitCompletion(0, 1));
            assertEquals(40, result.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(42, words.get(ValueLayout.JAVA_LONG, 0));
            h.post(() -> e.compareAndSwap(result, words.address(), reg.remoteKey(), 41, 7, 2));
            assertEquals(CompletionStatus.OK, h.awaitCompletion(0, 2));
            assertEquals(42, result.get(ValueLayout.JAVA_LONG, 0), "failed swap returns the word");
            assertEquals(42, words.get(ValueLayout.JAVA_LONG, 0), "failed swap leaves the word");
            h.post(() -> e.compareAndSwap(result, words.address(), reg.remoteKey(), 42, -1, 3));
            assertEquals(CompletionStatus.OK, h.awaitCompletion(0, 3));
            assertEquals(42, result.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(-1, words.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(0, words.get(ValueLayout.JAVA_LONG, 8), "the next word is untouched");
        }
    }

    @Test
    void misalignedAtomicIsARemoteOperationError() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            MemorySegment words = h.arena.allocate(32, 8);
            MemoryRegistration reg = h.ranks[1].register(words, Access.ALL);
            MemorySegment result = h.arena.allocate(8, 8);
            h.post(() -> h.endpoint(0, 1).fetchAndAdd(result, words.address() + 4, reg.remoteKey(), 1, 1));
            assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, h.awaitCompletion(0, 1));
            assertEquals(0, words.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    /**
     * Four ranks, each on its own thread with its own transport, increment two words of a fifth:
     * pipelined fetch-and-adds and a compare-and-swap loop. No update may be lost, and every old
     * value of the fetch-and-add word is seen exactly once.
     */
    @Test
    void atomicsFromFourRanksLoseNoUpdate() throws Exception {
        final int perRank = 1500;
        final int casPerRank = 300;
        final int initiators = 4;
        try (EmulationHarness h = new EmulationHarness(initiators + 1)) {
            MemorySegment words = h.arena.allocate(16, 8);
            MemoryRegistration reg = h.ranks[0].register(words, Access.ALL);
            long fadd = words.address();
            long cas = words.address() + 8;
            AtomicInteger finished = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            MemorySegment[] results = new MemorySegment[initiators + 1];
            Thread[] threads = new Thread[initiators + 1];
            for (int r = 0; r <= initiators; r++) {
                final int rank = r;
                results[r] = h.arena.allocate(8L * perRank, 8);
                threads[r] = new Thread(() -> {
                    try {
                        if (rank == 0) {
                            while (finished.get() < initiators) {
                                idle(h.progress(0));
                            }
                            return;
                        }
                        EmulatedEndpoint e = h.endpoint(rank, 0);
                        EmulationHarness.Recorder rec = h.recorders[rank];
                        for (int i = 0; i < perRank; i++) {
                            MemorySegment slot = results[rank].asSlice(8L * i, 8);
                            long wrId = i;
                            while (e.fetchAndAdd(slot, fadd, reg.remoteKey(), 1, wrId) == PostStatus.RETRY) {
                                h.progress(rank);
                            }
                        }
                        MemorySegment old = h.arena.allocate(8, 8);
                        long guess = 0;
                        long wrId = 1_000_000;
                        for (int done = 0; done < casPerRank; wrId++) {
                            final long id = wrId;
                            while (e.compareAndSwap(old, cas, reg.remoteKey(), guess, guess + 1, id)
                                    == PostStatus.RETRY) {
                                h.progress(rank);
                            }
                            while (!rec.completions.containsKey(id)) {
                                idle(h.progress(rank));
                            }
                            long seen = old.get(ValueLayout.JAVA_LONG, 0);
                            if (seen == guess) {
                                done++;
                            }
                            guess = seen == guess ? guess + 1 : seen;
                        }
                        while (rec.completions.size() < perRank + (wrId - 1_000_000)) {
                            idle(h.progress(rank));
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    } finally {
                        if (rank != 0) {
                            finished.incrementAndGet();
                        }
                    }
                }, "rank-" + r);
                threads[r].start();
            }
            for (Thread t : threads) {
                t.join(60_000);
            }
            assertNull(failure.get());
            assertEquals((long) initiators * perRank, words.get(ValueLayout.JAVA_LONG, 0));
            assertEquals((long) initiators * casPerRank, words.get(ValueLayout.JAVA_LONG, 8));
            BitSet seen = new BitSet();
            for (int r = 1; r <= initiators; r++) {
                for (int i = 0; i < perRank; i++) {
                    int old = (int) results[r].get(ValueLayout.JAVA_LONG, 8L * i);
                    assertEquals(false, seen.get(old), "old value " + old + " fetched twice");
                    seen.set(old);
                }
            }
            assertEquals(initiators * perRank, seen.cardinality());
        }
    }

    /** Five spinning rank threads may share two cores: give the others a turn when idle. */
    private static void idle(int work) {
        if (work == 0) {
            Thread.yield();
        }
    }
}
