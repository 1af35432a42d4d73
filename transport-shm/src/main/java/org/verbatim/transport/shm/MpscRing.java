package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.InboxDescriptor.HEAD_CACHE_OFFSET;
import static org.verbatim.transport.shm.InboxDescriptor.HEAD_OFFSET;
import static org.verbatim.transport.shm.InboxDescriptor.RING_OFFSET;
import static org.verbatim.transport.shm.InboxDescriptor.TAIL_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.HEADER_LENGTH;
import static org.verbatim.transport.shm.RecordDescriptor.LENGTH_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.SOURCE_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.TYPE_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.TYPE_PADDING;

import static org.verbatim.transport.shm.RawWords.ALL;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * A many-to-one ring of variable-length records in shared memory (after Agrona's
 * {@code ManyToOneRingBuffer}), laid out as in {@link InboxDescriptor} and
 * {@link RecordDescriptor}. Any number of producers in any processes {@link #claim} space with a
 * CAS on TAIL, fill the record with plain writes and {@link #commit} it by writing its length with
 * release ordering. The one consumer reads the length with acquire ordering and, after use, zeroes
 * the record and moves HEAD on with release ordering: at once ({@link #release}), or for a whole
 * batch of records at a time ({@link #consume} each, then one {@link #flush}), which zeroes the
 * batch in one copy and publishes HEAD once. The consumer keeps its own position, so it reads
 * no counter of the shared file per record.
 *
 * <p>Neither side allocates, locks or makes a system call. A record that does not fit before the
 * end of the ring is preceded by a padding record that fills the rest, so every record is contiguous.
 * Records claimed by one producer are consumed in claim order.
 *
 * <p>Counters and record headers are read and written by address ({@link RawWords}): each
 * operation checks once that the mapping is alive ({@link #live}) and that a record offset it is
 * given lies in the ring, instead of the segment checking every word.
 */
final class MpscRing {
    private static final VarHandle LONG = RawWords.LONG;
    private static final VarHandle INT = RawWords.INT;

    /** Returned by {@link #claim} when the ring has no room now. */
    static final long FULL = -1;

    private final MemorySegment file;
    /** The file's address: counters and headers are at {@code base + offset} ({@link RawWords}). */
    private final long base;
    private final MemorySegment zeroes;
    private final int capacity;
    private final int mask;
    private final int maxRecordLength;
    private final Doorbell doorbell;
    /** Consumer side: the position of the next record to poll (HEAD as the consumer knows it). */
    private long head;
    /**
     * Consumer side: HEAD as published in the file; the records in [published, head) are
     * consumed but not yet zeroed, and producers cannot claim their space before the flush.
     */
    private long published;
    /** Consumer side: length, type and source of the record {@link #poll} returned last. */
    private int polledLength;
    private int polledType;
    private int polledSource;

    /**
     * @param file            the whole mapped inbox file
     * @param capacity        ring bytes (a power of two)
     * @param maxRecordLength largest record, header included, aligned
     * @param zeroes          at least {@code maxRecordLength} zero bytes (consumer side only; may
     *                        be null for a producer-only view)
     */
    MpscRing(MemorySegment file, int capacity, int maxRecordLength, MemorySegment zeroes) {
        this(file, capacity, maxRecordLength, zeroes, null);
    }

    /**
     * @param timespec native scratch of {@link Futex#TIMESPEC_SIZE} bytes for the consumer's
     *                 {@link #sleep} (consumer side only; null for a producer-only view)
     */
    MpscRing(MemorySegment file, int capacity, int maxRecordLength, MemorySegment zeroes,
             MemorySegment timespec) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two: " + capacity);
        }
        if (file.byteSize() < InboxDescriptor.fileSize(capacity)) {
            throw new IllegalArgumentException("inbox file too small: " + file.byteSize());
        }
        this.file = file;
        this.base = file.address();
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.maxRecordLength = maxRecordLength;
        this.zeroes = zeroes;
        this.doorbell = new Doorbell(file, timespec);
        this.head = (long) LONG.getVolatile(ALL, base + HEAD_OFFSET);
        this.published = head;
    }

    int capacity() {
        return capacity;
    }

    int maxRecordLength() {
        return maxRecordLength;
    }

    /** The mapped file; record offsets returned by {@link #claim} and {@link #poll} index into it. */
    MemorySegment buffer() {
        return file;
    }

    // ---- producer side

    /**
     * Claims room for a record of {@code length} bytes (header included) and returns the file
     * offset of its first byte, or {@link #FULL}. The caller fills the record and then calls
     * {@link #commit}; until then the consumer waits at this record.
     */
    long claim(int length) {
        if (length < HEADER_LENGTH || length > maxRecordLength) {
            throw new IllegalArgumentException("record length " + length + " not in ["
                    + HEADER_LENGTH + ", " + maxRecordLength + "]");
        }
        live();
        final int required = RecordDescriptor.align(length);
        long head = (long) LONG.getOpaque(ALL, base + HEAD_CACHE_OFFSET);
        long tail;
        int tailIndex;
        int padding;
        do {
            tail = (long) LONG.getVolatile(ALL, base + TAIL_OFFSET);
            if (required > capacity - (int) (tail - head)) {
                head = (long) LONG.getAcquire(ALL, base + HEAD_OFFSET);
                if (required > capacity - (int) (tail - head)) {
                    return FULL;
                }
                LONG.setOpaque(ALL, base + HEAD_CACHE_OFFSET, head);
            }
            padding = 0;
            tailIndex = (int) tail & mask;
            final int toEnd = capacity - tailIndex;
            if (required > toEnd) {
                int headIndex = (int) head & mask;
                if (required > headIndex) {
                    head = (long) LONG.getAcquire(ALL, base + HEAD_OFFSET);
                    headIndex = (int) head & mask;
                    if (required > headIndex) {
                        return FULL;
                    }
                    LONG.setOpaque(ALL, base + HEAD_CACHE_OFFSET, head);
                }
                padding = toEnd;
            }
        } while (!LONG.compareAndSet(ALL, base + TAIL_OFFSET, tail, tail + required + padding));

        if (padding != 0) {
            final long paddingOffset = RING_OFFSET + (long) tailIndex;
            INT.set(ALL, base + paddingOffset + TYPE_OFFSET, TYPE_PADDING);
            INT.setRelease(ALL, base + paddingOffset + LENGTH_OFFSET, padding);
            tailIndex = 0;
        }
        return RING_OFFSET + (long) tailIndex;
    }

    /** Publishes a claimed record: type, source and length; the body must already be written. */
    void commit(long offset, int type, int source, int length) {
        final long at = record(offset);
        INT.set(ALL, at + TYPE_OFFSET, type);
        INT.set(ALL, at + SOURCE_OFFSET, source);
        INT.setRelease(ALL, at + LENGTH_OFFSET, length);
        doorbell.ring();
    }

    /** Turns a claimed record into padding (the sender gave it up after claiming). */
    void abandon(long offset, int length) {
        final long at = record(offset);
        INT.set(ALL, at + TYPE_OFFSET, TYPE_PADDING);
        INT.setRelease(ALL, at + LENGTH_OFFSET, RecordDescriptor.align(length));
        doorbell.ring();
    }

    // ---- consumer side

    /**
     * The file offset of the next published record, or -1 if none is ready. Padding records are
     * skipped (consumed) here.
     */
    long poll() {
        live();
        while (true) {
            if (head - published == capacity) {
                // A whole ring consumed and not given back: producers can have written nothing
                // since, and the slot at head is the oldest consumed record, not a new one.
                flush();
                return -1;
            }
            final long offset = RING_OFFSET + ((int) head & mask);
            final int length = (int) INT.getAcquire(ALL, base + offset + LENGTH_OFFSET);
            if (length <= 0) {
                return -1;
            }
            final int type = (int) INT.get(ALL, base + offset + TYPE_OFFSET);
            if (type != TYPE_PADDING) {
                polledLength = length;
                polledType = type;
                polledSource = (int) INT.get(ALL, base + offset + SOURCE_OFFSET);
                return offset;
            }
            head += RecordDescriptor.align(length); // padding: consumed here, zeroed by the flush
        }
    }

    /** True if the next record is published (padding included): {@link #poll} has work. */
    boolean ready() {
        live();
        return head - published != capacity
                && (int) INT.getAcquire(ALL, base + RING_OFFSET + ((int) head & mask) + LENGTH_OFFSET) > 0;
    }

    /**
     * Sleeps in the kernel for at most {@code maxNanos} until a producer commits a record (see
     * {@link Doorbell}); returns at once if one is ready. False if this platform cannot sleep
     * on the ring (no futex): the caller must then wait some other way.
     */
    boolean sleep(long maxNanos) {
        return doorbell.sleep(this, maxNanos);
    }

    /** The ring's doorbell (wake-up through an eventfd: see {@link Doorbell}). */
    Doorbell doorbell() {
        return doorbell;
    }

    /** Length (header included) of the published record at {@code offset}. */
    int length(long offset) {
        return (int) INT.get(ALL, record(offset) + LENGTH_OFFSET);
    }

    /** Length (header included) of the record the last {@link #poll} returned. */
    int polledLength() {
        return polledLength;
    }

    /** Type of the record the last {@link #poll} returned. */
    int polledType() {
        return polledType;
    }

    /** Source of the record the last {@link #poll} returned. */
    int polledSource() {
        return polledSource;
    }

    /**
     * The address of the record header at file offset {@code offset}, after checking that the
     * mapping is alive and that the header lies in the ring (what the segment's checks would
     * have guaranteed for each word: a bad offset throws instead of writing elsewhere).
     */
    private long record(long offset) {
        live();
        if (offset < RING_OFFSET || offset > RING_OFFSET + capacity - HEADER_LENGTH) {
            throw new IndexOutOfBoundsException("record offset " + offset + " outside the ring");
        }
        return base + offset;
    }

    /** Throws if the file is unmapped (its arena closed): raw accesses would then fault. */
    private void live() {
        if (!file.scope().isAlive()) {
            throw new IllegalStateException("the inbox mapping is closed");
        }
    }

    /**
     * Consumes the record at {@code offset} (the one {@link #poll} returned) and gives its space
     * back to the producers at once: {@link #consume}, then {@link #flush}.
     */
    void release(long offset, int length) {
        consume(offset, length);
        flush();
    }

    /**
     * Consumes the record at {@code offset} (the one {@link #poll} returned): the next poll
     * looks past it. Its space goes back to the producers at the next {@link #flush}; the record
     * must not be read after that.
     */
    void consume(long offset, int length) {
        head += RecordDescriptor.align(length);
    }

    /** Consumer side: bytes of records consumed since the last {@link #flush} (not given back yet). */
    long unflushed() {
        return head - published;
    }

    /**
     * Zeroes the records consumed since the last flush (one copy, two where they wrap around the
     * end of the ring) and publishes HEAD past them with release ordering, so that producers
     * find their space zeroed.
     */
    void flush() {
        final long from = published;
        final long to = head;
        if (from == to) {
            return;
        }
        live();
        final int start = (int) from & mask;
        final long bytes = to - from;
        final int first = (int) Math.min(bytes, capacity - start);
        zero(RING_OFFSET + start, first);
        if (bytes > first) {
            zero(RING_OFFSET, (int) (bytes - first));
        }
        LONG.setRelease(ALL, base + HEAD_OFFSET, to);
        published = to;
    }

    private void zero(long offset, int bytes) {
        final int chunk = (int) zeroes.byteSize();
        for (int done = 0; done < bytes; done += chunk) {
            MemorySegment.copy(zeroes, 0, file, offset + done, Math.min(chunk, bytes - done));
        }
    }

    /** Bytes published or claimed but not yet consumed (a racy snapshot, for tests and probes). */
    long occupancy() {
        return (long) LONG.getVolatile(ALL, base + TAIL_OFFSET)
                - (long) LONG.getVolatile(ALL, base + HEAD_OFFSET);
    }
}
