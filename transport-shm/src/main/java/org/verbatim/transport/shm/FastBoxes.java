package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.FastBoxDescriptor.CONSUMED_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.LENGTH_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.OWNER_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.RING_COUNT_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.SEQUENCE_OFFSET;
import static org.verbatim.transport.shm.FastBoxDescriptor.SLOTS_START;
import static org.verbatim.transport.shm.FastBoxDescriptor.SLOT_HEADER_LENGTH;
import static org.verbatim.transport.shm.FastBoxDescriptor.STAMP_MASK;
import static org.verbatim.transport.shm.FastBoxDescriptor.STAMP_SHIFT;
import static org.verbatim.transport.shm.RawWords.ALL;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * The consumer side of this rank's fast boxes ({@link FastBoxDescriptor}): which sender owns
 * which box (told by the sender's FASTBOX_OPEN record in the ring, which comes after everything it
 * sent through the ring before), and where each box is read up to. A box's next slot is handed to
 * the runtime when its SEQUENCE is the one expected and its RING COUNT says that every ring
 * record its sender claimed before it has been handed over; a COUNTED ring record first takes
 * every box message its stamp says was written before it ({@link #beforeRingRecord}). The
 * consumer never writes a slot; it publishes how far it read (CONSUMED) once per pass.
 */
final class FastBoxes {
    private static final VarHandle LONG = RawWords.LONG;
    private static final VarHandle INT = RawWords.INT;

    /** Receives the box messages: {@link ShmTransport#deliver}'s contract, record = slot offset. */
    interface Sink {
        void deliverMessage(int source, MemorySegment file, long slotOffset, int recordLength);
    }

    private final MemorySegment file;
    private final long fileBase;
    private final long boxesOffset;
    private final long boxLength;
    private final int count;
    private final int slots;
    private final int mask;
    private final int slotSize;
    private final int[] boxOfSource;
    private final int[] sourceOf;
    private final long[] consumed;
    private final long[] published;
    private final int[] ringCount;
    /** Open boxes, in the order they opened: {@code openBoxes[0..open)}. */
    private final int[] openBoxes;
    private int open;

    /**
     * @param file     this rank's inbox file
     * @param capacity its ring capacity
     * @param count    boxes in the file (0: none)
     * @param sources  number of possible sources (world ranks)
     */
    FastBoxes(MemorySegment file, int capacity, int count, int slots, int slotSize, int sources) {
        this.file = file;
        this.fileBase = file.address();
        this.boxesOffset = FastBoxDescriptor.boxesOffset(capacity);
        this.boxLength = FastBoxDescriptor.boxLength(slots, slotSize);
        if (count > 0 && boxesOffset + count * boxLength > file.byteSize()) {
            throw new IllegalArgumentException("inbox file too small for its fast boxes");
        }
        this.count = count;
        this.slots = slots;
        this.mask = slots - 1;
        this.slotSize = slotSize;
        this.boxOfSource = new int[sources];
        java.util.Arrays.fill(boxOfSource, -1);
        this.sourceOf = new int[count];
        this.consumed = new long[count];
        this.published = new long[count];
        this.ringCount = new int[count];
        this.openBoxes = new int[count];
    }

    /** Number of boxes open. */
    int open() {
        return open;
    }

    /** The box {@code source} writes, or -1. */
    int boxOf(int source) {
        return source >= 0 && source < boxOfSource.length ? boxOfSource[source] : -1;
    }

    /** A FASTBOX_OPEN record from {@code source}: box {@code box} is its from now on. */
    void opened(int source, int box) {
        if (box < 0 || box >= count || source < 0 || source >= boxOfSource.length
                || boxOfSource[source] >= 0) {
            throw new IllegalStateException("rank " + source + " opened fast box " + box
                    + " (boxes: " + count + ", its box: " + boxOf(source) + ")");
        }
        live();
        if ((int) INT.getVolatile(ALL, boxAddress(box) + OWNER_OFFSET) != source + 1) {
            throw new IllegalStateException("rank " + source + " opened fast box " + box
                    + ", which it does not own");
        }
        boxOfSource[source] = box;
        sourceOf[box] = source;
        openBoxes[open++] = box;
    }

    /**
     * Hands over what every open box has in order; returns the number of messages. Stops at a
     * box's slot whose ring records have not been handed over yet (they are in the ring).
     */
    int poll(Sink sink) {
        live();
        int n = 0;
        for (int i = 0; i < open; i++) {
            final int b = openBoxes[i];
            while (next(b, sink)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Before a COUNTED ring record from {@code source} (its TYPE word {@code rawType}): hands
     * over the box messages its sender wrote before it claimed the record (all published, since
     * the record was published after them), and counts the record. Returns the messages handed
     * over.
     */
    int beforeRingRecord(int source, int rawType, Sink sink) {
        final int b = boxOf(source);
        if (b < 0) {
            throw new IllegalStateException("a stamped ring record from rank " + source
                    + ", which has no fast box");
        }
        live();
        final int stamp = (rawType >>> STAMP_SHIFT) & STAMP_MASK;
        int n = 0;
        while (((int) consumed[b] & STAMP_MASK) != stamp) {
            if (!next(b, sink)) {
                throw new IllegalStateException("fast box of rank " + source + " at message "
                        + consumed[b] + " is behind its ring record's stamp " + stamp);
            }
            n++;
        }
        ringCount[b]++;
        return n;
    }

    /** Hands over box {@code b}'s next message if it is written and due. */
    private boolean next(int b, Sink sink) {
        final long expected = consumed[b];
        final long slotOffset = boxesOffset + b * boxLength + SLOTS_START
                + (long) ((int) expected & mask) * slotSize;
        final long slot = fileBase + slotOffset;
        if ((long) LONG.getAcquire(ALL, slot + SEQUENCE_OFFSET) != expected + 1
                || (int) INT.get(ALL, slot + RING_COUNT_OFFSET) != ringCount[b]) {
            return false;
        }
        final int length = (int) INT.get(ALL, slot + LENGTH_OFFSET);
        if (length < 0 || length > slotSize - SLOT_HEADER_LENGTH) {
            throw new IllegalStateException("fast box slot of length " + length);
        }
        consumed[b] = expected + 1;
        sink.deliverMessage(sourceOf[b], file, slotOffset, SLOT_HEADER_LENGTH + length);
        return true;
    }

    /** Tells the senders how far their boxes were read (one store per box that moved). */
    void publish() {
        for (int i = 0; i < open; i++) {
            final int b = openBoxes[i];
            if (consumed[b] != published[b]) {
                published[b] = consumed[b];
                LONG.setRelease(ALL, boxAddress(b) + CONSUMED_OFFSET, consumed[b]);
            }
        }
    }

    /** True when some open box has its next slot written (for the sleep check). */
    boolean ready() {
        for (int i = 0; i < open; i++) {
            final int b = openBoxes[i];
            final long slot = boxAddress(b) + SLOTS_START + (long) ((int) consumed[b] & mask) * slotSize;
            if ((long) LONG.getAcquire(ALL, slot + SEQUENCE_OFFSET) == consumed[b] + 1) {
                return true;
            }
        }
        return false;
    }

    private long boxAddress(int b) {
        return fileBase + boxesOffset + b * boxLength;
    }

    private void live() {
        if (!file.scope().isAlive()) {
            throw new IllegalStateException("the inbox mapping is closed");
        }
    }
}
