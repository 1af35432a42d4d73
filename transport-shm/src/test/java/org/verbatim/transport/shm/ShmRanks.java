package org.verbatim.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.verbatim.bootstrap.InJvmBootstrap;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.TransportContext;

/**
 * Several shm ranks in this JVM, opened together (open is collective) and then driven from the
 * test's one thread: {@link #progress()} makes progress on all of them. Records what each rank's
 * handler gets, completion statuses included.
 */
final class ShmRanks implements AutoCloseable {
    static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    final ShmTransport[] transports;
    final Recorder[] recorders;

    ShmRanks(int size, Map<String, String> config) throws Exception {
        transports = new ShmTransport[size];
        recorders = new Recorder[size];
        InJvmBootstrap.Job job = new InJvmBootstrap.Job(size);
        String[] hosts = new String[size];
        java.util.Arrays.fill(hosts, "localhost");
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try {
            List<Future<ShmTransport>> opened = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                final int rank = r;
                recorders[r] = new Recorder();
                opened.add(pool.submit(() -> (ShmTransport) new ShmTransportProvider().open(
                        new TransportContext(rank, size, hosts, job.rank(rank), recorders[rank],
                                config))));
            }
            for (int r = 0; r < size; r++) {
                transports[r] = opened.get(r).get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static Map<String, String> cma(boolean on) {
        return on ? Map.of(ShmConfiguration.CMA.name(), "true")
                : Map.of(ShmConfiguration.CMA.name(), "false",
                        ShmConfiguration.EAGER_SIZE.name(), "1k",
                        ShmConfiguration.INBOX_SIZE.name(), "16k",
                        ShmConfiguration.MAX_RDMA_OPS.name(), "32");
    }

    int progress() {
        int work = 0;
        for (ShmTransport t : transports) {
            work += t.progress();
        }
        return work;
    }

    /** Retries {@code post} with progress until it is accepted. */
    void post(IntSupplier post) {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        int status;
        while ((status = post.getAsInt()) != PostStatus.OK) {
            assertEquals(PostStatus.RETRY, status);
            progress();
            if (System.nanoTime() > deadline) {
                fail("post not accepted in time");
            }
        }
    }

    /** Progresses until rank {@code rank} has the completion of {@code wrId}; returns its status. */
    int await(int rank, long wrId) {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (!recorders[rank].statuses.containsKey(wrId)) {
            progress();
            if (System.nanoTime() > deadline) {
                fail("rank " + rank + " waited in vain for completion " + wrId);
            }
        }
        return recorders[rank].statuses.get(wrId);
    }

    void awaitReceived(int rank, int count) {
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (recorders[rank].received.size() < count) {
            progress();
            if (System.nanoTime() > deadline) {
                fail("rank " + rank + " has " + recorders[rank].received.size() + " of " + count
                        + " messages");
            }
        }
    }

    @Override
    public void close() {
        for (ShmTransport t : transports) {
            if (t != null) {
                t.close();
            }
        }
    }

    static final class Recorder implements CompletionHandler {
        final List<byte[]> received = new ArrayList<>();
        final List<Integer> immediates = new ArrayList<>();
        /** Completion statuses by work-request id, and the ids in completion order. */
        final Map<Long, Integer> statuses = new HashMap<>();
        final List<Long> order = new ArrayList<>();
        final Map<Integer, String> failures = new HashMap<>();

        @Override
        public void onReceive(int source, MemorySegment message) {
            received.add(message.toArray(ValueLayout.JAVA_BYTE));
        }

        @Override
        public void onImmediate(int source, int immediate) {
            immediates.add(immediate);
        }

        @Override
        public void onComplete(long wrId, int status) {
            if (statuses.put(wrId, status) != null) {
                throw new AssertionError("work request " + wrId + " completed twice");
            }
            order.add(wrId);
        }

        @Override
        public void onPeerFailure(int peer, String reason) {
            failures.put(peer, reason);
        }
    }
}
