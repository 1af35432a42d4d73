package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.verbatim.bootstrap.InJvmBootstrap;

/**
 * The harness of the transport conformance suite: ranks are threads in one JVM, each with its own
 * opened transport and an {@link InJvmBootstrap}; a {@link Recorder} keeps what the transport
 * delivers, and {@link Rank} has the waiting helpers (every wait has the hard limit
 * {@link #timeoutSeconds()} and gives up as soon as another rank failed).
 *
 * <p>The sections of the suite extend each other in a chain that ends in
 * {@link TransportConformanceSuite}, the class a transport's test subclasses:
 * {@code ConformanceHarness <- GatherScatterSection <- ListPostSection <- AtomicsSection <-
 * FlushSection <- EagerClaimSection <- ProgressSection <- ManyRegistrationsSection <-
 * ListErrorSection <- ErrorCompletionSection <- TransportConformanceSuite}. Each section skips
 * (JUnit assumption) what the transport does not advertise.
 */
public abstract class ConformanceHarness {

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

    /** The body one rank runs, on its own thread, with its own opened transport. */
    @FunctionalInterface
    protected interface RankBody {
        void run(Rank rank) throws Exception;
    }

    /** A message as the handler saw it (copied: the transport lends the segment). */
    protected record Received(int source, byte[] bytes) {
        public int intAt(int offset) {
            return ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).getInt(offset);
        }
    }

    /** Records everything the transport delivers to one rank, completion statuses included. */
    protected static final class Recorder implements CompletionHandler {
        public final List<Received> received = new ArrayList<>();
        public final List<long[]> immediates = new ArrayList<>();
        /** Work-request ids in completion order; {@link #statuses} has each one's status. */
        public final List<Long> completions = new ArrayList<>();
        public final List<Integer> statuses = new ArrayList<>();
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
            statuses.add(status);
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
        /** Completions seen so far, by work-request id: status of the first, and how many. */
        private final Map<Long, Integer> statusById = new HashMap<>();
        private final Map<Long, Integer> timesById = new HashMap<>();
        private int scanned;

        Rank(int rank, int size, Transport transport, Recorder recorder, Arena arena, Shared shared) {
            this.rank = rank;
            this.size = size;
            this.transport = transport;
            this.recorder = recorder;
            this.arena = arena;
            this.shared = shared;
        }

        public Capabilities caps() {
            return transport.capabilities();
        }

        long deadline() {
            return System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds());
        }

        void checkDeadline(long deadline, String what) {
            if (System.nanoTime() - deadline > 0) {
                // a peer the transport gave up on leaves its posts at RETRY: say so, with the reason
                fail("rank " + rank + " timed out waiting for " + what + (recorder.failures.isEmpty() ? ""
                        : " (peer failures reported: " + recorder.failures + ")"));
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

        /** Waits (progressing) for {@code wrId} to complete, and requires status OK. */
        public void awaitCompletion(long wrId) {
            int status = awaitStatus(wrId);
            assertEquals(CompletionStatus.describe(CompletionStatus.OK), CompletionStatus.describe(status),
                    "status of work request " + wrId);
        }

        /** Waits (progressing) for {@code wrId} to complete and returns its status. */
        public int awaitStatus(long wrId) {
            long deadline = deadline();
            while (!completedYet(wrId)) {
                transport.progress();
                checkDeadline(deadline, "completion of work request " + wrId);
            }
            return statusById.get(wrId);
        }

        /** True once {@code wrId} has completed (does not progress). */
        public boolean completedYet(long wrId) {
            scanCompletions();
            return statusById.containsKey(wrId);
        }

        /** How many times {@code wrId} has completed so far (does not progress). */
        public int timesCompleted(long wrId) {
            scanCompletions();
            return timesById.getOrDefault(wrId, 0);
        }

        private void scanCompletions() {
            List<Long> ids = recorder.completions;
            for (; scanned < ids.size(); scanned++) {
                long id = ids.get(scanned);
                statusById.putIfAbsent(id, recorder.statuses.get(scanned));
                timesById.merge(id, 1, Integer::sum);
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

        /** A one-shot signal between the ranks of this run that bypasses the transport. */
        public CountDownLatch signal(String name) {
            return shared("signal." + name, () -> new CountDownLatch(1));
        }

        /** Waits for {@code name} to be signalled without calling the transport at all. */
        public void awaitSignalWithoutProgress(String name) throws InterruptedException {
            CountDownLatch latch = signal(name);
            long deadline = deadline();
            while (!latch.await(10, TimeUnit.MILLISECONDS)) {
                checkDeadline(deadline, "signal " + name + " (not progressing)");
            }
        }

        /** Waits for {@code name} to be signalled, progressing meanwhile. */
        public void awaitSignal(String name) {
            CountDownLatch latch = signal(name);
            long deadline = deadline();
            while (latch.getCount() > 0) {
                transport.progress();
                checkDeadline(deadline, "signal " + name);
            }
        }

        @SuppressWarnings("unchecked")
        public <T> T shared(String key, Supplier<T> create) {
            return (T) shared.values.computeIfAbsent(key, k -> create.get());
        }

        /** Native memory of {@code length} bytes, 64-byte aligned, filled with {@code fill}. */
        public MemorySegment allocate(long length, byte fill) {
            MemorySegment memory = arena.allocate(Math.max(1, length), 64).asSlice(0, length);
            memory.fill(fill);
            return memory;
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
     * fails with the first rank's failure (the later ranks' failures suppressed in it) or on
     * timeout. Each rank passes a final progressing
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
                    AssertionError e = new AssertionError("rank " + rank + ": " + t, t);
                    if (!shared.failure.compareAndSet(null, e)) {
                        shared.failure.get().addSuppressed(e); // the other ranks' view, for the report
                    }
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

    /**
     * {@code rounds} request-reply exchanges between ranks 0 and 1, rank 0 asking: every message
     * carries its round number and {@code length} pattern bytes, both checked on arrival.
     */
    protected static void pingPong(Rank r, int rounds, int length) {
        int peer = 1 - r.rank;
        for (int i = 0; i < rounds; i++) {
            if (r.rank == 0) {
                r.send(peer, ints(i), pattern(length, i));
                r.awaitReceived(i + 1);
            } else {
                r.awaitReceived(i + 1);
                r.send(peer, ints(i), pattern(length, i));
            }
            Received m = r.recorder.received.get(i);
            assertEquals(i, m.intAt(0), "round");
            assertEquals(Arrays.toString(pattern(length, i)),
                    Arrays.toString(Arrays.copyOfRange(m.bytes(), 4, m.bytes().length)), "payload of round " + i);
        }
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

    /** The bytes of {@code segment} from {@code offset}, {@code length} of them. */
    protected static byte[] bytes(MemorySegment segment, long offset, long length) {
        return segment.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
    }

    /** {@code length} copies of {@code value}. */
    protected static byte[] filled(int length, byte value) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, value);
        return bytes;
    }
}
