package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Remote atomics ({@link Capability#ATOMICS}) under contention: four ranks work on one 64-bit word
 * of rank 0 at once. Fetch-and-add loses no update and hands every caller a different old value;
 * a compare-and-swap loop counts exactly; the old value is in the result buffer when the
 * completion arrives. The word starts above 2^32 so that a 32-bit operation shows.
 */
public abstract class AtomicsSection extends ListPostSection {
    private static final int RANKS = 5;
    private static final int PER_RANK = 500;
    /** Increments per rank of the CAS loop (each failed attempt is one more round trip). */
    private static final int CAS_PER_RANK = 200;
    /** Fetch-and-adds each rank keeps in flight. */
    private static final int WINDOW = 8;
    private static final long BASE = (1L << 40) + 17;
    /** The word's offset in rank 0's registration (8-byte aligned, not at the start). */
    private static final long WORD = 24;

    @Test
    void fetchAndAddFromFourRanksLosesNoUpdateAndReturnsDistinctValues() throws Exception {
        runRanks(RANKS, r -> {
            Capabilities caps = r.caps();
            assumeTrue(caps.atomics().contains(AtomicOp.FETCH_AND_ADD), "no FETCH_AND_ADD");
            Map<Long, Integer> seen = r.shared("seen", ConcurrentHashMap::new);
            if (r.rank == 0) {
                MemorySegment word = wordOwner(r);
                r.barrier();
                assertEquals(BASE + (long) (RANKS - 1) * PER_RANK, word.get(ValueLayout.JAVA_LONG, WORD),
                        "the word after " + (RANKS - 1) + " x " + PER_RANK + " fetch-and-adds of 1");
                assertEquals((RANKS - 1) * PER_RANK, seen.size(), "distinct old values returned");
                checkNeighbours(word);
                TreeSet<Long> values = new TreeSet<>(seen.keySet());
                assertEquals(BASE, values.first(), "smallest old value returned");
                assertEquals(BASE + (long) (RANKS - 1) * PER_RANK - 1, values.last(), "largest old value returned");
            } else {
                RemoteMemory word = r.awaitShared("word");
                MemorySegment results = r.allocate(8L * PER_RANK, (byte) 0);
                MemoryRegistration registration = r.transport.register(results);
                Endpoint endpoint = r.transport.endpoint(0);
                for (int i = 0; i < PER_RANK; i++) {
                    if (i >= WINDOW) {
                        collect(r, results, i - WINDOW, seen);
                    }
                    MemorySegment result = results.asSlice(8L * i, 8);
                    long wrId = i;
                    r.post(() -> endpoint.fetchAndAdd(result, word.address() + WORD, word.remoteKey(), 1, wrId));
                }
                for (int i = Math.max(0, PER_RANK - WINDOW); i < PER_RANK; i++) {
                    collect(r, results, i, seen);
                }
                registration.close();
                r.barrier();
            }
        });
    }

    private static void collect(Rank r, MemorySegment results, int i, Map<Long, Integer> seen) {
        r.awaitCompletion(i);
        long old = results.get(ValueLayout.JAVA_LONG, 8L * i);
        Integer before = seen.putIfAbsent(old, r.rank);
        assertEquals(null, before, "old value " + old + " returned to rank " + r.rank + " and to rank " + before);
    }

    @Test
    void compareAndSwapLoopsFromFourRanksCountExactly() throws Exception {
        runRanks(RANKS, r -> {
            Capabilities caps = r.caps();
            assumeTrue(caps.atomics().contains(AtomicOp.COMPARE_AND_SWAP), "no COMPARE_AND_SWAP");
            Map<Long, Integer> won = r.shared("won", ConcurrentHashMap::new);
            if (r.rank == 0) {
                MemorySegment word = wordOwner(r);
                r.barrier();
                assertEquals(BASE + (long) (RANKS - 1) * CAS_PER_RANK, word.get(ValueLayout.JAVA_LONG, WORD),
                        "the word after " + (RANKS - 1) + " x " + CAS_PER_RANK + " CAS-loop increments");
                assertEquals((RANKS - 1) * CAS_PER_RANK, won.size(), "distinct values replaced");
                checkNeighbours(word);
            } else {
                RemoteMemory word = r.awaitShared("word");
                MemorySegment result = r.allocate(8, (byte) 0);
                MemoryRegistration registration = r.transport.register(result);
                Endpoint endpoint = r.transport.endpoint(0);
                long expected = BASE;
                long wrId = 0;
                for (int done = 0; done < CAS_PER_RANK; ) {
                    final long e = expected;
                    final long id = wrId++;
                    r.post(() -> endpoint.compareAndSwap(result, word.address() + WORD, word.remoteKey(),
                            e, e + 1, id));
                    r.awaitCompletion(id);
                    long old = result.get(ValueLayout.JAVA_LONG, 0);
                    assertTrue(old >= BASE && old <= BASE + (long) (RANKS - 1) * CAS_PER_RANK,
                            "old value " + old + " out of range");
                    if (old == e) {
                        Integer before = won.putIfAbsent(old, r.rank);
                        assertEquals(null, before, "two ranks replaced " + old + ": " + r.rank + " and " + before);
                        expected = e + 1;
                        done++;
                    } else {
                        expected = old;
                    }
                }
                registration.close();
                r.barrier();
            }
        });
    }

    /**
     * Fetch-and-adds and compare-and-swap increments from different ranks on one word are atomic
     * with each other: ranks 1 and 3 add, ranks 2 and 4 run CAS loops, and the word counts all.
     */
    @Test
    void fetchAndAddAndCompareAndSwapTogetherLoseNoUpdate() throws Exception {
        runRanks(RANKS, r -> {
            Capabilities caps = r.caps();
            assumeTrue(caps.atomics().containsAll(EnumSet.allOf(AtomicOp.class)), "not every atomic operation");
            if (r.rank == 0) {
                MemorySegment word = wordOwner(r);
                r.barrier();
                assertEquals(BASE + (long) (RANKS - 1) * CAS_PER_RANK, word.get(ValueLayout.JAVA_LONG, WORD),
                        "the word after " + (RANKS - 1) + " x " + CAS_PER_RANK + " increments, half by CAS");
                checkNeighbours(word);
            } else {
                RemoteMemory word = r.awaitShared("word");
                MemorySegment result = r.allocate(8, (byte) 0);
                MemoryRegistration registration = r.transport.register(result);
                Endpoint endpoint = r.transport.endpoint(0);
                long expected = BASE;
                long wrId = 0;
                for (int done = 0; done < CAS_PER_RANK; ) {
                    final long e = expected;
                    final long id = wrId++;
                    if (r.rank % 2 == 1) {
                        r.post(() -> endpoint.fetchAndAdd(result, word.address() + WORD, word.remoteKey(), 1, id));
                        r.awaitCompletion(id);
                        done++;
                        continue;
                    }
                    r.post(() -> endpoint.compareAndSwap(result, word.address() + WORD, word.remoteKey(),
                            e, e + 1, id));
                    r.awaitCompletion(id);
                    long old = result.get(ValueLayout.JAVA_LONG, 0);
                    done += old == e ? 1 : 0;
                    expected = old == e ? e + 1 : old;
                }
                registration.close();
                r.barrier();
            }
        });
    }

    /** The atomics touched 8 bytes at {@link #WORD} and nothing around them. */
    private static void checkNeighbours(MemorySegment memory) {
        for (long at = 0; at < memory.byteSize(); at += 8) {
            if (at != WORD) {
                assertEquals(0L, memory.get(ValueLayout.JAVA_LONG, at), "word at " + at + " next to the target");
            }
        }
    }

    /** Rank 0: a registered word holding {@link #BASE}, published as "word". */
    private static MemorySegment wordOwner(Rank r) {
        MemorySegment memory = r.allocate(64, (byte) 0);
        memory.set(ValueLayout.JAVA_LONG, WORD, BASE);
        MemoryRegistration registration = r.transport.register(memory);
        r.publish("word", registration);
        return memory;
    }
}
