package org.verbatim.benchmarks.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Map;
import java.util.ServiceLoader;
import org.verbatim.bootstrap.Bootstrap;
import org.verbatim.bootstrap.Bootstraps;
import org.verbatim.bootstrap.HostInfo;
import org.verbatim.config.ConfigSource;
import org.verbatim.spi.Access;
import org.verbatim.spi.AtomicOp;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportProvider;

/**
 * Remote atomic latency over the transport SPI, no MPI: perftest's {@code ib_atomic_lat} loop on
 * a Verbatim transport. Rank 0 posts one fetch-and-add (or compare-and-swap) of the 64-bit word
 * rank 1 registered, waits for its completion by polling the transport, and posts the next;
 * rank 1 only keeps its transport progressing (the atomic itself needs nothing from it) until
 * the word holds the count of all operations. Rank 0 prints, like ib_atomic_lat, t_min,
 * t_typical (median), t_avg, 99% and 99.9% of the operations' latency in microseconds, each
 * operation timed by one {@code System.nanoTime} pair (its cost is printed, and is inside the
 * figures).
 *
 * <p>Started by Verbatim's {@code mpirun} (the PMI-1 bootstrap), two ranks:
 * <pre>
 * bin/mpirun -np 2 -x VERBATIM_IB_DEVICE=rxe0 -cp benchmarks/target/classes \
 *     org.verbatim.benchmarks.verbs.AtomicLatency [--transport ib] [--op fadd|cas] [--iterations N] [--warmup N]
 * </pre>
 * Compare, in the same guest run, with {@code ib_atomic_lat -d rxe0 -x <gid index> -A FETCH_AND_ADD}.
 */
public final class AtomicLatency {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private AtomicLatency() {
    }

    /** Completions and failures the transport delivers to this rank. */
    private static final class Completions implements CompletionHandler {
        long lastId = -1;
        int lastStatus;
        String failure;

        @Override
        public void onReceive(int source, MemorySegment message) {
        }

        @Override
        public void onImmediate(int source, int immediate) {
        }

        @Override
        public void onComplete(long wrId, int status) {
            lastId = wrId;
            lastStatus = status;
        }

        @Override
        public void onPeerFailure(int peer, String reason) {
            failure = "rank " + peer + " failed: " + reason;
        }
    }

    public static void main(String[] args) throws Exception {
        String transportName = "ib";
        String op = "fadd";
        int iterations = 10_000;
        int warmup = 1_000;
        boolean breakdown = false;
        boolean targetYields = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--transport" -> transportName = args[++i];
                case "--op" -> op = args[++i];
                case "--iterations" -> iterations = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--breakdown" -> breakdown = true;
                case "--target-idle" -> targetYields = switch (args[++i]) {
                    case "spin" -> false;
                    case "yield" -> true;
                    default -> throw new IllegalArgumentException("--target-idle spin or yield, not " + args[i]);
                };
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (--transport NAME --op fadd|cas --iterations N --warmup N --breakdown --target-idle spin|yield)");
            }
        }
        if (!op.equals("fadd") && !op.equals("cas")) {
            throw new IllegalArgumentException("--op fadd or cas, not " + op);
        }
        Bootstrap bootstrap = Bootstraps.fromEnvironment();
        int rank = bootstrap.rank();
        if (bootstrap.size() != 2) {
            throw new IllegalArgumentException("AtomicLatency runs on 2 ranks, not " + bootstrap.size());
        }
        bootstrap.put("atomic-latency.host." + rank, HostInfo.hostName());
        bootstrap.barrier();
        String[] hosts = {bootstrap.get("atomic-latency.host.0"), bootstrap.get("atomic-latency.host.1")};
        Completions completions = new Completions();
        Map<String, String> config = ConfigSource.load();
        TransportProvider provider = find(transportName);
        try (Arena arena = Arena.ofShared();
             Transport transport = provider.open(new TransportContext(rank, 2, hosts, bootstrap, completions, config))) {
            AtomicOp needed = op.equals("fadd") ? AtomicOp.FETCH_AND_ADD : AtomicOp.COMPARE_AND_SWAP;
            if (!transport.capabilities().has(Capability.ATOMICS) || !transport.capabilities().atomics().contains(needed)) {
                throw new IllegalStateException(transportName + " does not offer " + needed + ": "
                        + transport.capabilities());
            }
            long total = (long) warmup + iterations;
            if (rank == 1) {
                serve(bootstrap, transport, arena, completions, total, targetYields);
            } else {
                measure(bootstrap, transport, arena, completions, op.equals("fadd"), warmup, iterations, breakdown);
            }
            bootstrap.barrier();
        }
        bootstrap.close();
    }

    private static TransportProvider find(String name) {
        for (TransportProvider p : ServiceLoader.load(TransportProvider.class)) {
            if (p.name().equals(name)) {
                p.unavailabilityCause().ifPresent(cause -> {
                    throw new IllegalStateException(name + " is unavailable: " + cause);
                });
                return p;
            }
        }
        throw new IllegalStateException("no transport named " + name + " on the class path");
    }

    /** Rank 1: the target word; progresses until every operation has reached it. */
    private static void serve(Bootstrap bootstrap, Transport transport, Arena arena, Completions completions,
                              long total, boolean yields) {
        MemorySegment word = arena.allocate(64, 64);
        MemoryRegistration reg = transport.register(word, Access.REMOTE_ATOMIC | Access.REMOTE_READ);
        bootstrap.put("atomic-latency.word", reg.address() + ":" + reg.remoteKey());
        bootstrap.barrier();
        int idle = 0;
        while ((long) WORD.getVolatile(word, 0L) != total) {
            int work = transport.progress();
            check(completions);
            // yield: as perftest's ib_atomic_lat server, which sleeps, leave the CPU to the
            // measuring rank's JIT compiler and the kernel (the MPI runtime's spin-then-yield
            // idle strategy does the same after 4096 empty passes)
            idle = work > 0 ? 0 : idle + 1;
            if (yields && idle > 64) {
                Thread.yield();
            }
        }
        reg.close();
    }

    /** Rank 0: one operation at a time, each timed. */
    private static void measure(Bootstrap bootstrap, Transport transport, Arena arena, Completions completions,
                                boolean fetchAndAdd, int warmup, int iterations, boolean breakdown) {
        bootstrap.barrier();
        String[] target = bootstrap.get("atomic-latency.word").split(":");
        long address = Long.parseLong(target[0]);
        long key = Long.parseLong(target[1]);
        Endpoint endpoint = transport.endpoint(1);
        MemorySegment result = arena.allocate(64, 64);
        MemoryRegistration reg = transport.register(result, Access.LOCAL_WRITE);
        long[] nanos = new long[iterations];
        long[] postNanos = breakdown ? new long[iterations] : null;
        long passes = 0;
        long clock = clockReadNanos();
        for (int i = 0; i < warmup + iterations; i++) {
            long t0 = System.nanoTime();
            // compare-and-swap: expect the count so far and write the next, so it always succeeds
            int status;
            while ((status = fetchAndAdd ? endpoint.fetchAndAdd(result, address, key, 1, i)
                    : endpoint.compareAndSwap(result, address, key, i, i + 1, i)) == PostStatus.RETRY) {
                transport.progress();
                check(completions);
            }
            if (breakdown && i >= warmup) {
                postNanos[i - warmup] = System.nanoTime() - t0;
            }
            while (completions.lastId != i) {
                transport.progress();
                check(completions);
                if (breakdown) {
                    passes++;
                }
            }
            long t1 = System.nanoTime();
            if (completions.lastStatus != CompletionStatus.OK || result.get(ValueLayout.JAVA_LONG, 0) != i) {
                throw new IllegalStateException("operation " + i + " completed "
                        + CompletionStatus.describe(completions.lastStatus) + " with old value "
                        + result.get(ValueLayout.JAVA_LONG, 0));
            }
            if (i >= warmup) {
                nanos[i - warmup] = t1 - t0;
            }
        }
        reg.close();
        if (breakdown) {
            // the post alone (one clock read inside) and the progress passes until the completion
            Arrays.sort(postNanos);
            System.out.printf("# breakdown: post median %.2f us, progress passes per operation %.1f%n",
                    postNanos[iterations / 2] / 1e3, (double) passes / (warmup + iterations));
        }
        Arrays.sort(nanos);
        double sum = 0;
        for (long n : nanos) {
            sum += n;
        }
        System.out.printf("# Verbatim %s over %s: %d iterations after %d warm-up, clock read %.0f ns (inside)%n",
                fetchAndAdd ? "fetch-and-add" : "compare-and-swap", transport.name(), iterations, warmup,
                (double) clock);
        System.out.println("# t_min[usec]  t_typical[usec]  t_avg[usec]  99%[usec]  99.9%[usec]");
        System.out.printf("%.2f  %.2f  %.2f  %.2f  %.2f%n", nanos[0] / 1e3, nanos[iterations / 2] / 1e3,
                sum / iterations / 1e3, nanos[(int) (iterations * 0.99)] / 1e3,
                nanos[(int) (iterations * 0.999)] / 1e3);
    }

    private static void check(Completions completions) {
        if (completions.failure != null) {
            throw new IllegalStateException(completions.failure);
        }
    }

    /** What one System.nanoTime costs here (it is inside each figure). */
    private static long clockReadNanos() {
        long sink = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < 10_000; i++) {
            sink += System.nanoTime();
        }
        long t = (System.nanoTime() - t0) / 10_000;
        return sink == 42 ? t + 1 : t;
    }
}
