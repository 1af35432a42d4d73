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
}
