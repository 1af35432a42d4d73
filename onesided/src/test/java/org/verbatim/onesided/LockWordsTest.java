package org.verbatim.onesided;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The claims of {@link LockWords} on one target's words, with host claimants on the segment and
 * remote claimants through a {@link LockWords.RemotePath} that runs each atomic on the remote word
 * and then reads the host word (the order a reliable connection keeps at the target), on the host's
 * CPU. The pauses are where a test steps in: a claim that must wait calls them, and a test that
 * releases the blocker from the pause shows that the claim was held back until then.
 */
@Timeout(60)
class LockWordsTest {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    /** An adapter's view of the target's words, on the CPU. */
    static final class CpuRemote implements LockWords.RemotePath {
        private final MemorySegment s;
        private long hostRead;
        int operations;

        CpuRemote(MemorySegment s) {
            this.s = s;
        }

        @Override
        public long atomicThenRead(int op, long a, long b) {
            operations++;
            long old = op == FETCH_ADD ? (long) WORD.getAndAdd(s, LockWords.REMOTE, a)
                    : (long) WORD.compareAndExchange(s, LockWords.REMOTE, a, b);
            VarHandle.fullFence();
            hostRead = (long) WORD.getVolatile(s, LockWords.HOST);
            return old;
        }

        @Override
        public long hostRead() {
            return hostRead;
        }

        @Override
        public long fetchAndAdd(long add) {
            operations++;
            return (long) WORD.getAndAdd(s, LockWords.REMOTE, add);
        }

        @Override
        public long readHost() {
            hostRead = (long) WORD.getVolatile(s, LockWords.HOST);
            return hostRead;
        }
    }

    /** Pauses that run {@code at} at the {@code n}th call and count every call. */
    static final class Steps implements LockWords.Pause {
        private final int n;
        private final Runnable at;
        int calls;

        Steps(int n, Runnable at) {
            this.n = n;
            this.at = at;
        }

        @Override
        public long pause(long backoff) {
            if (++calls == n) {
                at.run();
            }
            if (calls > 10_000) {
                throw new AssertionError("still waiting after 10,000 pauses");
            }
            return backoff + 1;
        }
    }

    private static final LockWords.Pause NEVER = b -> {
        throw new AssertionError("an uncontended claim waited");
    };

    @Test
    void uncontendedClaimsOfBothGroupsNeverWaitAndReleaseToZero() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(LockWords.bytes(4), 64);
            CpuRemote r = new CpuRemote(s);
            LockWords.hostShared(s, NEVER);
            LockWords.hostShared(s, NEVER);
            LockWords.remoteShared(r, NEVER);
            assertEquals(2, LockWords.host(s));
            assertEquals(1, LockWords.remoteWord(s));
            LockWords.hostRelease(s, false);
            LockWords.hostRelease(s, false);
            LockWords.remoteRelease(r, false);
            LockWords.hostExclusive(s, NEVER);
            assertEquals(LockWords.EXCLUSIVE, LockWords.host(s));
            LockWords.hostRelease(s, true);
            LockWords.remoteExclusive(r, NEVER);
            assertEquals(LockWords.EXCLUSIVE, LockWords.remoteWord(s));
            LockWords.remoteRelease(r, true);
            assertEquals(0, LockWords.host(s));
            assertEquals(0, LockWords.remoteWord(s));
        }
    }

    @Test
    void aRemoteWriterWaitsForHostReadersAndTheyForIt() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(LockWords.bytes(2), 64);
            CpuRemote r = new CpuRemote(s);
            LockWords.hostShared(s, NEVER);
            Steps steps = new Steps(3, () -> LockWords.hostRelease(s, false));
            LockWords.remoteExclusive(r, steps);
            assertEquals(3, steps.calls, "granted only after the host reader left");
            assertEquals(LockWords.EXCLUSIVE, LockWords.remoteWord(s));
            // now a host reader and a host writer wait for the remote writer
            Steps reader = new Steps(2, () -> LockWords.remoteRelease(r, true));
            LockWords.hostShared(s, reader);
            assertEquals(2, reader.calls);
            assertEquals(1, LockWords.host(s));
            LockWords.hostRelease(s, false);
        }
    }

    @Test
    void aHostWriterWaitsForRemoteReadersAndHoldsBackNewOnes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(LockWords.bytes(2), 64);
            CpuRemote first = new CpuRemote(s);
            CpuRemote late = new CpuRemote(s);
            LockWords.remoteShared(first, NEVER);
            AtomicReference<String> seen = new AtomicReference<>("");
            Steps writer = new Steps(2, () -> {
                // the writer is announced: a new remote reader backs out and waits
                try {
                    LockWords.remoteShared(late, new Steps(1, () -> {
                        seen.set("backed out, host word " + Long.toHexString(LockWords.host(s)));
                        throw new IllegalStateException("stop");
                    }));
                } catch (IllegalStateException e) {
                    // the late reader stops waiting here (it would poll on)
                }
                LockWords.remoteRelease(first, false);
            });
            LockWords.hostExclusive(s, writer);
            assertTrue(seen.get().startsWith("backed out"), seen.get());
            assertEquals(LockWords.EXCLUSIVE, LockWords.host(s));
            assertEquals(0, LockWords.remoteWord(s) & LockWords.READERS,
                    "the late reader withdrew its count");
            LockWords.hostRelease(s, true);
        }
    }

    @Test
    void writersOfTheTwoGroupsThatClaimTogetherNeverBothHold() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(LockWords.bytes(2), 64);
            CpuRemote r = new CpuRemote(s);
            // the host writer holds; a remote writer that wins the remote word gives it back
            LockWords.hostExclusive(s, NEVER);
            Steps remote = new Steps(2, () -> LockWords.hostRelease(s, true));
            LockWords.remoteExclusive(r, remote);
            assertTrue(remote.calls >= 2);
            assertEquals(0, LockWords.host(s));
            assertEquals(LockWords.EXCLUSIVE, LockWords.remoteWord(s));
            // and the other way round
            Steps host = new Steps(2, () -> LockWords.remoteRelease(r, true));
            LockWords.hostExclusive(s, host);
            assertEquals(2, host.calls);
            assertEquals(LockWords.EXCLUSIVE, LockWords.host(s));
            assertEquals(0, LockWords.remoteWord(s));
            LockWords.hostRelease(s, true);
        }
    }

    /**
     * Three host claimants and three remote ones, each taking the lock 3,000 times at random
     * shared or exclusive: inside, an exclusive holder is alone and readers see no writer; no
     * claim is lost (every claimant finishes); both words end at zero.
     */
    @Test
    void mixedClaimantsExcludeEachOther() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment s = arena.allocate(LockWords.bytes(7), 64);
            AtomicInteger readers = new AtomicInteger();
            AtomicInteger writers = new AtomicInteger();
            AtomicReference<String> broken = new AtomicReference<>();
            AtomicInteger exclusiveEpochs = new AtomicInteger();
            int rounds = 3_000;
            LockWords.Pause yield = b -> {
                Thread.onSpinWait();
                if ((b & 7) == 7) {
                    Thread.yield();
                }
                return b + 1;
            };
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < 6; c++) {
                boolean remote = c % 2 == 1;
                CpuRemote r = new CpuRemote(s);
                threads.add(Thread.ofPlatform().start(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < rounds; i++) {
                        boolean exclusive = random.nextInt(3) == 0;
                        if (remote) {
                            if (exclusive) {
                                LockWords.remoteExclusive(r, yield);
                            } else {
                                LockWords.remoteShared(r, yield);
                            }
                        } else if (exclusive) {
                            LockWords.hostExclusive(s, yield);
                        } else {
                            LockWords.hostShared(s, yield);
                        }
                        if (exclusive) {
                            int w = writers.incrementAndGet();
                            if (w != 1 || readers.get() != 0) {
                                broken.compareAndSet(null, "writer with " + w + " writers, "
                                        + readers.get() + " readers");
                            }
                            exclusiveEpochs.incrementAndGet();
                            Thread.onSpinWait();
                            writers.decrementAndGet();
                        } else {
                            readers.incrementAndGet();
                            if (writers.get() != 0) {
                                broken.compareAndSet(null, "reader beside a writer");
                            }
                            Thread.onSpinWait();
                            readers.decrementAndGet();
                        }
                        if (remote) {
                            LockWords.remoteRelease(r, exclusive);
                        } else {
                            LockWords.hostRelease(s, exclusive);
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(50));
                assertFalse(t.isAlive(), "a claimant is stuck: host word 0x"
                        + Long.toHexString(LockWords.host(s)) + ", remote word 0x"
                        + Long.toHexString(LockWords.remoteWord(s)));
            }
            assertEquals(null, broken.get());
            assertTrue(exclusiveEpochs.get() > 0);
            assertEquals(0, LockWords.host(s));
            assertEquals(0, LockWords.remoteWord(s));
        }
    }
}
