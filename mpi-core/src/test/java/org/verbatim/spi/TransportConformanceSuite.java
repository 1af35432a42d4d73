package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The contract every transport keeps, run against each implementation by a subclass in the
 * transport's module (this class ships in mpi-core's test-jar). Ranks are threads in one JVM with
 * an {@link org.verbatim.bootstrap.InJvmBootstrap}; all of them are on one host ("localhost")
 * unless {@link #hosts} says otherwise. Operations the transport does not advertise are skipped,
 * and everything it advertises is exercised.
 *
 * <p>This class holds the base operations (eager send, write, read, write with immediate); the
 * optional operations have their own sections, which it inherits (see {@link ConformanceHarness}
 * for the chain), so a subclass runs all of them.
 */
public abstract class TransportConformanceSuite extends ErrorCompletionSection {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();

    // ------------------------------------------------------------------ tests

    @Test
    void capabilitiesAreConsistentAndPeersReachable() throws Exception {
        runRanks(3, r -> {
            Capabilities caps = r.transport.capabilities();
            assertEquals(provider().name(), r.transport.name());
            assertTrue(caps.maxEager() > 0);
            assertTrue(caps.has(Capability.SEND_RECV), "every transport carries eager sends");
            if (caps.has(Capability.RDMA_WRITE_EMULATED)) {
                assertTrue(caps.has(Capability.RDMA_WRITE), "emulated write without RDMA_WRITE");
            }
            if (caps.has(Capability.RDMA_READ_EMULATED)) {
                assertTrue(caps.has(Capability.RDMA_READ), "emulated read without RDMA_READ");
            }
            if (caps.has(Capability.WRITE_WITH_IMMEDIATE)) {
                assertTrue(caps.has(Capability.RDMA_WRITE), "immediate without RDMA_WRITE");
            }
            if (caps.has(Capability.ATOMICS_EMULATED)) {
                assertTrue(caps.has(Capability.ATOMICS), "emulated atomics without ATOMICS");
            }
            if (caps.has(Capability.RDMA_WRITE)) {
                assertTrue(caps.put().available(), "RDMA_WRITE without put limits: " + caps.put());
            }
            if (caps.has(Capability.RDMA_READ)) {
                assertTrue(caps.get().available(), "RDMA_READ without get limits: " + caps.get());
                assertTrue(caps.readsInFlight() >= 1, "RDMA_READ with no read in flight allowed");
            }
            if (caps.has(Capability.WRITE_GATHER)) {
                assertTrue(caps.has(Capability.RDMA_WRITE), "WRITE_GATHER without RDMA_WRITE");
                assertTrue(caps.put().maxIov() >= 2, "WRITE_GATHER with put.maxIov " + caps.put().maxIov());
            }
            if (caps.has(Capability.READ_SCATTER)) {
                assertTrue(caps.has(Capability.RDMA_READ), "READ_SCATTER without RDMA_READ");
                assertTrue(caps.get().maxIov() >= 2, "READ_SCATTER with get.maxIov " + caps.get().maxIov());
            }
            if (caps.has(Capability.LIST_POST)) {
                assertTrue(caps.maxListPost() >= 2, "LIST_POST with maxListPost " + caps.maxListPost());
            }
            if (caps.has(Capability.FLUSH)) {
                assertTrue(caps.has(Capability.RDMA_WRITE), "FLUSH without RDMA_WRITE");
            }
            assertFalse(r.transport.reaches(r.rank), "the runtime handles self-sends");
            for (int p = 0; p < r.size; p++) {
                if (p != r.rank) {
                    assertTrue(r.transport.reaches(p), "rank " + r.rank + " must reach " + p);
                    assertEquals(p, r.transport.endpoint(p).peer());
                }
            }
        });
    }

    @Test
    void manySendersToOneReceiverKeepPerSenderOrder() throws Exception {
        final int perSender = 3000;
        runRanks(4, r -> {
            final int spread = Math.min(301, r.transport.capabilities().maxEager() - 7);
            if (r.rank == 0) {
                int expected = perSender * (r.size - 1);
                r.awaitReceived(expected);
                int[] next = new int[r.size];
                for (Received m : r.recorder.received) {
                    assertTrue(m.source() >= 1 && m.source() < r.size, "source " + m.source());
                    int seq = m.intAt(0);
                    assertEquals(m.source(), m.intAt(4), "sender id inside the message");
                    assertEquals(next[m.source()]++, seq, "order from rank " + m.source());
                    assertEquals(8 + seq % spread, m.bytes().length, "length of message " + seq);
                    for (int i = 8; i < m.bytes().length; i++) {
                        assertEquals((byte) (seq + i), m.bytes()[i], "byte " + i + " of " + seq);
                    }
                }
                for (int s = 1; s < r.size; s++) {
                    assertEquals(perSender, next[s]);
                }
            } else {
                for (int seq = 0; seq < perSender; seq++) {
                    byte[] payload = new byte[seq % spread];
                    for (int i = 0; i < payload.length; i++) {
                        payload[i] = (byte) (seq + i + 8);
                    }
                    r.send(0, ints(seq, r.rank), payload);
                }
            }
        });
    }

    @Test
    void zeroByteAndMaxSizeMessages() throws Exception {
        runRanks(2, r -> {
            int max = r.transport.capabilities().maxEager();
            byte[] big = pattern(max, 3);
            if (r.rank == 0) {
                r.send(1, new byte[0], new byte[0]);
                r.send(1, new byte[] {42}, new byte[0]);
                r.send(1, new byte[0], new byte[] {43});
                r.send(1, Arrays.copyOf(big, 64), Arrays.copyOfRange(big, 64, max));
                r.send(1, new byte[0], big);
                // native and heap mixed
                MemorySegment nativeHeader = r.arena.allocate(16);
                nativeHeader.copyFrom(MemorySegment.ofArray(Arrays.copyOf(big, 16)));
                r.sendSegments(1, nativeHeader, MemorySegment.ofArray(Arrays.copyOfRange(big, 16, max)));
                MemorySegment nativePayload = r.arena.allocate(max - 1);
                nativePayload.copyFrom(MemorySegment.ofArray(big).asSlice(1, max - 1));
                r.sendSegments(1, MemorySegment.ofArray(new byte[] {big[0]}), nativePayload);
                r.send(1, new byte[0], new byte[0]);
            } else {
                r.awaitReceived(8);
                List<Received> got = r.recorder.received;
                assertArrayEquals(new byte[0], got.get(0).bytes());
                assertArrayEquals(new byte[] {42}, got.get(1).bytes());
                assertArrayEquals(new byte[] {43}, got.get(2).bytes());
                for (int i = 3; i < 7; i++) {
                    assertArrayEquals(big, got.get(i).bytes(), "max-size message " + i);
                }
                assertArrayEquals(new byte[0], got.get(7).bytes());
                for (Received m : got) {
                    assertEquals(0, m.source());
                }
            }
        });
    }

    @Test
    void fullQueueReturnsRetryAndDrainsAfterProgress() throws Exception {
        final long sendLimitBytes = 256L << 20;
        runRanks(2, r -> {
            int max = r.transport.capabilities().maxEager();
            CountDownLatch go = r.shared("go", () -> new CountDownLatch(1));
            AtomicInteger accepted = r.shared("accepted", AtomicInteger::new);
            if (r.rank == 0) {
                Endpoint endpoint = r.transport.endpoint(1);
                int ok = 0;
                boolean sawRetry = false;
                while ((long) ok * max < sendLimitBytes) {
                    byte[] payload = pattern(max - 4, ok);
                    int status = endpoint.send(MemorySegment.ofArray(ints(ok)),
                            MemorySegment.ofArray(payload));
                    if (status == PostStatus.RETRY) {
                        sawRetry = true;
                        break;
                    }
                    assertEquals(PostStatus.OK, status);
                    ok++;
                }
                assertTrue(sawRetry, "no RETRY after " + ok + " messages that nobody received");
                accepted.set(ok);
                go.countDown();
                for (int seq = ok; seq < ok + 20; seq++) {
                    r.send(1, ints(seq), pattern(max - 4, seq));
                }
            } else {
                assertTrue(go.await(timeoutSeconds(), TimeUnit.SECONDS));
                int total = accepted.get() + 20;
                r.awaitReceived(total);
                for (int seq = 0; seq < total; seq++) {
                    Received m = r.recorder.received.get(seq);
                    assertEquals(seq, m.intAt(0));
                    assertArrayEquals(pattern(max - 4, seq), Arrays.copyOfRange(m.bytes(), 4, m.bytes().length));
                }
            }
        });
    }

    @Test
    void registeringHeapMemoryIsRefused() throws Exception {
        runRanks(2, r -> {
            assertThrows(IllegalArgumentException.class,
                    () -> r.transport.register(MemorySegment.ofArray(new byte[64])));
            MemorySegment memory = r.arena.allocate(4096, 64);
            try (MemoryRegistration registration = r.transport.register(memory)) {
                assertEquals(memory.address(), registration.address());
                assertEquals(4096, registration.length());
                assertEquals(memory.address(), registration.segment().address());
            }
        });
    }

    @Test
    void rdmaWritePlacesData() throws Exception {
        runRanks(2, r -> {
            assumeTrue(r.transport.capabilities().has(Capability.RDMA_WRITE), "no RDMA_WRITE");
            final int length = (1 << 20) + 13;
            if (r.rank == 1) {
                MemorySegment target = r.arena.allocate(length, 64);
                MemoryRegistration registration = r.transport.register(target);
                r.publish("target", registration);
                r.barrier();
                assertArrayEquals(pattern(length, 7), target.toArray(ValueLayout.JAVA_BYTE));
                registration.close();
            } else {
                RemoteMemory target = r.awaitShared("target");
                MemorySegment source = r.arena.allocate(length, 64);
                source.copyFrom(MemorySegment.ofArray(pattern(length, 7)));
                MemoryRegistration registration = r.transport.register(source);
                Endpoint endpoint = r.transport.endpoint(1);
                long[] cuts = {0, 0, 1, 8, 4104, 70000, length};
                for (int i = 0; i + 1 < cuts.length; i++) {
                    long from = cuts[i];
                    long n = cuts[i + 1] - from;
                    long wrId = 1000 + i;
                    r.post(() -> endpoint.write(source.asSlice(from, n), target.address() + from,
                            target.remoteKey(), wrId));
                }
                for (int i = 0; i + 1 < cuts.length; i++) {
                    r.awaitCompletion(1000 + i);
                }
                registration.close();
                r.barrier();
            }
        });
    }

    /**
     * Rank 1's side of the read tests: {@code length} bytes of {@code pattern(length, seed)},
     * registered and published as "source" until the reader's barrier.
     */
    private void serveReadSource(Rank r, int length, int seed) throws Exception {
        MemorySegment source = r.arena.allocate(length, 64);
        source.copyFrom(MemorySegment.ofArray(pattern(length, seed)));
        MemoryRegistration registration = r.transport.register(source);
        r.publish("source", registration);
        r.barrier();
        registration.close();
    }

    @Test
    void rdmaReadFetchesData() throws Exception {
        runRanks(2, r -> {
            assumeTrue(r.transport.capabilities().has(Capability.RDMA_READ), "no RDMA_READ");
            final int length = 3 * (1 << 20) + 5;
            if (r.rank == 1) {
                serveReadSource(r, length, 11);
            } else {
                RemoteMemory source = r.awaitShared("source");
                MemorySegment local = r.arena.allocate(length, 64);
                MemoryRegistration registration = r.transport.register(local);
                Endpoint endpoint = r.transport.endpoint(1);
                r.post(() -> endpoint.read(local, source.address(), source.remoteKey(), 1));
                r.awaitCompletion(1);
                assertArrayEquals(pattern(length, 11), local.toArray(ValueLayout.JAVA_BYTE));
                // a part from the middle, and nothing at all
                MemorySegment part = local.asSlice(0, 777);
                part.fill((byte) 0);
                r.post(() -> endpoint.read(part, source.address() + 12345, source.remoteKey(), 2));
                r.post(() -> endpoint.read(local.asSlice(0, 0), source.address(), source.remoteKey(), 3));
                r.awaitCompletion(2);
                r.awaitCompletion(3);
                assertArrayEquals(Arrays.copyOfRange(pattern(length, 11), 12345, 12345 + 777),
                        part.toArray(ValueLayout.JAVA_BYTE));
                registration.close();
                r.barrier();
            }
        });
    }

    /**
     * A zero-length read posted right behind a large one: the responder is still sending the first
     * response when the second request arrives (Soft-iWARP answered it with the first request's
     * bytes and ended the connection; docs/transport-iwarp.md).
     */
    @Test
    void zeroLengthReadBehindALargeReadCompletesOk() throws Exception {
        runRanks(2, r -> {
            assumeTrue(r.transport.capabilities().has(Capability.RDMA_READ), "no RDMA_READ");
            final int length = 2 * (1 << 20) + 3;
            if (r.rank == 1) {
                serveReadSource(r, length, 5);
            } else {
                RemoteMemory source = r.awaitShared("source");
                MemorySegment local = r.arena.allocate(length, 64);
                MemoryRegistration registration = r.transport.register(local);
                Endpoint endpoint = r.transport.endpoint(1);
                for (int round = 0; round < 4; round++) {
                    long big = 10 + 2 * round;
                    r.post(() -> endpoint.read(local, source.address(), source.remoteKey(), big));
                    r.post(() -> endpoint.read(local.asSlice(0, 0), source.address() + 64, source.remoteKey(), big + 1));
                    r.awaitCompletion(big);
                    r.awaitCompletion(big + 1);
                }
                assertArrayEquals(pattern(length, 5), local.toArray(ValueLayout.JAVA_BYTE));
                registration.close();
                r.barrier();
            }
        });
    }

    @Test
    void writeThenReadBackFromTheSameInitiator() throws Exception {
        runRanks(2, r -> {
            Capabilities caps = r.transport.capabilities();
            assumeTrue(caps.has(Capability.RDMA_WRITE) && caps.has(Capability.RDMA_READ), "no RDMA");
            final int length = 200_003;
            if (r.rank == 1) {
                MemorySegment memory = r.arena.allocate(length, 64);
                MemoryRegistration registration = r.transport.register(memory);
                r.publish("memory", registration);
                r.barrier();
                registration.close();
            } else {
                RemoteMemory remote = r.awaitShared("memory");
                MemorySegment out = r.arena.allocate(length, 64);
                MemorySegment in = r.arena.allocate(length, 64);
                out.copyFrom(MemorySegment.ofArray(pattern(length, 5)));
                MemoryRegistration a = r.transport.register(out);
                MemoryRegistration b = r.transport.register(in);
                Endpoint endpoint = r.transport.endpoint(1);
                r.post(() -> endpoint.write(out, remote.address(), remote.remoteKey(), 10));
                r.awaitCompletion(10);
                r.post(() -> endpoint.read(in, remote.address(), remote.remoteKey(), 11));
                r.awaitCompletion(11);
                assertArrayEquals(pattern(length, 5), in.toArray(ValueLayout.JAVA_BYTE));
                a.close();
                b.close();
                r.barrier();
            }
        });
    }

    @Test
    void writeWithImmediateArrivesAfterTheData() throws Exception {
        runRanks(2, r -> {
            assumeTrue(r.transport.capabilities().has(Capability.WRITE_WITH_IMMEDIATE),
                    "no WRITE_WITH_IMMEDIATE");
            final int length = 300_001;
            final int rounds = 5;
            if (r.rank == 1) {
                MemorySegment target = r.arena.allocate(length, 64);
                MemoryRegistration registration = r.transport.register(target);
                List<String> problems = new ArrayList<>();
                r.recorder.immediateHook = (source, imm) -> {
                    int round = imm - 0x5EED;
                    if (source != 0 || round < 0 || round >= rounds) {
                        problems.add("unexpected immediate " + imm + " from " + source);
                    } else if (!Arrays.equals(pattern(length, round),
                            target.toArray(ValueLayout.JAVA_BYTE))) {
                        problems.add("data of round " + round + " not in place at its immediate");
                    }
                };
                r.publish("target", registration);
                for (int round = 0; round < rounds; round++) {
                    r.awaitImmediates(round + 1);
                    r.sendEmpty(0);
                }
                assertEquals(List.of(), problems);
                registration.close();
            } else {
                RemoteMemory target = r.awaitShared("target");
                MemorySegment source = r.arena.allocate(length, 64);
                MemoryRegistration registration = r.transport.register(source);
                Endpoint endpoint = r.transport.endpoint(1);
                for (int round = 0; round < rounds; round++) {
                    source.copyFrom(MemorySegment.ofArray(pattern(length, round)));
                    final int imm = 0x5EED + round;
                    final long wrId = 50 + round;
                    r.post(() -> endpoint.writeWithImmediate(source, target.address(),
                            target.remoteKey(), imm, wrId));
                    r.awaitCompletion(wrId);
                    r.awaitReceived(round + 1); // the target saw the immediate
                }
                registration.close();
            }
        });
    }

    @Test
    void inOrderPlacementMakesTheLastByteSafeToPoll() throws Exception {
        runRanks(2, r -> {
            Capabilities caps = r.transport.capabilities();
            assumeTrue(caps.has(Capability.IN_ORDER_PLACEMENT) && caps.has(Capability.RDMA_WRITE),
                    "no IN_ORDER_PLACEMENT");
            final int length = 4 << 20;
            final int rounds = 4;
            if (r.rank == 1) {
                MemorySegment target = r.arena.allocate(length, 64);
                MemoryRegistration registration = r.transport.register(target);
                r.publish("target", registration);
                for (int round = 1; round <= rounds; round++) {
                    long deadline = r.deadline();
                    while ((byte) BYTE.getAcquire(target, (long) length - 1) != (byte) round) {
                        r.transport.progress();
                        r.checkDeadline(deadline, "last byte of round " + round);
                    }
                    byte[] expected = pattern(length, round);
                    expected[length - 1] = (byte) round;
                    assertArrayEquals(expected, target.toArray(ValueLayout.JAVA_BYTE),
                            "buffer when its last byte changed, round " + round);
                    r.sendEmpty(0);
                }
                registration.close();
            } else {
                RemoteMemory target = r.awaitShared("target");
                MemorySegment source = r.arena.allocate(length, 64);
                MemoryRegistration registration = r.transport.register(source);
                Endpoint endpoint = r.transport.endpoint(1);
                for (int round = 1; round <= rounds; round++) {
                    byte[] data = pattern(length, round);
                    data[length - 1] = (byte) round;
                    source.copyFrom(MemorySegment.ofArray(data));
                    final long wrId = round;
                    r.post(() -> endpoint.write(source, target.address(), target.remoteKey(), wrId));
                    r.awaitCompletion(wrId);
                    r.awaitReceived(round);
                }
                registration.close();
            }
        });
    }

    @Test
    void manyOutstandingRdmaOperationsCompleteOnceEach() throws Exception {
        runRanks(2, r -> {
            assumeTrue(r.transport.capabilities().has(Capability.RDMA_WRITE), "no RDMA_WRITE");
            final int ops = 500;
            final int piece = 1000;
            if (r.rank == 1) {
                MemorySegment target = r.arena.allocate((long) ops * piece, 64);
                MemoryRegistration registration = r.transport.register(target);
                r.publish("target", registration);
                r.barrier();
                assertArrayEquals(pattern(ops * piece, 9), target.toArray(ValueLayout.JAVA_BYTE));
                registration.close();
            } else {
                RemoteMemory target = r.awaitShared("target");
                MemorySegment source = r.arena.allocate((long) ops * piece, 64);
                source.copyFrom(MemorySegment.ofArray(pattern(ops * piece, 9)));
                MemoryRegistration registration = r.transport.register(source);
                Endpoint endpoint = r.transport.endpoint(1);
                for (int i = 0; i < ops; i++) {
                    final long offset = (long) i * piece;
                    final long wrId = 7_000_000L + i;
                    r.post(() -> endpoint.write(source.asSlice(offset, piece),
                            target.address() + offset, target.remoteKey(), wrId));
                }
                for (int i = 0; i < ops; i++) {
                    r.awaitCompletion(7_000_000L + i);
                }
                r.progressFor(20);
                assertEquals(ops, r.recorder.completions.size(), "each completion exactly once");
                registration.close();
                r.barrier();
            }
        });
    }
}
