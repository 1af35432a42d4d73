package org.verbatim.runtime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.spi.CompletionHandler;

/**
 * A FIFO of messages in one growable ring of heap memory, for {@link SelfTransport}: a record is
 * its length (an int, in an 8-byte slot) and the bytes, padded to 8; a record that would not fit
 * before the end of the ring leaves a wrap mark there and starts at 0. Nothing is allocated per
 * message; a full ring doubles (its records copied in order). Single-threaded, under the
 * runtime's lock.
 */
final class LoopbackQueue {
    private static final int WRAP = -1;
    private static final int SLOT = 8;

    private MemorySegment ring = MemorySegment.ofArray(new long[8192]); // 64 KiB
    /** The oldest record (when count > 0). */
    private long head;
    /** Where the next record goes. */
    private long tail;
    private int count;

    /** Appends one message: {@code header} then {@code payload}. */
    void add(MemorySegment header, MemorySegment payload) {
        long length = header.byteSize() + payload.byteSize();
        long at = reserve(SLOT + align(length));
        ring.set(ValueLayout.JAVA_INT, at, (int) length);
        MemorySegment.copy(header, 0, ring, at + SLOT, header.byteSize());
        MemorySegment.copy(payload, 0, ring, at + SLOT + header.byteSize(), payload.byteSize());
        count++;
    }

    /**
     * Hands the messages queued now, in order, to {@code handler} (those its handling adds wait
     * for the next call); returns how many.
     */
    int deliver(int source, CompletionHandler handler) {
        int n = count;
        for (int i = 0; i < n; i++) {
            head = recordAt(head);
            // The record stays in place (head not yet moved) while the handler reads it: a send
            // from inside the handler appends elsewhere, or grows the ring by copying from head.
            MemorySegment buffer = ring;
            int length = buffer.get(ValueLayout.JAVA_INT, head);
            handler.onReceive(source, buffer, head + SLOT, length);
            head += SLOT + align(length);
            count--;
        }
        if (count == 0) {
            head = 0;
            tail = 0;
        }
        return n;
    }

    /** Drops every queued message (at close). */
    void clear() {
        head = 0;
        tail = 0;
        count = 0;
    }

    int size() {
        return count;
    }

    /** {@code at}, or 0 where the ring ends or a wrap mark says the record went to the start. */
    private long recordAt(long at) {
        return at + SLOT > ring.byteSize() || ring.get(ValueLayout.JAVA_INT, at) == WRAP ? 0 : at;
    }

    private long reserve(long record) {
        long capacity = ring.byteSize();
        boolean wrapped = count > 0 && tail <= head;
        if (!wrapped) {
            if (tail + record <= capacity) {
                return take(record);
            }
            if (count > 0 && record <= head) {
                if (tail + SLOT <= capacity) {
                    ring.set(ValueLayout.JAVA_INT, tail, WRAP);
                }
                tail = 0;
                return take(record);
            }
        } else if (tail + record <= head) {
            return take(record);
        }
        grow(record);
        return take(record);
    }

    private long take(long record) {
        long at = tail;
        tail += record;
        return at;
    }

    /** Copies the records, in order and without wrap marks, into a ring with room to spare. */
    private void grow(long record) {
        long need = Math.max(ring.byteSize() * 2, (ring.byteSize() + record) * 2);
        MemorySegment bigger = MemorySegment.ofArray(new long[Math.toIntExact(need / 8)]);
        long out = 0;
        long at = head;
        for (int i = 0; i < count; i++) {
            at = recordAt(at);
            long r = SLOT + align(ring.get(ValueLayout.JAVA_INT, at));
            MemorySegment.copy(ring, at, bigger, out, r);
            at += r;
            out += r;
        }
        ring = bigger;
        head = 0;
        tail = out;
    }

    private static long align(long n) {
        return (n + SLOT - 1) & -SLOT;
    }
}
