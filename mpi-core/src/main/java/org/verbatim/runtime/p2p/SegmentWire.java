package org.verbatim.runtime.p2p;

/**
 * The wire of the segment schemes (bc-spup, rwg-up): message kinds, flags and immediates.
 *
 * <pre>
 *  sender                                   receiver
 *    RTS (FLAG_RPUT | FLAG_SEGMENTS) ────────>  match; take k unpack-pool slots (or a dynamic
 *                                                buffer; or its own contiguous buffer: direct)
 *                     <──────────────────────── SEG_CTS (segment size, k slot addresses and keys)
 *    pack segment j (bc-spup) or gather it
 *    from the blocks (rwg-up); write it into
 *    slot j mod k, with immediate ────────────>  onImmediate: unpack slot into the blocks
 *      (or write, then SEG_DONE(j) ──────────>)
 *                     <──────────────────────── SEG_ACK(j) when segment j + k is still to come
 *    ... until the last segment; the send completes when its writes have, the receive when
 *    the last segment is unpacked.
 * </pre>
 *
 * SEG_CTS reuses the CTS header: LENGTH the bytes accepted, REQUEST the sender's id, ADDRESS the
 * segment size, REMOTE_KEY the number of slots k (0: direct, the receiver's contiguous buffer,
 * one (address, key) pair and segment j at address + j * size), TAG the immediate base (0: signal
 * with SEG_DONE messages), RECEIVER_REQUEST the receiver's id; then k (address, key) pairs.
 * SEG_DONE and SEG_ACK are bare headers: REQUEST the other side's id, LENGTH the segment index.
 */
final class SegmentWire {
    /** Receiver -> sender: the slots (see the class comment). */
    static final byte SEG_CTS = 7;
    /** Sender -> receiver: segment LENGTH is in its slot (when there is no immediate). */
    static final byte SEG_DONE = 8;
    /** Receiver -> sender: segment LENGTH is unpacked, its slot free for segment LENGTH + k. */
    static final byte SEG_ACK = 9;

    /** Immediates of segments: bits 31..29 = 001; bits 20..27 the slot, 0..19 the request slot. */
    static final int IMMEDIATE_MARK = 0x2000_0000;
    static final int IMMEDIATE_MASK = 0xE000_0000;
    static final int REQUEST_BITS = 20;
    static final int REQUEST_MASK = (1 << REQUEST_BITS) - 1;
    static final int SLOT_MASK = 0xFF;
    /** Most slots granted to one message (within the immediate's slot bits). */
    static final int MAX_SLOTS = 64;
    /** Bytes of one (address, key) pair. */
    static final int PAIR_SIZE = 16;

    private SegmentWire() {
    }

    /** The immediate base for receive {@code id}, or 0 when its table slot does not fit. */
    static int immediateBase(long id) {
        int slot = (int) id;
        return (slot & ~REQUEST_MASK) != 0 ? 0 : IMMEDIATE_MARK | slot;
    }

    /** The immediate that signals a segment written into slot {@code slot}. */
    static int immediate(int base, int slot) {
        return base | slot << REQUEST_BITS;
    }

    static int slotOf(int immediate) {
        return immediate >>> REQUEST_BITS & SLOT_MASK;
    }

    static int requestSlotOf(int immediate) {
        return immediate & REQUEST_MASK;
    }
}
