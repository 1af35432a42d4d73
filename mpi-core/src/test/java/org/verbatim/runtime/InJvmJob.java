package org.verbatim.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.verbatim.bootstrap.InJvmBootstrap;

/** Runs one body per rank, each on its own thread with its own MpiProcess, with a time limit. */
public final class InJvmJob {
    public interface RankBody {
        void run(MpiProcess p) throws Exception;
    }

    private InJvmJob() {
    }

    public static void run(int size, Map<String, String> config, int threadLevel,
                           LoopbackFabric fabric, RankBody body) throws Exception {
        InJvmBootstrap.Job job = new InJvmBootstrap.Job(size);
        ExecutorService pool = Executors.newFixedThreadPool(size);
        java.util.concurrent.atomic.AtomicReference<AssertionError> failure =
                new java.util.concurrent.atomic.AtomicReference<>();
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                int rank = r;
                results.add(pool.submit(() -> {
                    MpiProcess p = MpiProcess.start(job.rank(rank), config, threadLevel,
                            List.of(fabric.provider()));
                    try {
                        body.run(p);
                        Agreement.barrier(p.engine(), 1, identity(size), rank);
                    } catch (Throwable t) {
                        // recorded before close, which waits for the peers and may never return
                        failure.compareAndSet(null, new AssertionError("rank " + rank + " failed", t));
                        throw t;
                    } finally {
                        p.close();
                    }
                    return null;
                }));
            }
            // the first rank to fail is reported at once (its peers would only time out waiting)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            boolean all = false;
            while (!all) {
                all = true;
                for (Future<?> f : results) {
                    if (!f.isDone()) {
                        all = false;
                    } else if (!f.isCancelled()) {
                        f.get();
                    }
                }
                if (!all) {
                    if (failure.get() != null) {
                        throw failure.get();
                    }
                    if (System.nanoTime() > deadline) {
                        throw new java.util.concurrent.TimeoutException("ranks still running after 60 s");
                    }
                    Thread.sleep(5);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static int[] identity(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }
}
