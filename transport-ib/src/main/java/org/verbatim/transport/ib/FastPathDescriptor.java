package org.verbatim.transport.ib;

/**
 * Layout of one slot of an RDMA fast-path ring. The sender RDMA-writes the message and its footer
 * as one contiguous write that ends at the slot's end, so the footer's tag is the last data
 * placed (in-order placement on InfiniBand and RoCE); the receiver polls the tag.
 *
 * <pre>
 *  0                          slot - 8 - length     slot - 8   slot - 4   slot
 *  +--------------------------+---------------------+----------+----------+
 *  |  unused                  |  message (length)   |  length  |   tag    |
 *  +--------------------------+---------------------+----------+----------+
 * </pre>
 *
 * The tag of the n-th write (from 0) into a ring of k slots is {@code n / k + 1}: it differs from
 * whatever the slot held before, so slots are never cleared.
 */
final class FastPathDescriptor {
    /** Bytes of the footer: length then tag, both native-order ints. */
    static final int FOOTER = 8;
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
