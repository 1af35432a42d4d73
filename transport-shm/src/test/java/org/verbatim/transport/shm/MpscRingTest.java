package org.verbatim.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MpscRingTest {
    private static final int CAPACITY = 1024;
    private static final int MAX_RECORD = 256;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment file = arena.allocate(InboxDescriptor.fileSize(CAPACITY), 4096);
    private final MpscRing ring = new MpscRing(file, CAPACITY, MAX_RECORD, arena.allocate(MAX_RECORD));

    @AfterEach
    void close() {
        arena.close();
    }

    private boolean offer(int value, int bodyLength) {
        long offset = ring.claim(RecordDescriptor.HEADER_LENGTH + bodyLength);
        if (offset == MpscRing.FULL) {
            return false;
        }
        for (int i = 0; i < bodyLength; i++) {
            file.set(ValueLayout.JAVA_BYTE, offset + RecordDescriptor.HEADER_LENGTH + i, (byte) (value + i));
        }
        ring.commit(offset, RecordDescriptor.TYPE_MESSAGE, value, RecordDescriptor.HEADER_LENGTH + bodyLength);
        return true;
    }

    /** Polls one record, checks its body, consumes it, returns its source field or -1. */
    private int take(int expectedBodyLength) {
        long offset = ring.poll();
        if (offset < 0) {
            return -1;
        }
        int length = ring.length(offset);
        int value = file.get(ValueLayout.JAVA_INT, offset + RecordDescriptor.SOURCE_OFFSET);
        if (expectedBodyLength >= 0) {
            assertEquals(RecordDescriptor.HEADER_LENGTH + expectedBodyLength, length);
        }
        for (int i = 0; i < length - RecordDescriptor.HEADER_LENGTH; i++) {
            assertEquals((byte) (value + i),
                    file.get(ValueLayout.JAVA_BYTE, offset + RecordDescriptor.HEADER_LENGTH + i));
        }
        ring.release(offset, length);
        return value;
    }

    @Test
    void theRingsWordsGoByAddressSoAClosedMappingAndABadOffsetThrowInsteadOfFaulting() {
        Arena own = Arena.ofShared();
        MemorySegment f = own.allocate(InboxDescriptor.fileSize(CAPACITY), 4096);
        MpscRing r = new MpscRing(f, CAPACITY, MAX_RECORD, own.allocate(MAX_RECORD));
        long offset = r.claim(RecordDescriptor.HEADER_LENGTH + 8);
        assertThrows(IndexOutOfBoundsException.class,
                () -> r.commit(InboxDescriptor.RING_OFFSET - 4, RecordDescriptor.TYPE_MESSAGE, 1, 24));
        assertThrows(IndexOutOfBoundsException.class, () -> r.commit(InboxDescriptor.RING_OFFSET
                + CAPACITY - 8, RecordDescriptor.TYPE_MESSAGE, 1, 24));
        assertThrows(IndexOutOfBoundsException.class, () -> r.length(-1));
        r.commit(offset, RecordDescriptor.TYPE_MESSAGE, 7, RecordDescriptor.HEADER_LENGTH + 8);
        assertEquals(offset, r.poll());
        assertEquals(RecordDescriptor.HEADER_LENGTH + 8, r.polledLength());
        assertEquals(RecordDescriptor.TYPE_MESSAGE, r.polledType());
        assertEquals(7, r.polledSource());
        // the words are where the segment's own accesses find them
        assertEquals(7, f.get(ValueLayout.JAVA_INT, offset + RecordDescriptor.SOURCE_OFFSET));
        assertEquals(RecordDescriptor.align(RecordDescriptor.HEADER_LENGTH + 8),
                f.get(ValueLayout.JAVA_LONG, InboxDescriptor.TAIL_OFFSET));
        r.release(offset, RecordDescriptor.HEADER_LENGTH + 8);
        assertEquals(f.get(ValueLayout.JAVA_LONG, InboxDescriptor.TAIL_OFFSET),
                f.get(ValueLayout.JAVA_LONG, InboxDescriptor.HEAD_OFFSET));
        own.close();
        assertThrows(IllegalStateException.class, () -> r.claim(RecordDescriptor.HEADER_LENGTH));
        assertThrows(IllegalStateException.class, r::poll);
        assertThrows(IllegalStateException.class, r::ready);
        assertThrows(IllegalStateException.class,
                () -> r.commit(offset, RecordDescriptor.TYPE_MESSAGE, 1, 24));
    }

    @Test
    void emptyRingHasNothingToPoll() {
        assertEquals(-1, ring.poll());
    }

    @Test
    void fillsUpThenSaysFullThenFreesSpaceAsItIsConsumed() {
        // 100-byte bodies: records of 116 bytes, aligned to 128, 8 of them fill 1024 bytes.
        int accepted = 0;
        while (offer(accepted, 100)) {
            accepted++;
        }
        assertEquals(CAPACITY / 128, accepted);
        assertEquals(0, take(100));
        assertTrue(offer(accepted, 100), "one record consumed, one record fits");
        assertTrue(!offer(accepted + 1, 100));
    }

    @Test
    void wrapsAroundWithPaddingAndKeepsOrder() {
        // Odd sizes make records straddle the end of the ring again and again.
        int next = 0;
        int expected = 0;
        int[] sizes = {0, 1, 33, 100, 200, 240, 17, 64};
        int[] sent = new int[100_000];
        for (int round = 0; round < 20_000; round++) {
            int size = sizes[round % sizes.length];
            if (offer(next, size)) {
                sent[next] = size;
                next++;
            }
            if (round % 3 != 0) {
                int got = take(-1);
                if (got >= 0) {
                    assertEquals(expected, got);
                    expected++;
                }
            }
        }
        int got;
        while ((got = take(-1)) >= 0) {
            assertEquals(expected++, got);
        }
        assertEquals(next, expected);
        assertTrue(next > 5_000, "the ring wrapped many times (" + next + " records)");
    }

    @Test
    void refusesRecordsLargerThanTheMaximum() {
        assertThrows(IllegalArgumentException.class, () -> ring.claim(MAX_RECORD + 1));
        assertThrows(IllegalArgumentException.class, () -> ring.claim(4));
    }

    @Test
    void manyProducersOneConsumerKeepOrderPerProducer() throws Exception {
        final int producers = 4;
        final int perProducer = 50_000;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final int producer = p;
            Thread t = new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    int value = producer << 24 | i;
                    while (!offer(value, i % 50)) {
                        Thread.onSpinWait();
                    }
                }
            });
            t.setUncaughtExceptionHandler((th, e) -> failure.set(e));
            threads.add(t);
            t.start();
        }
        int[] next = new int[producers];
        int received = 0;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (received < producers * perProducer) {
            int value = take(-1);
            if (value < 0) {
                assertTrue(System.nanoTime() < deadline, "timed out at " + received);
                continue;
            }
            int producer = value >>> 24;
            assertEquals(next[producer]++, value & 0xFFFFFF, "order of producer " + producer);
            received++;
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(null, failure.get());
        assertEquals(0, ring.occupancy());
    }

    @Test
    void consumedRecordsGoBackToProducersZeroedAtTheFlush() {
        // Odd sizes so that the batches wrap around the end of the ring (padding included).
        int sent = 0;
        int received = 0;
        for (int round = 0; round < 50; round++) {
            while (offer(sent, 20 + sent % 37)) {
                sent++;
            }
            int batch = 0;
            for (long offset = ring.poll(); offset >= 0 && batch < 5; offset = ring.poll()) {
                int length = ring.length(offset);
                assertEquals(received++, file.get(ValueLayout.JAVA_INT, offset + RecordDescriptor.SOURCE_OFFSET));
                ring.consume(offset, length);
                batch++;
            }
            assertTrue(batch > 0);
            assertTrue(!offer(sent, 20 + sent % 37), "no space given back before the flush");
            assertTrue(ring.unflushed() >= batch * 48L, "consumed bytes wait for the flush");
            ring.flush();
            assertEquals(0, ring.unflushed());
            assertEquals(sent - received, countPublished(), "the batch left the ring");
            for (long at = 0; at < CAPACITY; at += 8) {
                // zeroed space: every byte outside the records still queued is zero
                if (!inQueuedRecord(at)) {
                    assertEquals(0L, file.get(ValueLayout.JAVA_LONG, InboxDescriptor.RING_OFFSET + at),
                            "byte " + at + " zeroed in round " + round);
                }
            }
        }
        while (take(-1) >= 0) {
            received++;
        }
        assertEquals(sent, received);
        assertEquals(0, ring.occupancy());
    }

    /** Records published and not consumed, walked from HEAD as the file has it. */
    private int countPublished() {
        long head = file.get(ValueLayout.JAVA_LONG, InboxDescriptor.HEAD_OFFSET);
        long tail = file.get(ValueLayout.JAVA_LONG, InboxDescriptor.TAIL_OFFSET);
        int n = 0;
        for (long pos = head; pos < tail; ) {
            long at = InboxDescriptor.RING_OFFSET + (pos & (CAPACITY - 1));
            int length = file.get(ValueLayout.JAVA_INT, at + RecordDescriptor.LENGTH_OFFSET);
            if (file.get(ValueLayout.JAVA_INT, at + RecordDescriptor.TYPE_OFFSET) != RecordDescriptor.TYPE_PADDING) {
                n++;
            }
            pos += RecordDescriptor.align(length);
        }
        return n;
    }

    /** True when ring byte {@code at} lies in a record between HEAD and TAIL. */
    private boolean inQueuedRecord(long at) {
        long head = file.get(ValueLayout.JAVA_LONG, InboxDescriptor.HEAD_OFFSET);
        long tail = file.get(ValueLayout.JAVA_LONG, InboxDescriptor.TAIL_OFFSET);
        for (long pos = head; pos < tail; pos++) {
            if ((pos & (CAPACITY - 1)) == at) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aWholeRingConsumedWithoutAFlushIsNotReadAgain() {
        // 64-byte records fill the 1024-byte ring exactly: after consuming all of them the next
        // slot is the first one again, consumed but not yet zeroed.
        int sent = 0;
        while (offer(sent, 48)) {
            sent++;
        }
        assertEquals(CAPACITY / 64, sent);
        for (int i = 0; i < sent; i++) {
            long offset = ring.poll();
            assertTrue(offset >= 0);
            assertEquals(i, file.get(ValueLayout.JAVA_INT, offset + RecordDescriptor.SOURCE_OFFSET));
            ring.consume(offset, ring.length(offset));
        }
        assertTrue(!ring.ready(), "nothing new");
        assertEquals(-1, ring.poll(), "the first record is not delivered twice");
        assertEquals(0, ring.unflushed(), "the poll gave the ring back");
        assertTrue(offer(sent, 48));
        assertEquals(sent, take(48));
    }
}
