package org.verbatim.runtime;

import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.base.Profiler;
import org.verbatim.runtime.p2p.RecvOp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.spi.ProfileCounter;
import org.verbatim.spi.Transport;

/**
 * The profiler's counters of every rank combined at rank 0 at finalize
 * ({@code verbatim.core.profile}): the runtime's (messages, unexpected messages, communication
 * memory, the message-size histogram) and each transport's {@link Transport#profileCounters()}.
 * A binomial-tree reduction over the world, one vector of longs per rank:
 *
 * <pre>
 *  [0] digest of the transport counters' names (ranks whose transports differ are not mixed)
 *  [1] ranks in the runtime part    [2] ranks in the transport part
 *  [3] messages sent    [4] unexpected messages    [5] communication memory sum  [6] ... max
 *  [7 .. 7+C)  messages per size class    [7+C .. 7+2C)  bytes per size class
 *  then per transport counter: SUM: total; MAX: largest; SUM_AND_MAX: total, largest
 * </pre>
 */
public final class ProfileReport {
    private static final int TAG = 0x7fff_0002;
    private static final int DIGEST = 0;
    private static final int RANKS = 1;
    private static final int TRANSPORT_RANKS = 2;
    private static final int MESSAGES = 3;
    private static final int UNEXPECTED = 4;
    private static final int MEMORY_SUM = 5;
    private static final int MEMORY_MAX = 6;
    private static final int COUNTS = 7;
    private static final int VOLUMES = COUNTS + Profiler.CLASSES;
    private static final int TRANSPORT = VOLUMES + Profiler.CLASSES;

    /** A transport's counter with the transport's name. */
    private record Named(String transport, ProfileCounter counter) {
    }

    private ProfileReport() {
    }

    /**
     * Combines the counters of the ranks {@code world} (this one is {@code rank}) on the
     * communicator's collective {@code context}; returns the report on rank 0, null elsewhere.
     * Collective: every rank calls it.
     */
    public static String combine(MpiProcess p, int context, int[] world, int rank) {
        List<Named> counters = counters(p);
        long[] acc = vector(p, counters);
        int size = world.length;
        MemorySegment in = MemorySegment.ofArray(new long[acc.length]);
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((rank & mask) != 0) {
                Engine e = p.engine();
                e.await(e.p2p().send(context, rank, world[rank - mask], TAG, MemorySegment.ofArray(acc), null,
                        Mode.STANDARD));
                return null;
            }
            int child = rank + mask;
            if (child < size) {
                Engine e = p.engine();
                RecvOp r = e.p2p().receive(context, child, TAG, in, null, null);
                e.await(r);
                merge(acc, in.toArray(ValueLayout.JAVA_LONG), counters, r.bytes() / Long.BYTES);
            }
        }
        return format(acc, counters);
    }

    /** The per-rank lines (verbatim.core.profile-ranks): runtime and transport counters. */
    public static String rankLines(MpiProcess p) {
        StringBuilder sb = new StringBuilder();
        for (Transport t : p.engine().transports()) {
            List<ProfileCounter> cs = t.profileCounters();
            if (cs.isEmpty()) {
                continue;
            }
            sb.append("[verbatim ").append(t.name()).append("] rank ").append(p.rank()).append(':');
            String sep = " ";
            for (ProfileCounter c : cs) {
                sb.append(sep).append(c.name()).append(' ').append(c.value());
                if (!c.unit().isEmpty()) {
                    sb.append(' ').append(c.unit());
                }
                sep = ", ";
            }
            sb.append(System.lineSeparator());
        }
        return sb.toString();
    }

    private static List<Named> counters(MpiProcess p) {
        List<Named> all = new ArrayList<>();
        for (Transport t : p.engine().transports()) {
            for (ProfileCounter c : t.profileCounters()) {
                all.add(new Named(t.name(), c));
            }
        }
        for (org.verbatim.runtime.ext.RuntimeExtension x : p.extensions()) {
            for (ProfileCounter c : x.profileCounters()) {
                all.add(new Named(x.name(), c));
            }
        }
        return all;
    }

    private static long[] vector(MpiProcess p, List<Named> counters) {
        int slots = 0;
        long digest = 17;
        for (Named n : counters) {
            slots += n.counter().combine() == ProfileCounter.Combine.SUM_AND_MAX ? 2 : 1;
            digest = digest * 31 + (n.transport() + "/" + n.counter().name() + "/" + n.counter().combine()).hashCode();
        }
        long[] v = new long[TRANSPORT + slots];
        Profiler prof = p.profiler();
        long memory = p.engine().communicationMemory();
        v[DIGEST] = digest;
        v[RANKS] = 1;
        v[TRANSPORT_RANKS] = 1;
        v[MESSAGES] = prof.totalMessages();
        v[UNEXPECTED] = prof.unexpectedMessages();
        v[MEMORY_SUM] = memory;
        v[MEMORY_MAX] = memory;
        for (int i = 0; i < Profiler.CLASSES; i++) {
            v[COUNTS + i] = prof.count(i);
            v[VOLUMES + i] = prof.volume(i);
        }
        int at = TRANSPORT;
        for (Named n : counters) {
            long value = n.counter().value();
            v[at++] = value;
            if (n.counter().combine() == ProfileCounter.Combine.SUM_AND_MAX) {
                v[at++] = value;
            }
        }
        return v;
    }

    /** Adds {@code in} (the first {@code length} longs are valid) into {@code acc}. */
    static void merge(long[] acc, long[] in, List<Named> counters, long length) {
        if (length < TRANSPORT) {
            throw new MpiError(ErrorClass.ERR_INTERN, "profile reduction: a rank sent " + length
                    + " counters, fewer than the runtime's " + TRANSPORT);
        }
        acc[RANKS] += in[RANKS];
        acc[MESSAGES] += in[MESSAGES];
        acc[UNEXPECTED] += in[UNEXPECTED];
        acc[MEMORY_SUM] += in[MEMORY_SUM];
        acc[MEMORY_MAX] = Math.max(acc[MEMORY_MAX], in[MEMORY_MAX]);
        for (int i = COUNTS; i < TRANSPORT; i++) {
            acc[i] += in[i];
        }
        if (in[DIGEST] != acc[DIGEST] || length != acc.length) {
            return; // other transports on that side: their counters are not comparable
        }
        acc[TRANSPORT_RANKS] += in[TRANSPORT_RANKS];
        int at = TRANSPORT;
        for (Named n : counters) {
            switch (n.counter().combine()) {
                case SUM -> acc[at] += in[at];
                case MAX -> acc[at] = Math.max(acc[at], in[at]);
                case SUM_AND_MAX -> {
                    acc[at] += in[at];
                    at++;
                    acc[at] = Math.max(acc[at], in[at]);
                }
            }
            at++;
        }
    }

    private static String format(long[] v, List<Named> counters) {
        long ranks = v[RANKS];
        long messages = v[MESSAGES];
        long unexpected = v[UNEXPECTED];
        String nl = System.lineSeparator();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("verbatim profile, %d ranks (totals over the ranks):%n", ranks));
        sb.append(String.format("  communication memory  %d bytes (avg %d, max %d per rank)%n",
                v[MEMORY_SUM], v[MEMORY_SUM] / Math.max(1, ranks), v[MEMORY_MAX]));
        sb.append(String.format("  messages sent         %d%n", messages));
        sb.append(String.format("  unexpected received   %d (%.1f%% of the messages)%n", unexpected,
                messages == 0 ? 0.0 : 100.0 * unexpected / messages));
        sb.append("  message sizes:").append(nl);
        long[] counts = java.util.Arrays.copyOfRange(v, COUNTS, VOLUMES);
        long[] volumes = java.util.Arrays.copyOfRange(v, VOLUMES, TRANSPORT);
        sb.append(Profiler.histogram(counts, volumes));
        String current = null;
        int at = TRANSPORT;
        long tRanks = Math.max(1, v[TRANSPORT_RANKS]);
        for (Named n : counters) {
            ProfileCounter c = n.counter();
            if (!n.transport().equals(current)) {
                if (current != null) {
                    sb.append(nl);
                }
                current = n.transport();
                sb.append("[verbatim ").append(current).append("] ").append(v[TRANSPORT_RANKS]).append(" ranks");
                if (v[TRANSPORT_RANKS] != ranks) {
                    sb.append(" of ").append(ranks).append(" (the others opened other transports)");
                }
                sb.append(':');
            } else {
                sb.append(',');
            }
            String unit = c.unit().isEmpty() ? "" : " " + c.unit();
            switch (c.combine()) {
                case SUM -> sb.append(' ').append(c.name()).append(' ').append(v[at]).append(unit);
                case MAX -> sb.append(' ').append(c.name()).append(" max ").append(v[at]).append(unit);
                case SUM_AND_MAX -> {
                    sb.append(' ').append(c.name()).append(' ').append(v[at]).append(unit).append(" (avg ")
                            .append(v[at] / tRanks).append(", max ").append(v[at + 1]).append(" per rank)");
                    at++;
                }
            }
            at++;
        }
        if (current != null) {
            sb.append(nl);
        }
        return sb.toString();
    }
}
