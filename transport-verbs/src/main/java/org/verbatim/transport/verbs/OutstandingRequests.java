package org.verbatim.transport.verbs;

import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.MemoryRegistration;

/**
 * The send work requests of one queue pair that are posted and not yet known complete, as a
 * ring indexed by the request's sequence number (its {@code wr_id}). RC completes in order, so a
 * signalled completion of request {@code n} retires every request up to {@code n}, which lets
 * most sends go unsignalled (moderation). What a retired request gives back depends on its kind:
 * a send buffer, or a completion to the runtime with its own work-request id.
 *
 * <p>An error completion puts the queue pair in error: the request it names failed with its
 * status, the ones before it completed, and every later one comes back flushed. The ring tells
 * which of those were the runtime's one-sided operations (they complete with their status) and
 * which were eager messages or control messages (lost: the caller reports the connection).
 *
 * <p>Where reads complete out of order ({@code readsOwnCompletion}: iWARP, whose Soft-iWARP
 * completes an RDMA write or send once it has left, ahead of an earlier read whose response is
 * still on its way), a later completion does not retire an RDMA read or atomic posted before it:
 * only its own completion does (it is always signalled). The ring's tail then waits at the read
 * while the requests after it are retired.
 */
final class OutstandingRequests {
    static final byte NONE = 0;
    static final byte BUFFER = 1;
    static final byte USER = 2;
    /** A request posted only to learn when everything before it has come back (recovery). */
    static final byte MARKER = 3;

    private final int depth;
    private final long[] userIds;
    private final int[] buffers;
    private final byte[] kinds;
    private final MemoryRegistration[] holds;
    /** Whether a request occupies one of the queue pair's RDMA read / atomic slots. */
    private final boolean[] reads;
    private int readsOutstanding;
    /** Whether a request took a receive credit of the peer (a write with immediate on ardma-sr). */
    private final boolean[] credits;
    private int refunds;
    /** One-sided requests that can be posted again after a flush. */
    final ReplayLog replays;
    /** Requests retired ahead of the tail (behind a read waiting for its own completion). */
    private final boolean[] done;
    private final boolean readsOwnCompletion;
    private long head;
    private long tail;

    /** @param depth the send queue depth, a power of two */
    OutstandingRequests(int depth) {
        this(depth, false);
    }

    /**
     * @param depth              the send queue depth, a power of two
     * @param readsOwnCompletion an RDMA read or atomic is retired only by its own completion (the
     *                           device completes later requests ahead of it)
     */
    OutstandingRequests(int depth, boolean readsOwnCompletion) {
        this.readsOwnCompletion = readsOwnCompletion;
        this.done = new boolean[depth];
        if (Integer.bitCount(depth) != 1) {
            throw new IllegalArgumentException("depth must be a power of two: " + depth);
        }
        this.depth = depth;
        this.userIds = new long[depth];
        this.buffers = new int[depth];
        this.kinds = new byte[depth];
        this.holds = new MemoryRegistration[depth];
        this.reads = new boolean[depth];
        this.credits = new boolean[depth];
        this.replays = new ReplayLog(depth);
    }

    /** Marks request {@code seq} (just recorded) as holding one of the peer's receive credits. */
    void tookCredit(long seq) {
        credits[(int) (seq & (depth - 1))] = true;
    }

    /**
     * Credits of requests the peer refused (an error status other than CANCELLED: the peer
     * consumed no receive for them), to give back; resets the count. A flushed request may or may
     * not have reached the peer, so its credit stays spent.
     */
    int takeRefunds() {
        int n = refunds;
        refunds = 0;
        return n;
    }

    /** RDMA reads, atomics and flushes posted and not yet retired. */
    int readsOutstanding() {
        return readsOutstanding;
    }

    /** The sequence number the next posted request gets. */
    long next() {
        return head;
    }

    /** Requests posted and not yet retired. */
    long outstanding() {
        return head - tail;
    }

    /** Whether {@code n} more requests fit (one slot stays free). */
    boolean room(int n) {
        return head - tail + n <= depth - 1;
    }

    /**
     * Records request {@code seq} (the next one): an eager send holding send buffer
     * {@code buffer} (-1: none) or a one-sided operation of the runtime's {@code userId}, holding
     * {@code hold} (a registration made for it, closed when it completes) or null.
     */
    void record(long seq, byte kind, int buffer, long userId, MemoryRegistration hold) {
        record(seq, kind, buffer, userId, hold, false);
    }

    /** {@link #record}, for a request that is an RDMA read or atomic when {@code read}. */
    void record(long seq, byte kind, int buffer, long userId, MemoryRegistration hold, boolean read) {
        int i = (int) (seq & (depth - 1));
        replays.forget(seq);
        reads[i] = read;
        if (read) {
            readsOutstanding++;
        }
        kinds[i] = buffer < 0 && kind == BUFFER ? NONE : kind;
        buffers[i] = buffer;
        userIds[i] = userId;
        holds[i] = hold;
        head = seq + 1;
    }

    /**
     * Request {@code seq} completed with {@code status} ({@link CompletionStatus}): everything up
     * to it is done. Send buffers go back to {@code sendBuffers}, one-sided operations complete
     * through {@code handler}; before {@code seq} with OK, {@code seq} itself with
     * {@code status}. Returns the number retired, with bit 31 set when an eager or control message
     * (not a one-sided operation) was among those that failed.
     */
    int retire(long seq, int status, SendBuffers sendBuffers, CompletionHandler handler) {
        return retire(seq, status, false, sendBuffers, handler);
    }

    /**
     * Retires every request up to {@code seq} without a completion of its own: {@code seq} with
     * {@code status}, the ones before it OK, except RDMA reads and atomics still waiting for their
     * own completion (out-of-order devices), which complete CANCELLED (posted again if they can
     * be). For a drain that cannot learn more from the device.
     */
    int retireAll(long seq, int status, SendBuffers sendBuffers, CompletionHandler handler) {
        return retire(seq, status, true, sendBuffers, handler);
    }

    private int retire(long seq, int status, boolean force, SendBuffers sendBuffers, CompletionHandler handler) {
        int work = 0;
        boolean lost = false;
        for (long s = tail; s <= seq && s < head; s++) {
            int i = (int) (s & (depth - 1));
            if (done[i]) {
                continue;
            }
            int st = s == seq ? status : CompletionStatus.OK;
            if (s != seq && readsOwnCompletion && reads[i]) {
                if (!force) {
                    continue; // its own completion retires it
                }
                st = CompletionStatus.CANCELLED;
            }
            done[i] = true;
            byte kind = kinds[i];
            boolean read = reads[i];
            if (reads[i]) {
                reads[i] = false;
                readsOutstanding--;
            }
            if (credits[i]) {
                credits[i] = false;
                if (st != CompletionStatus.OK && st != CompletionStatus.CANCELLED
                        && st != CompletionStatus.PEER_GONE) {
                    refunds++;
                }
            }
            if (kind == BUFFER) {
                sendBuffers.give(buffers[i]);
            }
            if (kind == USER && st == CompletionStatus.CANCELLED && replays.requeue(i, userIds[i], holds[i], read)) {
                holds[i] = null; // posted again once the connection is back: no completion yet
            } else if (kind == USER) {
                if (holds[i] != null) {
                    holds[i].close();
                    holds[i] = null;
                }
                handler.onComplete(userIds[i], st);
            } else if (st != CompletionStatus.OK && kind != MARKER) {
                lost = true;
            }
            work++;
        }
        while (tail < head && done[(int) (tail & (depth - 1))]) {
            done[(int) (tail & (depth - 1))] = false;
            tail++;
        }
        return lost ? work | LOST : work;
    }

    /** Set in {@link #retire}'s result when an eager or control message failed. */
    static final int LOST = 1 << 31;
}
