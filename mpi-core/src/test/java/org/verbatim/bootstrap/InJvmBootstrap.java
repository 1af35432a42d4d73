package org.verbatim.bootstrap;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A bootstrap for several ranks inside one JVM (one thread per rank), for fast tests of
 * transports and protocols. Create one {@link Job} and give each rank thread {@code job.rank(r)}.
 */
public final class InJvmBootstrap implements Bootstrap {
    private final Job job;
    private final int rank;

    private InJvmBootstrap(Job job, int rank) {
        this.job = job;
        this.rank = rank;
    }

    /** The shared state of one in-JVM job. */
    public static final class Job {
        private final int size;
        private final String id = "injvm-" + UUID.randomUUID().toString().substring(0, 8);
        private final Map<String, String> kvs = new ConcurrentHashMap<>();
        private final CyclicBarrier barrier;
        private volatile String aborted;

        public Job(int size) {
            this.size = size;
            this.barrier = new CyclicBarrier(size);
        }

        public InJvmBootstrap rank(int rank) {
            if (rank < 0 || rank >= size) {
                throw new IllegalArgumentException("rank " + rank + " not in [0," + size + ")");
            }
            return new InJvmBootstrap(this, rank);
        }

        public String abortMessage() {
            return aborted;
        }
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return job.size;
    }

    @Override
    public String jobId() {
        return job.id;
    }

    @Override
    public void put(String key, String value) {
        job.kvs.put(key, value);
    }

    @Override
    public String get(String key) {
        return job.kvs.get(key);
    }

    @Override
    public void barrier() {
        try {
            job.barrier.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted in bootstrap barrier", e);
        } catch (BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException("bootstrap barrier broken (rank " + rank + ")", e);
        }
    }

    @Override
    public void abort(int code, String message) {
        job.aborted = "rank " + rank + " aborted with " + code + ": " + message;
        job.barrier.reset();
        throw new IllegalStateException(job.aborted);
    }

    @Override
    public void close() {
    }
}
