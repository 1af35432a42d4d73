package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.FastBoxDescriptor.BOX_COUNT_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.CONSUMED_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.LENGTH_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.OWNER_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.RING_COUNT_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.SEQUENCE_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.SLOTS_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.SLOTS_START;
import static org.verbatim.transport.shm.FastBoxDescriptor.SLOT_HEADER_LENGTH;
import static org.verbatim.transport.shm.FastBoxDescriptor.SLOT_SIZE_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.STAMP_MASK;
import static org.verbatim.transport.shm.FastBoxDescriptor.STAMP_SHIFT;
import static org.verbatim.transport.shm.RawWords.ALL;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.verbatim.spi.support.SmallCopy;

/**
 * The producer of one fast box in a peer's inbox file ({@link FastBoxDescriptor}): this rank
 * alone writes it, so a message is a copy into the next slot and one release store of the slot's
 * SEQUENCE, with no CAS, and the receiver only reads (no zeroing). Full, or for a message larger
 * than a slot, the sender uses the peer's shared ring instead; the ring records it claims from
 * then on are stamped with the box's count ({@link #stamp}, {@link MpscRing#claim}) and count
 * themselves into the slots it writes after ({@link #ringClaims}), so the receiver can merge both
 * in send order.
 */
final class FastBoxSender {
    private static final VarHandle LONG = RawWords.LONG;
    private static final VarHandle INT = RawWords.INT;
    /** Marks a ring record claimed while a box was open: its TYPE carries a stamp. */
    static final int COUNTED = 1 << 31;

    private final MemorySegment file;
    private final long fileBase;
    /** Address of the box's first byte. */
    private final long box;
    private final int slots;
    private final int mask;
    private final int slotSize;
    private final int maxBody;
    private final Doorbell doorbell;
    /** Box messages written. */
    private long written;
    /** The receiver's CONSUMED as last read. */
    private long consumedCache;
    /** Ring records claimed towards the peer since the box opened. */
    int ringClaims;

    FastBoxSender(MpscRing ring, int index) {
        this.file = ring.buffer();
        this.fileBase = file.address();
        final int capacity = ring.capacity();
        this.slots = file.get(ValueLayout.JAVA_INT, SLOTS_OFFSET);
        this.slotSize = file.get(ValueLayout.JAVA_INT, SLOT_SIZE_OFFSET);
        final long offset = FastBoxDescriptor.boxesOffset(capacity)
                + index * FastBoxDescriptor.boxLength(slots, slotSize);
        if (offset + FastBoxDescriptor.boxLength(slots, slotSize) > file.byteSize()) {
            throw new IllegalStateException("fast box " + index + " lies outside the inbox file");
        }
        this.box = fileBase + offset;
        this.mask = slots - 1;
        this.maxBody = slotSize - SLOT_HEADER_LENGTH;
        this.doorbell = ring.doorbell();
    }

    /**
     * Takes a free box of the peer's inbox for {@code source} (this rank's world rank) by a CAS
     * on its OWNER word; returns its index, or -1 when the inbox has none or all are taken.
     */
    static int take(MemorySegment file, int capacity, int source) {
        final int count = file.get(ValueLayout.JAVA_INT, BOX_COUNT_OFFSET);
        if (count <= 0) {
            return -1;
        }
        final int slots = file.get(ValueLayout.JAVA_INT, SLOTS_OFFSET);
        final int slotSize = file.get(ValueLayout.JAVA_INT, SLOT_SIZE_OFFSET);
        final long length = FastBoxDescriptor.boxLength(slots, slotSize);
        final long first = FastBoxDescriptor.boxesOffset(capacity);
        if (first + count * length > file.byteSize()) {
            return -1;
        }
        for (int b = 0; b < count; b++) {
            if (ValueLayout.JAVA_INT.varHandle().compareAndSet(file, first + b * length
                    + OWNER_OFFSET, 0, source + 1)) {
                return b;
            }
        }
        return -1;
    }

    /** Box messages written so far (tests and probes). */
    long written() {
        return written;
    }

    /** Largest message (runtime header and payload) a slot holds. */
    int maxBody() {
        return maxBody;
    }

    /** TYPE bits of a ring record claimed now: COUNTED and the box messages written so far. */
    int stamp() {
        return COUNTED | (((int) written & STAMP_MASK) << STAMP_SHIFT);
    }

    /**
     * Writes one message into the next slot; false when the box is full or the message does not
     * fit a slot (the caller then uses the ring).
     */
    boolean offer(MemorySegment header, MemorySegment payload, int total) {
        if (total > maxBody) {
            return false;
        }
        if (written - consumedCache >= slots) {
            consumedCache = (long) LONG.getAcquire(ALL, box + CONSUMED_OFFSET);
            if (written - consumedCache >= slots) {
                return false;
            }
        }
        if (!file.scope().isAlive()) {
            throw new IllegalStateException("the peer's inbox mapping is closed");
        }
        final long slot = box + SLOTS_START + (long) ((int) written & mask) * slotSize;
        final long headerLength = header.byteSize();
        if (header.isNative() && payload.isNative() && payload.scope().isAlive()) {
            // the slot is ours until the receiver has read it; both sources are native and alive
            SmallCopy.copy(header.address(), slot + SLOT_HEADER_LENGTH, (int) headerLength);
            SmallCopy.copy(payload.address(), slot + SLOT_HEADER_LENGTH + headerLength,
                    (int) (total - headerLength));
        } else {
            final long at = slot - fileBase + SLOT_HEADER_LENGTH;
            MemorySegment.copy(header, 0, file, at, headerLength);
            MemorySegment.copy(payload, 0, file, at + headerLength, payload.byteSize());
        }
        INT.set(ALL, slot + LENGTH_OFFSET, total);
        INT.set(ALL, slot + RING_COUNT_OFFSET, ringClaims);
        LONG.setRelease(ALL, slot + SEQUENCE_OFFSET, ++written);
        doorbell.ring();
        return true;
    }
}
