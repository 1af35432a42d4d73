package org.verbatim.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.CompletionHandler;

class LoopbackQueueTest {
    /** Records the messages it is handed as their first int (a sequence number) and length. */
    private static final class Recorder implements CompletionHandler {
        final ArrayDeque<long[]> seen = new ArrayDeque<>();
        Runnable inside;

        @Override
        public void onReceive(int source, MemorySegment message) {
            onReceive(source, message, 0, message.byteSize());
        }

        @Override
        public void onReceive(int source, MemorySegment buffer, long offset, long length) {
            int seq = buffer.get(ValueLayout.JAVA_INT_UNALIGNED, offset);
            for (long i = 4; i < length; i++) {
                assertEquals((byte) (seq + i), buffer.get(ValueLayout.JAVA_BYTE, offset + i),
                        "byte " + i + " of message " + seq);
            }
            seen.add(new long[] {seq, length});
            if (inside != null) {
                Runnable r = inside;
                inside = null;
                r.run();
            }
        }

        @Override
        public void onImmediate(int source, int immediate) {
        }

        @Override
        public void onComplete(long wrId, int status) {
        }

        @Override
        public void onPeerFailure(int peer, String reason) {
        }
    }

    private static void add(LoopbackQueue q, int seq, int length) {
        MemorySegment header = MemorySegment.ofArray(new byte[4]);
        header.set(ValueLayout.JAVA_INT_UNALIGNED, 0, seq);
        MemorySegment payload = MemorySegment.ofArray(new byte[length - 4]);
        for (int i = 4; i < length; i++) {
            payload.set(ValueLayout.JAVA_BYTE, i - 4, (byte) (seq + i));
        }
        q.add(header, payload);
    }

    @Test
    void keepsOrderAndContentThroughWrapsAndGrowth() {
        LoopbackQueue q = new LoopbackQueue();
        Recorder r = new Recorder();
        Random random = new Random(42);
        ArrayDeque<long[]> expected = new ArrayDeque<>();
        int seq = 0;
        for (int round = 0; round < 2000; round++) {
            int adds = random.nextInt(12);
            for (int i = 0; i < adds; i++) {
                int length = 4 + (random.nextInt(10) == 0 ? random.nextInt(40_000) : random.nextInt(300));
                add(q, seq, length);
                expected.add(new long[] {seq++, length});
            }
            if (random.nextBoolean()) {
                int n = q.size();
                assertEquals(n, q.deliver(0, r));
                assertEquals(n, r.seen.size());
                while (!r.seen.isEmpty()) {
                    long[] want = expected.poll();
                    long[] got = r.seen.poll();
                    assertEquals(want[0], got[0]);
                    assertEquals(want[1], got[1]);
                }
            }
        }
    }

    @Test
    void aMessageAddedWhileDeliveringWaitsForTheNextPassEvenWhenTheRingGrows() {
        LoopbackQueue q = new LoopbackQueue();
        Recorder r = new Recorder();
        add(q, 1, 100);
        add(q, 2, 100);
        r.inside = () -> add(q, 3, 200_000); // larger than the ring: it grows under the delivery
        assertEquals(2, q.deliver(0, r));
        assertEquals(1, r.seen.poll()[0]);
        assertEquals(2, r.seen.poll()[0]);
        assertEquals(1, q.deliver(0, r));
        assertEquals(200_000, r.seen.poll()[1]);
    }
}
