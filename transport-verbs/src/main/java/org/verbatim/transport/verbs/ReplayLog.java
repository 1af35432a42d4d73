package org.verbatim.transport.verbs;

import org.verbatim.spi.MemoryRegistration;

/**
 * What it takes to post a one-sided request again, per send-queue slot, and the requests waiting
 * to be posted again. When a queue pair goes to error, the requests behind the failed one are
 * flushed without having been carried out (or carried out with their acknowledgement lost). RDMA
 * writes of one segment, reads and flushes can be posted again without harm once the connection
 * is re-established (the same bytes to the same place; the caller keeps the memory until the
 * completion), so they are, in their order, before anything newer: the runtime sees each
 * complete once, with the status of its last attempt. Writes with immediate, atomics and
 * gather/scatter lists are not logged: they complete CANCELLED.
 */
final class ReplayLog {
    private final int mask;
    private final boolean[] logged;
    private final int[] opcode;
    private final int[] flags;
    private final long[] local;
    private final int[] length;
    private final int[] lkey;
    private final long[] remote;
    private final int[] rkey;

    // requests to post again, oldest first (a ring of the same capacity as the send queue)
    private final int[] qSlot;
    private final long[] qUserId;
    private final MemoryRegistration[] qHold;
    private final boolean[] qRead;
    private final int[] qOpcode;
    private final int[] qFlags;
    private final long[] qLocal;
    private final int[] qLength;
    private final int[] qLkey;
    private final long[] qRemote;
    private final int[] qRkey;
    private int qHead;
    private int qCount;

    ReplayLog(int depth) {
        this.mask = depth - 1;
        logged = new boolean[depth];
        opcode = new int[depth];
        flags = new int[depth];
        local = new long[depth];
        length = new int[depth];
        lkey = new int[depth];
        remote = new long[depth];
        rkey = new int[depth];
        qSlot = new int[depth];
        qUserId = new long[depth];
        qHold = new MemoryRegistration[depth];
        qRead = new boolean[depth];
        qOpcode = new int[depth];
        qFlags = new int[depth];
        qLocal = new long[depth];
        qLength = new int[depth];
        qLkey = new int[depth];
        qRemote = new long[depth];
        qRkey = new int[depth];
    }

    /** Slot of request {@code seq} is reused: nothing logged for it yet. */
    void forget(long seq) {
        logged[(int) (seq & mask)] = false;
    }

    /**
     * Logs request {@code seq}: {@code opcode} and {@code flags} as posted, one local entry
     * ({@code length} -1: none) and the remote address and key.
     */
    void log(long seq, int opcode, int flags, long local, int length, int lkey, long remote, int rkey) {
        int i = (int) (seq & mask);
        logged[i] = true;
        this.opcode[i] = opcode;
        this.flags[i] = flags;
        this.local[i] = local;
        this.length[i] = length;
        this.lkey[i] = lkey;
        this.remote[i] = remote;
        this.rkey[i] = rkey;
    }

    /**
     * The request in {@code slot} was flushed: queues it to be posted again if it was logged
     * (taking over {@code hold}), and returns whether it was.
     */
    boolean requeue(int slot, long userId, MemoryRegistration hold, boolean read) {
        if (!logged[slot]) {
            return false;
        }
        logged[slot] = false;
        int q = (qHead + qCount++) & mask;
        qSlot[q] = slot;
        qUserId[q] = userId;
        qHold[q] = hold;
        qRead[q] = read;
        qOpcode[q] = opcode[slot];
        qFlags[q] = flags[slot];
        qLocal[q] = local[slot];
        qLength[q] = length[slot];
        qLkey[q] = lkey[slot];
        qRemote[q] = remote[slot];
        qRkey[q] = rkey[slot];
        return true;
    }

    /** Requests waiting to be posted again. */
    int pending() {
        return qCount;
    }

    // the oldest waiting request
    int opcode() {
        return qOpcode[qHead];
    }

    int flags() {
        return qFlags[qHead];
    }

    long local() {
        return qLocal[qHead];
    }

    int length() {
        return qLength[qHead];
    }

    int lkey() {
        return qLkey[qHead];
    }

    long remote() {
        return qRemote[qHead];
    }

    int rkey() {
        return qRkey[qHead];
    }

    long userId() {
        return qUserId[qHead];
    }

    MemoryRegistration hold() {
        return qHold[qHead];
    }

    boolean read() {
        return qRead[qHead];
    }

    /** The oldest waiting request was posted again. */
    void pop() {
        qHold[qHead] = null;
        qHead = (qHead + 1) & mask;
        qCount--;
    }
}
