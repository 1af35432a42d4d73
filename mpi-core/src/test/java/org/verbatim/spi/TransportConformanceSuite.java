package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.verbatim.bootstrap.InJvmBootstrap;

/**
 * The contract every transport keeps, run against each implementation by a subclass in the
 * transport's module (this class ships in mpi-core's test-jar). Ranks are threads in one JVM with
 * an {@link InJvmBootstrap}; all of them are on one host ("localhost") unless {@link #hosts} says
 * otherwise. Operations the transport does not advertise are skipped, and everything it advertises
 * is exercised.
 */
public abstract class TransportConformanceSuite {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();

    /** The transport under test. */
    protected abstract TransportProvider provider();

    /** Configuration given to every rank (verbatim.* properties). */
    protected Map<String, String> config() {
        return Map.of();
    }

    /** Host name of every rank; by default all on one host. */
    protected String[] hosts(int size) {
        String[] hosts = new String[size];
        Arrays.fill(hosts, "localhost");
        return hosts;
    }

    /** Hard time limit of one test (all ranks). */
    protected long timeoutSeconds() {
        return 60;
    }

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
                    assertTrue(m.source >= 1 && m.source < r.size, "source " + m.source);
                    int seq = m.intAt(0);
                    assertEquals(m.source, m.intAt(4), "sender id inside the message");
                    assertEquals(next[m.source]++, seq, "order from rank " + m.source);
                    assertEquals(8 + seq % spread, m.bytes.length, "length of message " + seq);
                    for (int i = 8; i < m.bytes.length; i++) {
                        assertEquals((byte) (seq + i), m.bytes[i], "byte " + i + " of " + seq);
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
                assertArrayEquals(new byte[0], got.get(0).bytes);
                assertArrayEquals(new byte[] {42}, got.get(1).bytes);
                assertArrayEquals(new byte[] {43}, got.get(2).bytes);
                for (int i = 3; i < 7; i++) {
                    assertArrayEquals(big, got.get(i).bytes, "max-size message " + i);
                }
                assertArrayEquals(new byte[0], got.get(7).bytes);
                for (Received m : got) {
                    assertEquals(0, m.source);
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
                    assertArrayEquals(pattern(max - 4, seq), Arrays.copyOfRange(m.bytes, 4, m.bytes.length));
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

    @Test
    void rdmaReadFetchesData() throws Exception {
        runRanks(2, r -> {
            assumeTrue(r.transport.capabilities().has(Capability.RDMA_READ), "no RDMA_READ");
            final int length = 3 * (1 << 20) + 5;
            if (r.rank == 1) {
                MemorySegment source = r.arena.allocate(length, 64);
                source.copyFrom(MemorySegment.ofArray(pattern(length, 11)));
                MemoryRegistration registration = r.transport.register(source);
                r.publish("source", registration);
                r.barrier();
                registration.close();
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

    // ------------------------------------------------------------------ harness

    /** The body one rank runs, on its own thread, with its own opened transport. */
    @FunctionalInterface
    protected interface RankBody {
        void run(Rank rank) throws Exception;
    }

    /** A message as the handler saw it (copied: the transport lends the segment). */
    protected record Received(int source, byte[] bytes) {
        int intAt(int offset) {
            return ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).getInt(offset);
        }
    }

    /** Records everything the transport delivers to one rank. */
    protected static final class Recorder implements CompletionHandler {
        public final List<Received> received = new ArrayList<>();
        public final List<long[]> immediates = new ArrayList<>();
        public final List<Long> completions = new ArrayList<>();
        public final Map<Integer, String> failures = new HashMap<>();
        public volatile ImmediateHook immediateHook;

        @Override
        public void onReceive(int source, MemorySegment message) {
            received.add(new Received(source, message.toArray(ValueLayout.JAVA_BYTE)));
        }

        @Override
        public void onImmediate(int source, int immediate) {
            ImmediateHook hook = immediateHook;
            if (hook != null) {
                hook.onImmediate(source, immediate);
            }
            immediates.add(new long[] {source, immediate});
        }

        @Override
        public void onComplete(long wrId, int status) {
            completions.add(wrId);
        }

        @Override
        public void onPeerFailure(int peer, String reason) {
            failures.put(peer, reason);
        }
    }

    @FunctionalInterface
    protected interface ImmediateHook {
        void onImmediate(int source, int immediate);
    }

    /** State shared by the rank threads of one run. */
    private static final class Shared {
        final Map<String, Object> values = new ConcurrentHashMap<>();
        final AtomicInteger barrierArrived = new AtomicInteger();
        final AtomicInteger barrierGeneration = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final int size;

        Shared(int size) {
            this.size = size;
        }
    }

    /** One rank's view: its transport, what it received, and helpers that keep progressing. */
    protected final class Rank {
        public final int rank;
        public final int size;
        public final Transport transport;
        public final Recorder recorder;
        public final Arena arena;
        private final Shared shared;
        private final Set<Long> completed = new HashSet<>();

        Rank(int rank, int size, Transport transport, Recorder recorder, Arena arena, Shared shared) {
            this.rank = rank;
            this.size = size;
            this.transport = transport;
            this.recorder = recorder;
            this.arena = arena;
            this.shared = shared;
        }

        long deadline() {
            return System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds());
        }

        void checkDeadline(long deadline, String what) {
            if (System.nanoTime() - deadline > 0) {
                fail("rank " + rank + " timed out waiting for " + what);
            }
            Throwable other = shared.failure.get();
            if (other != null) {
                throw new IllegalStateException("another rank failed", other);
            }
        }

        /** Retries {@code op} (with progress) until it is posted. */
        public void post(IntSupplier op) {
            long deadline = deadline();
            while (true) {
                int status = op.getAsInt();
                if (status == PostStatus.OK) {
                    return;
                }
                assertEquals(PostStatus.RETRY, status, "post status");
                transport.progress();
                checkDeadline(deadline, "a post to complete");
            }
        }

        public void send(int peer, byte[] header, byte[] payload) {
            sendSegments(peer, MemorySegment.ofArray(header), MemorySegment.ofArray(payload));
        }

        public void sendSegments(int peer, MemorySegment header, MemorySegment payload) {
            Endpoint endpoint = transport.endpoint(peer);
            post(() -> endpoint.send(header, payload));
        }

        public void sendEmpty(int peer) {
            send(peer, new byte[0], new byte[0]);
        }

        public void awaitReceived(int count) {
            long deadline = deadline();
            while (recorder.received.size() < count) {
                transport.progress();
                checkDeadline(deadline, count + " messages (have " + recorder.received.size() + ")");
            }
        }

        public void awaitImmediates(int count) {
            long deadline = deadline();
            while (recorder.immediates.size() < count) {
                transport.progress();
                checkDeadline(deadline, count + " immediates");
            }
        }

        public void awaitCompletion(long wrId) {
            long deadline = deadline();
            while (true) {
                for (Long id : recorder.completions) {
                    completed.add(id);
                }
                if (completed.contains(wrId)) {
                    return;
                }
                transport.progress();
                checkDeadline(deadline, "completion of work request " + wrId);
            }
        }

        public void progressFor(long millis) {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            while (System.nanoTime() - end < 0) {
                transport.progress();
            }
        }

        /** A barrier over the ranks that keeps this rank's transport progressing. */
        public void barrier() {
            int generation = shared.barrierGeneration.get();
            if (shared.barrierArrived.incrementAndGet() == shared.size) {
                shared.barrierArrived.set(0);
                shared.barrierGeneration.incrementAndGet();
                return;
            }
            long deadline = deadline();
            while (shared.barrierGeneration.get() == generation) {
                transport.progress();
                Thread.onSpinWait();
                checkDeadline(deadline, "the test barrier");
            }
        }

        @SuppressWarnings("unchecked")
        public <T> T shared(String key, java.util.function.Supplier<T> create) {
            return (T) shared.values.computeIfAbsent(key, k -> create.get());
        }

        public void publish(String key, RemoteMemory memory) {
            shared.values.put(key, new long[] {memory.address(), memory.remoteKey(), memory.length()});
        }

        public RemoteMemory awaitShared(String key) {
            long deadline = deadline();
            Object value;
            while ((value = shared.values.get(key)) == null) {
                transport.progress();
                checkDeadline(deadline, "shared value " + key);
            }
            long[] v = (long[]) value;
            return new RemoteMemory() {
                @Override
                public long address() {
                    return v[0];
                }

                @Override
                public long remoteKey() {
                    return v[1];
                }

                @Override
                public long length() {
                    return v[2];
                }
            };
        }
    }

    /**
     * Runs {@code body} on {@code size} rank threads, each with its own opened transport, and
     * fails with the first rank's failure (or on timeout). Each rank passes a final progressing
     * barrier before it closes its transport, so no peer is still working on its memory.
     */
    protected void runRanks(int size, RankBody body) throws Exception {
        InJvmBootstrap.Job job = new InJvmBootstrap.Job(size);
        Shared shared = new Shared(size);
        String[] hosts = hosts(size);
        Thread[] threads = new Thread[size];
        for (int r = 0; r < size; r++) {
            final int rank = r;
            threads[r] = new Thread(() -> {
                Recorder recorder = new Recorder();
                try (Arena arena = Arena.ofShared()) {
                    TransportContext context = new TransportContext(rank, size, hosts,
                            job.rank(rank), recorder, config());
                    Transport transport = provider().open(context);
                    try {
                        Rank view = new Rank(rank, size, transport, recorder, arena, shared);
                        body.run(view);
                        view.barrier();
                        assertEquals(Map.of(), recorder.failures, "peer failures reported");
                    } finally {
                        transport.close();
                    }
                } catch (Throwable t) {
                    shared.failure.compareAndSet(null, new AssertionError("rank " + rank + ": " + t, t));
                }
            }, "rank-" + r);
            threads[r].setDaemon(true);
            threads[r].start();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds() + 10);
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (thread.isAlive()) {
                shared.failure.compareAndSet(null, new AssertionError(thread.getName() + " hung"));
                for (Thread t : threads) {
                    t.interrupt();
                }
                break;
            }
        }
        Throwable failure = shared.failure.get();
        if (failure != null) {
            Throwable cause = failure.getCause();
            if (cause instanceof org.opentest4j.TestAbortedException skipped) {
                throw skipped;
            }
            if (failure instanceof AssertionError e) {
                throw e;
            }
            throw new AssertionError(failure);
        }
        assertNotNull(job);
    }

    // ------------------------------------------------------------------ data

    /** A reproducible byte pattern. */
    protected static byte[] pattern(int length, int seed) {
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

    protected static byte[] ints(int... values) {
        ByteBuffer buffer = ByteBuffer.allocate(4 * values.length).order(ByteOrder.nativeOrder());
        for (int v : values) {
            buffer.putInt(v);
        }
        return buffer.array();
    }
}
