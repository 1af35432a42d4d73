package org.verbatim.runtime;

import org.verbatim.runtime.base.Mode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Small internal collectives the runtime itself needs (context-id agreement for new
 * communicators, the finalize barrier), over a communicator's collective context with a
 * reserved tag. Binomial-tree gather and broadcast: log(p) rounds.
 */
public final class Agreement {
    private static final int TAG = 0x7fff_0001;

    private Agreement() {
    }

    /**
     * The maximum of {@code value} over the group. {@code world[i]} is the world rank of
     * communicator rank {@code i}; {@code context} is the communicator's collective context.
     */
    public static long allreduceMax(Engine engine, int context, int[] world, int rank, long value) {
        return allreduceMax(engine, context, TAG, world, rank, value);
    }

    /** As {@link #allreduceMax(Engine, int, int[], int, long)} on a chosen tag. */
    public static long allreduceMax(Engine engine, int context, int tag, int[] world, int rank,
                                    long value) {
        int size = world.length;
        long[] acc = {value};
        if (size == 1) {
            return value;
        }
        MemorySegment in = MemorySegment.ofArray(new long[1]);
        // reduce up a binomial tree to rank 0
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((rank & mask) != 0) {
                send(engine, context, tag, world, rank, rank - mask, acc[0]);
                break;
            }
            int child = rank + mask;
            if (child < size) {
                engine.await(engine.p2p().receive(context, child, tag, in, null, null));
                acc[0] = Math.max(acc[0], in.get(ValueLayout.JAVA_LONG, 0));
            }
        }
        // broadcast back down the same tree
        int mask = 1;
        while (mask < size && (rank & mask) == 0) {
            mask <<= 1;
        }
        if (rank != 0) {
            engine.await(engine.p2p().receive(context, rank - mask, tag, in, null, null));
            acc[0] = in.get(ValueLayout.JAVA_LONG, 0);
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            int child = rank + mask;
            if (child < size) {
                send(engine, context, tag, world, rank, child, acc[0]);
            }
        }
        return acc[0];
    }

    private static void send(Engine engine, int context, int tag, int[] world, int rank, int to,
                             long v) {
        MemorySegment out = MemorySegment.ofArray(new long[] {v});
        engine.await(engine.p2p().send(context, rank, world[to], tag, out, null, Mode.STANDARD));
    }

    /** A barrier over the group. */
    public static void barrier(Engine engine, int context, int[] world, int rank) {
        allreduceMax(engine, context, world, rank, 0);
    }
}
