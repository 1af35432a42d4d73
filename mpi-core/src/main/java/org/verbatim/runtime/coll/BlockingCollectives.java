package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.Engine;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;

/**
 * The blocking small collectives (barrier, small allreduce) as a straight sequence of the
 * engine's blocking point-to-point steps, without a {@link Schedule}: each step posts the
 * engine's reused blocking receive, sends through the engine's request-free eager path when the
 * transport takes the message at once, and waits. No step records, lambdas, request objects or
 * poller registration: once the scratch buffer has the right size, a call allocates nothing.
 * A blocking collective is a few sub-microsecond messages, so that per-call machinery was most
 * of its cost.
 *
 * <p>The messages are exactly those of the schedule-built algorithms ({@link Barrier}, and
 * {@link Reduction}'s recursive doubling and binomial reduce + binomial broadcast): same peers,
 * order, sizes and tags, and the same bracketing of the reduction, so results are identical
 * whichever path a rank takes. One per communicator (the scratch is the communicator's); like
 * every collective on one communicator, not for concurrent use.
 */
public final class BlockingCollectives {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private final CollGroup group;
    private final Engine engine;
    private final int context;
    private final int rank;
    private final int[] peers;
    /** Receive scratch of the last size used (heap: small, and freed with the communicator). */
    private MemorySegment scratch = EMPTY;

    public BlockingCollectives(CollGroup group) {
        this.group = group;
        this.engine = group.engine();
        this.context = group.context();
        this.rank = group.rank();
        this.peers = group.peers();
    }

    public CollGroup group() {
        return group;
    }

    /** Dissemination barrier, as {@link Barrier}: ceil(log2 p) zero-byte exchanges. */
    public void barrier(int tag) {
        int p = peers.length;
        for (int k = 1; k < p; k <<= 1) {
            exchange(tag, (rank + k) % p, EMPTY, (rank - k + p) % p, EMPTY);
        }
    }

    /**
     * Whether {@link #allreduce} handles a vector of {@code bytes}: below the sizes where
     * {@link Reduction#allreduce} switches to Rabenseifner or to a scatter + allgather broadcast.
     */
    public boolean allreduceFits(long bytes) {
        CollSettings s = group.settings();
        return bytes < s.allreduceLarge() && bytes < s.bcastLarge() && bytes < MAX_SMALL;
    }

    /** The largest vector the blocking path takes whatever the settings say. */
    static final long MAX_SMALL = 64 * 1024;

    /**
     * Allreduce of a small vector into {@code recv} ({@code send == recv}: in place): recursive
     * doubling on power-of-two groups, else a binomial reduce to rank 0 and a binomial broadcast.
     */
    public void allreduce(int tag, MemorySegment send, MemorySegment recv, int count, Reducer op) {
        long bytes = recv.byteSize();
        if (send != recv) {
            MemorySegment.copy(send, 0, recv, 0, bytes);
        }
        int p = peers.length;
        if (p == 1) {
            return;
        }
        MemorySegment in = scratch(recv, bytes);
        if (Integer.bitCount(p) == 1) {
            for (int mask = 1; mask < p; mask <<= 1) {
                int partner = rank ^ mask;
                exchange(tag, partner, recv, partner, in);
                if (partner > rank) {
                    op.reduce(recv, in, count);              // mine (lower) op theirs
                    MemorySegment.copy(in, 0, recv, 0, bytes);
                } else {
                    op.reduce(in, recv, count);              // theirs (lower) op mine
                }
            }
            return;
        }
        reduceToZero(tag, recv, in, count, op);
        broadcastFromZero(tag, recv);
    }

    /** As {@link Reduction#binomialToZero}: rank 0's {@code value} ends with the result. */
    private void reduceToZero(int tag, MemorySegment value, MemorySegment in, int count,
                              Reducer op) {
        int p = peers.length;
        for (int mask = 1; mask < p; mask <<= 1) {
            if ((rank & mask) != 0) {
                send(tag, rank - mask, value);
                return;
            }
            if (rank + mask < p) {
                exchange(tag, -1, null, rank + mask, in);
                op.reduce(value, in, count); // lower (mine) op higher (the subtree's)
                MemorySegment.copy(in, 0, value, 0, value.byteSize());
            }
        }
    }

    /** As {@link Broadcast#binomial} with root 0. */
    private void broadcastFromZero(int tag, MemorySegment buf) {
        int p = peers.length;
        int mask = 1;
        while (mask < p) {
            if ((rank & mask) != 0) {
                exchange(tag, -1, null, rank - mask, buf);
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (rank + mask < p) {
                send(tag, rank + mask, buf);
            }
        }
    }

    /**
     * Receive scratch of {@code bytes}, remade only when the size changes. An array of the same
     * element type as a heap {@code like}, so that the reduction kernels run on both in place
     * rather than staging one of them.
     */
    private MemorySegment scratch(MemorySegment like, long bytes) {
        if (scratch.byteSize() != bytes) {
            Object base = like.heapBase().orElse(null);
            int n = (int) bytes;
            scratch = switch (base) {
                case float[] a when n % 4 == 0 -> MemorySegment.ofArray(new float[n / 4]);
                case double[] a when n % 8 == 0 -> MemorySegment.ofArray(new double[n / 8]);
                case int[] a when n % 4 == 0 -> MemorySegment.ofArray(new int[n / 4]);
                case long[] a when n % 8 == 0 -> MemorySegment.ofArray(new long[n / 8]);
                case short[] a when n % 2 == 0 -> MemorySegment.ofArray(new short[n / 2]);
                case char[] a when n % 2 == 0 -> MemorySegment.ofArray(new char[n / 2]);
                case null, default -> MemorySegment.ofArray(new long[(n + 7) >>> 3]).asSlice(0, n);
            };
        }
        return scratch;
    }

    /**
     * Receives exactly {@code into.byteSize()} bytes from group rank {@code from} (if >= 0)
     * while sending {@code out} to group rank {@code to} (if >= 0). The receive is posted first,
     * so the peer's message usually lands straight in it rather than in the unexpected queue.
     */
    private void exchange(int tag, int to, MemorySegment out, int from, MemorySegment into) {
        RequestState r = from < 0 ? null
                : engine.p2p().receiveBlocking(context, from, tag, into, null, null);
        RequestState s = null;
        if (to >= 0 && !engine.p2p().sendNow(context, rank, peers[to], tag, out)) {
            s = engine.p2p().send(context, rank, peers[to], tag, out, null, Mode.STANDARD);
        }
        if (r != null) {
            engine.await(r);
            if (r.error() != 0 || r.bytes() != into.byteSize()) {
                throw mismatch(r, into.byteSize());
            }
        }
        if (s != null) {
            engine.await(s);
        }
    }

    private void send(int tag, int to, MemorySegment out) {
        exchange(tag, to, out, -1, null);
    }

    private static MpiError mismatch(RequestState r, long want) {
        boolean truncated = r.error() == ErrorClass.ERR_TRUNCATE || r.bytes() != want;
        return new MpiError(truncated ? ErrorClass.ERR_TRUNCATE : r.error(), "rank " + r.source()
                + " sent " + (r.error() == ErrorClass.ERR_TRUNCATE ? "more than"
                : Long.toString(r.bytes())) + " bytes where this rank expected " + want
                + ": counts or datatypes differ between ranks");
    }
}
