package org.verbatim.transport.verbs;

/**
 * Layout of one slot of an RDMA fast-path ring. The sender RDMA-writes the message and its footer
 * as one contiguous write that ends at the slot's end, so the footer's tag is the last data
 * placed (in-order placement on InfiniBand and RoCE); the receiver polls the tag.
 *
 * <pre>
 *  0               slot - 12 - length    slot - 12   slot - 8   slot - 4   slot
 *  +---------------+---------------------+-----------+----------+----------+
 *  |  unused       |  message (length)   |  credits  |  length  |   tag    |
 *  +---------------+---------------------+-----------+----------+----------+
 * </pre>
 *
 * {@code credits} piggybacks a credit return: the slots of the writer's own ring (the reverse
 * direction) that the writer has consumed since its last return. A request-reply exchange so
 * returns every credit with the replies and needs no CREDIT_RING control message, which over
 * Soft-RoCE would be a second doorbell system call.
 *
 * The tag of the n-th write (from 0) into a ring of k slots is {@code n / k + 1}: it differs from
 * whatever the slot held before, so slots are never cleared.
 */
final class FastPathDescriptor {
    /** Bytes of the footer: credits, length, then tag, all native-order ints. */
    static final int FOOTER = 12;
    static final int CREDITS_FROM_END = 12;
    static final int LENGTH_FROM_END = 8;
    static final int TAG_FROM_END = 4;

    private FastPathDescriptor() {
    }

    /** Slot size for messages up to {@code maxMessage} bytes, cache-line aligned. */
    static int slotSize(int maxMessage) {
        return (maxMessage + FOOTER + 63) & ~63;
    }

    /** Slot index of the n-th write. */
    static int slot(long n, int slots) {
        return (int) (n % slots);
    }

    /** Tag of the n-th write. */
    static int tag(long n, int slots) {
        return (int) (n / slots + 1);
    }
}
