package org.verbatim.onesided;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SharedControlTest {
    @Test
    void readersShareWritersExcludeAndAnnouncedWritersHoldBackNewReaders() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment c = arena.allocate(SharedControl.bytes(3), 64);
            assertTrue(SharedControl.tryShared(c));
            assertTrue(SharedControl.tryShared(c));
            SharedControl.announceWriter(c);
            assertFalse(SharedControl.tryExclusive(c), "readers still hold it");
            assertFalse(SharedControl.tryShared(c), "a new reader waits behind the writer");
            SharedControl.releaseShared(c);
            SharedControl.releaseShared(c);
            assertTrue(SharedControl.tryExclusive(c));
            assertFalse(SharedControl.tryShared(c));
            SharedControl.announceWriter(c);
            assertFalse(SharedControl.tryExclusive(c), "exclusive is exclusive");
            SharedControl.releaseExclusive(c);
            assertTrue(SharedControl.tryExclusive(c));
            SharedControl.releaseExclusive(c);
            assertTrue(SharedControl.tryShared(c));
        }
    }

    @Test
    void theFenceBarrierLetsNobodyThroughBeforeTheLastArrives() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment c = arena.allocate(SharedControl.bytes(3), 64);
            int members = 3;
            int rounds = 2_000;
            AtomicInteger[] arrived = new AtomicInteger[rounds];
            for (int i = 0; i < rounds; i++) {
                arrived[i] = new AtomicInteger();
            }
            AtomicInteger early = new AtomicInteger();
            Runnable member = () -> {
                for (int i = 0; i < rounds; i++) {
                    arrived[i].incrementAndGet();
                    long r = SharedControl.arrive(c, members);
                    while (r >= 0 && !SharedControl.passed(c, r)) {
                        Thread.yield(); // three threads, maybe two cores
                    }
                    if (arrived[i].get() != members) {
                        early.incrementAndGet();
                    }
                }
            };
            Thread[] t = new Thread[members];
            for (int i = 0; i < members; i++) {
                t[i] = new Thread(member);
                t[i].start();
            }
            for (Thread x : t) {
                x.join();
            }
            assertEquals(0, early.get(), "a member left a round before every member arrived");
        }
    }

    @Test
    void pscwCountersArePerPeerAndApartFromTheFixedWords() {
        try (Arena arena = Arena.ofConfined()) {
            int members = 5;
            MemorySegment c = arena.allocate(SharedControl.bytes(members), 64);
            assertEquals(0, SharedControl.bytes(members) % 64);
            SharedControl.post(c, 3);
            SharedControl.post(c, 3);
            SharedControl.complete(c, members, 4);
            assertEquals(2, SharedControl.posts(c, 3));
            assertEquals(0, SharedControl.posts(c, 4));
            assertEquals(1, SharedControl.completes(c, members, 4));
            assertEquals(0, SharedControl.completes(c, members, 3));
            assertTrue(SharedControl.tryExclusive(c), "the lock word is untouched");
        }
    }

    @Test
    void theAccumulateLockSerialisesUpdates() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment c = arena.allocate(SharedControl.bytes(3), 64);
            int[] plain = {0};
            AtomicInteger done = new AtomicInteger();
            Runnable adder = () -> {
                for (int i = 0; i < 100_000; i++) {
                    SharedControl.accumulating(c, () -> plain[0]++);
                }
                done.incrementAndGet();
            };
            Thread a = new Thread(adder);
            Thread b = new Thread(adder);
            a.start();
            b.start();
            a.join();
            b.join();
            assertEquals(2, done.get());
            assertEquals(200_000, plain[0], "no lost update under the accumulate lock");
        }
    }
}
