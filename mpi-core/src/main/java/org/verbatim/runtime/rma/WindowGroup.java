package org.verbatim.runtime.rma;

/**
 * The processes of a window and the collectives a window needs among them, offered by the API
 * layer over a private duplicate of the window's communicator (so window traffic never matches
 * the program's). Collective: every member calls each method in the same order.
 */
public interface WindowGroup {
    /** This process's rank in the group. */
    int rank();

    int size();

    /** World rank of group rank {@code rank}. */
    int worldRank(int rank);

    void barrier();

    /** Every member's {@code mine} (all of one length), concatenated in rank order. */
    long[] allgather(long[] mine);

    /** Every member's bytes (any length), in rank order. */
    byte[][] allgatherBytes(byte[] mine);

    /** Element-wise sum over the members of {@code values} (all of one length), in place. */
    void allreduceSum(int[] values);
}
