package org.verbatim.transport.verbs;

/**
 * Credit-based flow control of one direction of one connection, in pure logic (unit-tested off
 * the RDMA guest). The sender side spends a credit per data message and gets them back in
 * batches; the receiver side counts consumed buffers and says when a batch is worth returning.
 *
 * <p>Control messages (credit returns, fast-path offers) are not charged: the receiver keeps
 * {@link #CONTROL_RESERVE} of its per-connection buffers for them, which bounds how many can be
 * in flight because each credit return frees at least a quarter of the window. Should the
 * reserve ever be exceeded, the queue pair's infinite RNR retry stalls the sender; nothing is
 * dropped.
 */
public final class CreditAccount {
    /** Per-connection receive buffers kept back for control messages. */
    public static final int CONTROL_RESERVE = 8;

    private final int window;
    private final int returnBatch;
    private int credits;
    private int consumedUnreturned;

    /**
     * @param window buffers the receiver holds for this sender's data
     */
    public CreditAccount(int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be positive: " + window);
        }
        this.window = window;
        this.credits = window;
        this.returnBatch = Math.max(1, window / 4);
    }

    /** Sender: takes one credit if there is one. */
    public boolean tryConsume() {
        if (credits == 0) {
            return false;
        }
        credits--;
        return true;
    }

    /** Sender: the receiver returned {@code n} credits. */
    public void grant(int n) {
        if (n < 0 || credits + n > window) {
            throw new IllegalStateException("credit return of " + n + " exceeds the window: have " + credits
                    + " of " + window);
        }
        credits += n;
    }

    /** Sender: credits available now. */
    public int credits() {
        return credits;
    }

    /** Receiver: one data buffer of this sender was consumed (and is free again). */
    public void consumed() {
        consumedUnreturned++;
    }

    /** Receiver: whether enough has been consumed to send a return now. */
    public boolean returnDue() {
        return consumedUnreturned >= returnBatch;
    }

    /** Receiver: takes the count to return (all consumed so far), resetting it. */
    public int takeReturn() {
        int n = consumedUnreturned;
        consumedUnreturned = 0;
        return n;
    }

    /** Receiver: a return taken with {@link #takeReturn} could not be sent; count it again. */
    public void untake(int n) {
        consumedUnreturned += n;
    }

    /** Receiver: how many are waiting to be returned. */
    public int pendingReturn() {
        return consumedUnreturned;
    }

    public int window() {
        return window;
    }
}
