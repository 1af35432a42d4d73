package org.verbatim.transport.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.verbatim.spi.Access;
import org.verbatim.spi.AtomicOp;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.EagerClaim;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.IoVector;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.WorkList;

/**
 * The optional operations of shm, each with cross-memory attach ({@code cma=true}) and through
 * the emulated path ({@code cma=false}, small records so that transfers take many chunks).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShmOperationsTest {

    @ParameterizedTest(name = "cma={0}")
    @ValueSource(booleans = {true, false})
    void advertisesWhatItDoes(boolean cma) throws Exception {
        try (ShmRanks ranks = new ShmRanks(2, ShmRanks.cma(cma))) {
            Capabilities caps = ranks.transports[0].capabilities();
            assertEquals(cma, ranks.transports[0].crossMemoryAttach());
            for (Capability c : List.of(Capability.WRITE_GATHER, Capability.READ_SCATTER,
                    Capability.ATOMICS, Capability.ATOMICS_EMULATED, Capability.FLUSH,
                    Capability.EAGER_CLAIM)) {
                assertTrue(caps.has(c), c.toString());
            }
            assertEquals(java.util.EnumSet.allOf(AtomicOp.class), caps.atomics());
            assertEquals(1024, caps.put().maxIov());
            assertEquals(1024, caps.get().maxIov());
            assertEquals(cma, caps.has(Capability.LIST_POST));
            assertEquals(cma ? 64 : 0, caps.maxListPost());
            assertEquals(!cma, caps.has(Capability.RDMA_WRITE_EMULATED));
        }
    }

    @ParameterizedTest(name = "cma={0}")
    @ValueSource(booleans = {true, false})
    void gatherWriteAndScatterReadMoveTheStreamInOrder(boolean cma) throws Exception {
        try (ShmRanks ranks = new ShmRanks(2, ShmRanks.cma(cma)); Arena arena = Arena.ofConfined()) {
            final int[] pieces = {1, 0, 700, 3000, 1, 2500, 17};
            final int total = Arrays.stream(pieces).sum();
            byte[] data = pattern(total, 1);
            MemorySegment source = arena.allocate(total + 64 * pieces.length, 64);
            IoVector gather = new IoVector(64);
            int at = 0;
            long place = 0;
            for (int n : pieces) {
                MemorySegment.copy(MemorySegment.ofArray(data), at, source, place, n);
                gather.add(source, place, n);
                at += n;
                place += n + 64;
            }
            MemorySegment target = arena.allocate(total + 8, 64);
            MemoryRegistration remote = ranks.transports[1].register(target);
            MemoryRegistration local = ranks.transports[0].register(source);
            Endpoint endpoint = ranks.transports[0].endpoint(1);
            ranks.post(() -> endpoint.writeGatherWithImmediate(gather, target.address() + 8,
                    remote.remoteKey(), 77, 1));
            gather.clear(); // the list is read during the call only
            assertEquals(CompletionStatus.OK, ranks.await(0, 1));
            while (ranks.recorders[1].immediates.isEmpty()) {
                ranks.progress();
            }
            assertEquals(List.of(77), ranks.recorders[1].immediates);
            assertArrayEquals(data, target.asSlice(8, total).toArray(ValueLayout.JAVA_BYTE));

            MemorySegment back = arena.allocate(total + 64 * pieces.length, 64);
            IoVector scatter = new IoVector(64);
            place = 0;
            for (int n : pieces) {
                scatter.add(back, place, n);
                place += n + 64;
            }
            ranks.post(() -> endpoint.readScatter(scatter, target.address() + 8, remote.remoteKey(), 2));
            assertEquals(CompletionStatus.OK, ranks.await(0, 2));
            at = 0;
            for (int i = 0; i < pieces.length; i++) {
                assertArrayEquals(Arrays.copyOfRange(data, at, at + pieces[i]),
                        scatter.segment(i).asSlice(scatter.offset(i), pieces[i])
                                .toArray(ValueLayout.JAVA_BYTE), "piece " + i);
                at += pieces[i];
            }
            local.close();
            remote.close();
        }
    }

    @ParameterizedTest(name = "cma={0}")
    @ValueSource(booleans = {true, false})
    void postListPostsWritesReadsAndImmediatesInOrder(boolean cma) throws Exception {
        try (ShmRanks ranks = new ShmRanks(2, ShmRanks.cma(cma)); Arena arena = Arena.ofConfined()) {
            final int n = 70; // more than one run of 64
            final int piece = 333;
            MemorySegment target = arena.allocate((long) n * piece, 64);
            MemorySegment source = arena.allocate((long) n * piece, 64);
            source.copyFrom(MemorySegment.ofArray(pattern(n * piece, 2)));
            MemorySegment readBack = arena.allocate((long) n * piece, 64);
            MemoryRegistration remote = ranks.transports[1].register(target);
            WorkList list = new WorkList(4);
            for (int i = 0; i < n; i++) {
                if (i == n - 1) {
                    list.writeWithImmediate(source.asSlice((long) i * piece, piece),
                            target.address() + (long) i * piece, remote.remoteKey(), 5, i);
                } else {
                    list.write(source.asSlice((long) i * piece, piece),
                            target.address() + (long) i * piece, remote.remoteKey(), i);
                }
            }
            for (int i = 0; i < n; i++) {
                list.read(readBack.asSlice((long) i * piece, piece),
                        target.address() + (long) i * piece, remote.remoteKey(), 1000 + i);
            }
            Endpoint endpoint = ranks.transports[0].endpoint(1);
            int posted = 0;
            long deadline = System.nanoTime() + ShmRanks.TIMEOUT_NANOS;
            while (posted < list.count()) {
                posted += endpoint.postList(list, posted);
                ranks.progress();
                assertTrue(System.nanoTime() < deadline, "list posted in time");
            }
            for (int i = 0; i < n; i++) {
                assertEquals(CompletionStatus.OK, ranks.await(0, i));
                assertEquals(CompletionStatus.OK, ranks.await(0, 1000 + i));
            }
            assertArrayEquals(pattern(n * piece, 2), readBack.toArray(ValueLayout.JAVA_BYTE));
            while (ranks.recorders[1].immediates.isEmpty()) {
                ranks.progress();
            }
            assertEquals(List.of(5), ranks.recorders[1].immediates);
            remote.close();
        }
    }

    @ParameterizedTest(name = "cma={0}")
    @ValueSource(booleans = {true, false})
    void postListCompletesABadRequestInTheMiddleInErrorAndTheOthersNormally(boolean cma)
            throws Exception {
        try (ShmRanks ranks = new ShmRanks(2, ShmRanks.cma(cma)); Arena arena = Arena.ofConfined()) {
            MemorySegment target = arena.allocate(4096, 64);
            MemorySegment source = arena.allocate(4096, 64).fill((byte) 3);
            MemoryRegistration remote = ranks.transports[1].register(target);
            WorkList list = new WorkList(8);
            for (int i = 0; i < 8; i++) {
                long key = i == 3 ? remote.remoteKey() + 1 : remote.remoteKey(); // 3: unknown key
                long at = i == 5 ? 4000 : i * 512L; // 5: beyond the registration's end
                list.write(source.asSlice(i * 512L, 512), target.address() + at, key, i);
            }
            Endpoint endpoint = ranks.transports[0].endpoint(1);
            int posted = 0;
            while (posted < list.count()) {
                posted += endpoint.postList(list, posted);
                ranks.progress();
            }
            for (int i = 0; i < 8; i++) {
                int expected = i == 3 || i == 5 ? CompletionStatus.REMOTE_ACCESS_ERROR : CompletionStatus.OK;
                assertEquals(expected, ranks.await(0, i), "request " + i);
            }
            assertEquals(0, target.get(ValueLayout.JAVA_BYTE, 3 * 512), "request 3 wrote nothing");
            assertEquals(3, target.get(ValueLayout.JAVA_BYTE, 4 * 512));
            assertEquals(3, target.get(ValueLayout.JAVA_BYTE, 7 * 512 + 511));
            list.clear().write(MemorySegment.ofArray(new byte[8]), target.address(), remote.remoteKey(), 9);
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> endpoint.postList(list, 0), "heap memory is not RDMA memory");
            remote.close();
        }
    }

    @ParameterizedTest(name = "cma={0}")
    @ValueSource(booleans = {true, false})
    void atomicsFetchAddAndCompareSwapOnRegisteredWords(boolean cma) throws Exception {
        try (ShmRanks ranks = new ShmRanks(3, ShmRanks.cma(cma)); Arena arena = Arena.ofConfined()) {
            MemorySegment words = arena.allocate(64, 64);
            MemoryRegistration remote = ranks.transports[2].register(words);
            MemorySegment result0 = arena.allocate(8, 8);
            MemorySegment result1 = arena.allocate(8, 8);
            Endpoint from0 = ranks.transports[0].endpoint(2);
            Endpoint from1 = ranks.transports[1].endpoint(2);
            final int rounds = 200;
            long sum0 = 0;
            for (int i = 0; i < rounds; i++) {
                final long id = i;
                ranks.post(() -> from0.fetchAndAdd(result0, words.address(), remote.remoteKey(), 3, id));
                ranks.post(() -> from1.fetchAndAdd(result1, words.address(), remote.remoteKey(), 5, id));
                assertEquals(CompletionStatus.OK, ranks.await(0, i));
                assertEquals(CompletionStatus.OK, ranks.await(1, i));
                sum0 += result0.get(ValueLayout.JAVA_LONG, 0);
            }
            assertEquals(rounds * 8L, words.get(ValueLayout.JAVA_LONG, 0));
            assertTrue(sum0 > 0);

            words.set(ValueLayout.JAVA_LONG, 8, 41);
            ranks.post(() -> from0.compareAndSwap(result0, words.address() + 8, remote.remoteKey(),
                    40, 99, 1000));
            assertEquals(CompletionStatus.OK, ranks.await(0, 1000));
            assertEquals(41, result0.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(41, words.get(ValueLayout.JAVA_LONG, 8), "no swap on a mismatch");
            ranks.post(() -> from0.compareAndSwap(result0, words.address() + 8, remote.remoteKey(),
                    41, 99, 1001));
            assertEquals(CompletionStatus.OK, ranks.await(0, 1001));
            assertEquals(41, result0.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(99, words.get(ValueLayout.JAVA_LONG, 8));

            ranks.post(() -> from0.fetchAndAdd(result0, words.address() + 4, remote.remoteKey(), 1, 1002));
            assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, ranks.await(0, 1002), "misaligned");
            ranks.post(() -> from0.fetchAndAdd(result0, words.address() + 64, remote.remoteKey(), 1, 1003));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, ranks.await(0, 1003), "outside");
            assertEquals(java.util.Map.of(), ranks.recorders[2].failures);
            remote.close();
        }
    }

    @ParameterizedTest(name = "cma={0}")
    @ValueSource(booleans = {true, false})
    void accessRightsAndUnknownKeysCompleteWithRemoteAccessError(boolean cma) throws Exception {
        try (ShmRanks ranks = new ShmRanks(2, ShmRanks.cma(cma)); Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(4096, 64);
            memory.fill((byte) 9);
            MemoryRegistration readOnly = ranks.transports[1].register(memory, Access.REMOTE_READ);
            MemorySegment local = arena.allocate(4096, 64);
            MemorySegment result = arena.allocate(8, 8);
            Endpoint endpoint = ranks.transports[0].endpoint(1);
            long key = readOnly.remoteKey();
            long address = memory.address();
            ranks.post(() -> endpoint.write(local, address, key, 1));
            ranks.post(() -> endpoint.fetchAndAdd(result, address, key, 1, 2));
            ranks.post(() -> endpoint.read(local, address, key, 3));
            ranks.post(() -> endpoint.write(local.asSlice(0, 8), address, 0x1234, 4));
            ranks.post(() -> endpoint.read(local.asSlice(0, 8), address, 0, 5));
            ranks.post(() -> endpoint.compareAndSwap(result, address, 77, 0, 1, 6));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, ranks.await(0, 1));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, ranks.await(0, 2));
            assertEquals(CompletionStatus.OK, ranks.await(0, 3));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, ranks.await(0, 4));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, ranks.await(0, 5));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, ranks.await(0, 6));
            byte[] nines = new byte[4096];
            Arrays.fill(nines, (byte) 9);
            assertArrayEquals(nines, memory.toArray(ValueLayout.JAVA_BYTE), "nothing written");
            assertArrayEquals(nines, local.toArray(ValueLayout.JAVA_BYTE), "the read worked");
            if (!cma) {
                // the target knows its registrations: a closed one is refused as well
                MemoryRegistration all = ranks.transports[1].register(memory);
                long stale = all.remoteKey();
                all.close();
                ranks.post(() -> endpoint.read(local, address, stale, 7));
                assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, ranks.await(0, 7));
            }
            // and the endpoint still works
            MemoryRegistration all = ranks.transports[1].register(memory);
            ranks.post(() -> endpoint.write(local.asSlice(0, 16).fill((byte) 1), address,
                    all.remoteKey(), 8));
            assertEquals(CompletionStatus.OK, ranks.await(0, 8));
            assertEquals(1, memory.get(ValueLayout.JAVA_BYTE, 15));
            assertEquals(java.util.Map.of(), ranks.recorders[1].failures);
            readOnly.close();
            all.close();
        }
    }

    @ParameterizedTest(name = "cma={0}")
    @ValueSource(booleans = {true, false})
    void flushCompletesAfterEveryEarlierWriteAndAtomic(boolean cma) throws Exception {
        try (ShmRanks ranks = new ShmRanks(2, ShmRanks.cma(cma)); Arena arena = Arena.ofConfined()) {
            final int length = 20_000;
            MemorySegment target = arena.allocate(length, 64);
            MemorySegment source = arena.allocate(length, 64);
            source.copyFrom(MemorySegment.ofArray(pattern(length, 4)));
            MemorySegment result = arena.allocate(8, 8);
            MemoryRegistration remote = ranks.transports[1].register(target);
            Endpoint endpoint = ranks.transports[0].endpoint(1);
            // nothing outstanding: a flush alone completes
            ranks.post(() -> endpoint.flush(100));
            assertEquals(CompletionStatus.OK, ranks.await(0, 100));
            for (int round = 0; round < 5; round++) {
                final long base = round * 10L;
                ranks.post(() -> endpoint.write(source, target.address(), remote.remoteKey(), base + 1));
                ranks.post(() -> endpoint.fetchAndAdd(result, target.address(), remote.remoteKey(), 1,
                        base + 2));
                ranks.post(() -> endpoint.flush(base + 3));
                // only the initiator progresses until the flush is posted; then the flush must wait
                // for the target to apply the atomic
                assertEquals(CompletionStatus.OK, ranks.await(0, base + 3));
                List<Long> order = ranks.recorders[0].order;
                assertTrue(order.indexOf(base + 1) >= 0 && order.indexOf(base + 1) < order.indexOf(base + 3),
                        "write completed before the flush: " + order);
                assertTrue(order.indexOf(base + 2) >= 0 && order.indexOf(base + 2) < order.indexOf(base + 3),
                        "atomic completed before the flush: " + order);
            }
            remote.close();
        }
    }

    @ParameterizedTest(name = "cma={0}")
    @ValueSource(booleans = {true, false})
    void eagerClaimCommitsInPlaceAndAbortsWithoutATrace(boolean cma) throws Exception {
        try (ShmRanks ranks = new ShmRanks(2, ShmRanks.cma(cma))) {
            Endpoint endpoint = ranks.transports[0].endpoint(1);
            EagerClaim claim = new EagerClaim();
            int max = ranks.transports[0].capabilities().maxEager();
            for (int round = 0; round < 300; round++) {
                final int length = round % 3 == 0 ? max : round % max;
                final byte[] data = pattern(length, round);
                ranks.post(() -> endpoint.claim(length, claim));
                assertTrue(claim.active());
                MemorySegment.copy(MemorySegment.ofArray(data), 0, claim.buffer(), claim.offset(), length);
                if (round % 4 == 1) {
                    claim.abort();
                } else {
                    claim.commit();
                }
                assertFalse(claim.active());
                if (round % 5 == 0) {
                    ranks.post(() -> endpoint.send(MemorySegment.ofArray(new byte[] {7}),
                            MemorySegment.NULL));
                }
            }
            int expected = 0;
            for (int round = 0; round < 300; round++) {
                expected += (round % 4 == 1 ? 0 : 1) + (round % 5 == 0 ? 1 : 0);
            }
            ranks.awaitReceived(1, expected);
            int i = 0;
            for (int round = 0; round < 300; round++) {
                int length = round % 3 == 0 ? max : round % max;
                if (round % 4 != 1) {
                    assertArrayEquals(pattern(length, round), ranks.recorders[1].received.get(i++),
                            "claim " + round);
                }
                if (round % 5 == 0) {
                    assertArrayEquals(new byte[] {7}, ranks.recorders[1].received.get(i++));
                }
            }
            ranks.progress();
            assertEquals(expected, ranks.recorders[1].received.size(), "aborted claims deliver nothing");
        }
    }

    @ParameterizedTest(name = "cma={0}")
    @ValueSource(booleans = {true, false})
    void claimKeepsOrderBehindTheBacklog(boolean cma) throws Exception {
        // a write with immediate whose IMMEDIATE (CMA) or chunks (emulated) wait in the backlog
        // of a full inbox: a claim must not overtake them
        try (ShmRanks ranks = new ShmRanks(2, ShmRanks.cma(cma)); Arena arena = Arena.ofConfined()) {
            Endpoint endpoint = ranks.transports[0].endpoint(1);
            int max = ranks.transports[0].capabilities().maxEager();
            int sent = 0;
            while (endpoint.send(MemorySegment.ofArray(new byte[max]), MemorySegment.NULL)
                    == PostStatus.OK) {
                sent++;
            }
            while (endpoint.send(MemorySegment.NULL, MemorySegment.NULL) == PostStatus.OK) {
                sent++; // not even an IMMEDIATE fits now
            }
            MemorySegment target = arena.allocate(8192, 64);
            MemoryRegistration remote = ranks.transports[1].register(target);
            MemorySegment source = arena.allocate(8192, 64);
            assertEquals(PostStatus.OK, endpoint.writeWithImmediate(source, target.address(),
                    remote.remoteKey(), 9, 1));
            EagerClaim claim = new EagerClaim();
            assertEquals(PostStatus.RETRY, endpoint.claim(4, claim), "the backlog goes first");
            assertFalse(claim.active());
            ranks.awaitReceived(1, sent);
            ranks.post(() -> endpoint.claim(4, claim));
            claim.buffer().set(ValueLayout.JAVA_INT_UNALIGNED, claim.offset(), 0x0BADCAFE);
            claim.commit();
            ranks.awaitReceived(1, sent + 1);
            assertEquals(List.of(9), ranks.recorders[1].immediates, "immediate before the claim");
            remote.close();
        }
    }

    @org.junit.jupiter.api.Test
    void keysBeyondTheKeyTableTakeTheEmulatedPathAndAreStillChecked() throws Exception {
        try (ShmRanks ranks = new ShmRanks(2, ShmRanks.cma(true)); Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(4096, 64);
            List<MemoryRegistration> filler = new java.util.ArrayList<>();
            for (int i = 0; i < KeyTableDescriptor.ENTRIES; i++) {
                filler.add(ranks.transports[1].register(memory.asSlice(0, 64)));
            }
            MemoryRegistration beyond = ranks.transports[1].register(memory.asSlice(1024, 1024));
            assertTrue(KeyTable.beyond(beyond.remoteKey()));
            MemorySegment local = arena.allocate(1024, 64).fill((byte) 5);
            Endpoint endpoint = ranks.transports[0].endpoint(1);
            ranks.post(() -> endpoint.write(local, beyond.address(), beyond.remoteKey(), 1));
            ranks.post(() -> endpoint.write(local, beyond.address() + 8, beyond.remoteKey(), 2));
            assertEquals(CompletionStatus.OK, ranks.await(0, 1));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, ranks.await(0, 2), "past the end");
            assertEquals(5, memory.get(ValueLayout.JAVA_BYTE, 2047));
            assertEquals(0, memory.get(ValueLayout.JAVA_BYTE, 2048), "nothing beyond the registration");
            beyond.close();
            filler.forEach(MemoryRegistration::close);
        }
    }

    static byte[] pattern(int length, int seed) {
        byte[] bytes = new byte[length];
        int x = seed * 0x9E3779B1 + 1;
        for (int i = 0; i < length; i++) {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            bytes[i] = (byte) x;
        }
        return bytes;
    }
}
