package org.verbatim.transport.shm;

/**
 * Layout of the fast boxes at the end of an inbox file ({@link InboxDescriptor}): a bounded
 * number of single-producer rings of fixed-size slots that the inbox's owner grants to its
 * busiest senders, one sender each ({@link FastBoxSender}, {@link FastBoxes}). Their geometry is
 * in the inbox's metadata (BOX COUNT, SLOTS, SLOT SIZE at 40, 44, 48; all 0: no boxes), so a
 * sender reads it from the file it maps.
 *
 * <pre>
 *  box b at boxesOffset + b * boxLength(slots, slotSize):
 *  +---------------------------------------------------------------+   0
 *  |  OWNER: 0 free, else sender's world rank + 1 (set once, by CAS) |
 *  +---------------------------------------------------------------+ 128
 *  |  CONSUMED: slots the owner has read (written by it, release)  |
 *  +---------------------------------------------------------------+ 256
 *  |  SLOT 0, SLOT 1, ... (SLOT SIZE bytes each)                   |
 *  +---------------------------------------------------------------+
 *  slot:
 *  +-------------------------------+-------------------------------+   0
 *  |  SEQUENCE: box message number + 1 (written last, release)     |
 *  +-------------------------------+-------------------------------+   8
 *  |  LENGTH of the body           |  RING COUNT (see below)       |
 *  +-------------------------------+-------------------------------+  16
 *  |  BODY: the runtime's header and the payload                   |
 * </pre>
 *
 * A slot is always whole and its first word is always a SEQUENCE, written by the box's one
 * producer and by nobody else, so no user data can ever stand where the consumer looks for a
 * header: the slot for box message {@code n} (0-based) is {@code n % SLOTS}, and it holds that
 * message exactly when its SEQUENCE is {@code n + 1} (a stale slot holds {@code n + 1 - SLOTS}
 * or 0). The consumer never writes a slot.
 *
 * <p>RING COUNT orders the box against the sender's records in the shared ring: the number of
 * ring records the sender had claimed towards this inbox since the box opened, when it wrote the
 * slot. Each such ring record carries, in bits 8 to 30 of its TYPE, the number of box
 * messages written before its claim, modulo 2^23, and bit 31 set ({@link MpscRing#claim}).
 */
final class FastBoxDescriptor {
    static final int BOX_COUNT_OFFSET = 40;
    static final int SLOTS_OFFSET = 44;
    static final int SLOT_SIZE_OFFSET = 48;

    static final int OWNER_OFFSET = 0;
    static final int CONSUMED_OFFSET = 128;
    static final int SLOTS_START = 256;

    static final int SEQUENCE_OFFSET = 0;
    static final int LENGTH_OFFSET = 8;
    static final int RING_COUNT_OFFSET = 12;
    static final int SLOT_HEADER_LENGTH = 16;

    /** Bits of a ring record's TYPE that hold the record type; the rest is the box stamp. */
    static final int TYPE_MASK = 0xFF;
    static final int STAMP_SHIFT = 8;
    /** The box stamp is the box message count modulo 2^23 (bit 31 is {@link FastBoxSender#COUNTED}). */
    static final int STAMP_MASK = 0x7F_FFFF;

    private FastBoxDescriptor() {
    }

    static long boxLength(int slots, int slotSize) {
        return SLOTS_START + (long) slots * slotSize;
    }

    /** Bytes of all boxes. */
    static long areaLength(int boxes, int slots, int slotSize) {
        return boxes == 0 ? 0 : boxes * boxLength(slots, slotSize);
    }

    /** Offset of the first box in the file: after the key table, on a page. */
    static long boxesOffset(int capacity) {
        return (InboxDescriptor.fileSize(capacity) + 4095) & -4096L;
    }

    /** The whole file's size, boxes included. */
    static long fileSize(int capacity, int boxes, int slots, int slotSize) {
        return boxes == 0 ? InboxDescriptor.fileSize(capacity)
                : boxesOffset(capacity) + areaLength(boxes, slots, slotSize);
    }
}
