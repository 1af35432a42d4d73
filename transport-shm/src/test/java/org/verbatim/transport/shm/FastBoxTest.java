package org.verbatim.transport.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.verbatim.spi.EagerClaim;

/** The fast boxes: send order across the box and the shared ring, and stale slots. */
class FastBoxTest {
    private static final int CAPACITY = 4096;
    private static final int MAX_RECORD = 1024;
    private static final int SLOTS = 8;
    private static final int SLOT_SIZE = 64;

    /**
     * Rank 0 sends small messages (box) and larger ones (ring) in a random mix, with rank 1 not
     * reading for random stretches so the 8-slot box fills and sends fall back to the ring, and
     * with claims given up in between (counted ring records that carry nothing): rank 1 gets
     * every message once, in send order.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void messagesKeepSendOrderAcrossTheBoxAndTheRing() throws Exception {
        Map<String, String> config = Map.of(ShmConfiguration.FASTBOX_AFTER.name(), "4",
                ShmConfiguration.FASTBOX_SLOTS.name(), Integer.toString(SLOTS),
                ShmConfiguration.EAGER_SIZE.name(), "1k",
                ShmConfiguration.INBOX_SIZE.name(), "16k");
        Random random = new Random(17);
        final int count = 20_000;
        try (ShmRanks ranks = new ShmRanks(2, config); Arena arena = Arena.ofConfined()) {
            ShmEndpoint to1 = (ShmEndpoint) ranks.transports[0].endpoint(1);
            MemorySegment header = arena.allocate(8);
            MemorySegment payload = arena.allocate(512);
            MemorySegment heapPayload = MemorySegment.ofArray(new byte[512]);
            List<byte[]> sent = new ArrayList<>();
            EagerClaim claim = new EagerClaim();
            int boxFullFallbacks = 0;
            for (int i = 0; i < count; i++) {
                int length = random.nextInt(4) == 0 ? 41 + random.nextInt(400) : random.nextInt(41);
                MemorySegment body = random.nextInt(8) == 0 ? heapPayload : payload;
                header.set(ValueLayout.JAVA_INT, 0, i);
                header.set(ValueLayout.JAVA_INT, 4, length);
                for (int j = 0; j < length; j++) {
                    body.set(ValueLayout.JAVA_BYTE, j, (byte) (i * 31 + j));
                }
                MemorySegment p = body.asSlice(0, length);
                FastBoxSender box = to1.ringBox();
                long before = box == null ? -1 : box.written();
                ranks.post(() -> to1.send(header, p));
                if (box != null && length <= 40 && box.written() == before) {
                    boxFullFallbacks++;
                }
                byte[] message = new byte[8 + length];
                MemorySegment.copy(header, ValueLayout.JAVA_BYTE, 0, message, 0, 8);
                MemorySegment.copy(p, ValueLayout.JAVA_BYTE, 0, message, 8, length);
                sent.add(message);
                if (random.nextInt(16) == 0) {
                    ranks.post(() -> to1.claim(24, claim));
                    claim.abort();
                }
                if (random.nextInt(24) == 0) {
                    ranks.transports[1].progress();
                }
            }
            ranks.awaitReceived(1, count);
            List<byte[]> received = ranks.recorders[1].received;
            assertEquals(count, received.size());
            for (int i = 0; i < count; i++) {
                assertArrayEquals(sent.get(i), received.get(i), "message " + i);
            }
            FastBoxSender box = to1.ringBox();
            assertNotNull(box, "rank 0 got a fast box at rank 1");
            assertTrue(box.written() > 1000, "box messages: " + box.written());
            assertTrue(boxFullFallbacks > 100, "small messages through the ring: " + boxFullFallbacks);
            // rank 1 never sent, so it never asked rank 0 for a box
            assertNull(((ShmEndpoint) ranks.transports[1].endpoint(0)).ringBox());
        }
    }

    @Test
    void theSettingsAreValidated() {
        ShmConfiguration defaults = ShmConfiguration.from(Map.of());
        assertEquals(8, defaults.fastBoxes());
        assertEquals(64, defaults.fastBoxAfter());
        assertEquals(128, defaults.fastBoxSlots());
        assertEquals(64, defaults.fastBoxSlotSize());
        assertEquals(0, ShmConfiguration.from(Map.of(ShmConfiguration.FASTBOX_COUNT.name(), "0"))
                .fastBoxes());
        for (String[] bad : new String[][] {{ShmConfiguration.FASTBOX_COUNT.name(), "65"},
                {ShmConfiguration.FASTBOX_COUNT.name(), "-1"}, {ShmConfiguration.FASTBOX_AFTER.name(), "0"},
                {ShmConfiguration.FASTBOX_SLOTS.name(), "100"}, {ShmConfiguration.FASTBOX_SLOTS.name(), "4"},
                {ShmConfiguration.FASTBOX_SLOT_SIZE.name(), "512"},
                {ShmConfiguration.FASTBOX_SLOT_SIZE.name(), "96"}}) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> ShmConfiguration.from(Map.of(bad[0], bad[1])), bad[0] + "=" + bad[1]);
        }
    }

    /**
     * The consumer takes a slot only when its SEQUENCE is the next one: after a whole lap read,
     * the slots still hold the old lap (it never zeroes them) and nothing is read twice, even
     * where a message's own bytes hold the very header the consumer expects next.
     */
    @Test
    void aStaleSlotIsNeverTakenForANewMessage() {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment file = arena.allocate(FastBoxDescriptor.fileSize(CAPACITY, 2, SLOTS,
                    SLOT_SIZE), 4096);
            file.set(ValueLayout.JAVA_INT, FastBoxDescriptor.BOX_COUNT_OFFSET, 2);
            file.set(ValueLayout.JAVA_INT, FastBoxDescriptor.SLOTS_OFFSET, SLOTS);
            file.set(ValueLayout.JAVA_INT, FastBoxDescriptor.SLOT_SIZE_OFFSET, SLOT_SIZE);
            MpscRing producer = new MpscRing(file, CAPACITY, MAX_RECORD, null);
            assertEquals(0, FastBoxSender.take(file, CAPACITY, 5));
            assertEquals(1, FastBoxSender.take(file, CAPACITY, 6));
            assertEquals(-1, FastBoxSender.take(file, CAPACITY, 7), "only two boxes");
            FastBoxSender sender = new FastBoxSender(producer, 0);
            FastBoxes boxes = new FastBoxes(file, CAPACITY, 2, SLOTS, SLOT_SIZE, 8);
            boxes.opened(5, 0);
            List<byte[]> got = new ArrayList<>();
            FastBoxes.Sink sink = (source, f, slot, length) -> {
                assertEquals(5, source);
                got.add(f.asSlice(slot + FastBoxDescriptor.SLOT_HEADER_LENGTH,
                        length - FastBoxDescriptor.SLOT_HEADER_LENGTH).toArray(ValueLayout.JAVA_BYTE));
            };
            MemorySegment header = arena.allocate(16);
            // payload: what slot 0's header would be for the message after this lap (SEQUENCE
            // SLOTS + 1, LENGTH 40, RING COUNT 0), repeated
            ByteBuffer fake = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
            fake.putLong(SLOTS + 1).putInt(40).putInt(0).putLong(SLOTS + 1).putInt(40).putInt(0);
            MemorySegment payload = arena.allocate(32);
            MemorySegment.copy(MemorySegment.ofArray(fake.array()), 0, payload, 0, 32);
            for (int i = 0; i < SLOTS; i++) {
                header.set(ValueLayout.JAVA_LONG, 0, i);
                assertTrue(sender.offer(header, payload, 48));
            }
            assertTrue(!sender.offer(header, payload, 48), "full until the consumer publishes");
            assertTrue(!sender.offer(header, payload, 49), "larger than a slot");
            MemorySegment snapshot = arena.allocate(SLOTS * SLOT_SIZE);
            long slots = FastBoxDescriptor.boxesOffset(CAPACITY) + FastBoxDescriptor.SLOTS_START;
            MemorySegment.copy(file, slots, snapshot, 0, SLOTS * SLOT_SIZE);
            assertEquals(SLOTS, boxes.poll(sink));
            assertEquals(0, boxes.poll(sink), "a lap read: the old slots are not new messages");
            assertTrue(!boxes.ready());
            assertEquals(-1, file.asSlice(slots, SLOTS * SLOT_SIZE).mismatch(snapshot),
                    "the consumer wrote no slot");
            for (int i = 0; i < SLOTS; i++) {
                assertEquals(i, ByteBuffer.wrap(got.get(i)).order(ByteOrder.LITTLE_ENDIAN).getLong(0));
            }
            boxes.publish();
            header.set(ValueLayout.JAVA_LONG, 0, 99);
            assertTrue(sender.offer(header, payload, 48), "room again once published");
            assertTrue(boxes.ready());
            assertEquals(1, boxes.poll(sink));
            assertEquals(99, ByteBuffer.wrap(got.get(SLOTS)).order(ByteOrder.LITTLE_ENDIAN).getLong(0));
            assertEquals(0, boxes.poll(sink));
        }
    }
}
