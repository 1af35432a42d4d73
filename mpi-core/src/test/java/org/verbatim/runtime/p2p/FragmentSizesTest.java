package org.verbatim.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FragmentSizesTest {
    private static final long ROOM = 16_320;

    @Test
    void evenFragmentsLeaveNoSliver() {
        assertEquals(10_944, FragmentSender.evenFragments(32_768, ROOM)); // 3 of 10,944 / 10,944 / 10,880
        assertEquals(ROOM, FragmentSender.evenFragments(2 * ROOM, ROOM));
        assertEquals(ROOM, FragmentSender.evenFragments(ROOM, ROOM));
        assertEquals(64, FragmentSender.evenFragments(1, ROOM));
    }

    @Test
    void neverMoreFragmentsThanTheRoomNeedsAndNeverLargerThanIt() {
        for (long total = 1; total < 20 * ROOM; total += 977) {
            long size = FragmentSender.evenFragments(total, ROOM);
            long fewest = (total + ROOM - 1) / ROOM;
            assertTrue(size <= ROOM, total + ": " + size);
            assertEquals(fewest, (total + size - 1) / size, "fragments of " + total);
            assertEquals(0, size % 64, "a cache line multiple");
        }
    }

    @Test
    void fragmentDataStartsOnACacheLineWithinTheSlack() {
        for (long header = 0; header < 256; header += 16) {
            int pad = FragmentSender.padding(header);
            assertTrue(pad >= 0 && pad <= WireHeader.FRAG_MAX_PADDING, header + ": " + pad);
            assertEquals(0, (header + WireHeader.BASE_SIZE + pad) % 64,
                    "data of a header at " + header);
        }
        // a record not 16-byte aligned: no padding beyond the slack (misaligned, still correct)
        assertEquals(0, FragmentSender.padding(40)); // would need 56
        assertEquals(32, FragmentSender.padding(0));
        assertEquals(48, FragmentSender.padding(48));
    }

    @Test
    void aFragmentAndItsSlackFitTheRecord() {
        for (int maxEager : new int[] {256, 1024, 16_384, 65_536}) {
            long room = FragmentSender.fragmentBytes(maxEager);
            assertTrue(WireHeader.BASE_SIZE + WireHeader.FRAG_SLACK + room <= maxEager,
                    "record of " + maxEager);
            assertEquals(0, room % 64);
        }
        assertEquals(16_256, FragmentSender.fragmentBytes(16_384));
    }

    /** With shm's 16-byte record header, a fragment record that starts on a line ends on one. */
    @Test
    void aFragmentRecordIsWholeCacheLines() {
        for (long n = 64; n <= 16_256; n += 64) {
            long record = 16 + WireHeader.BASE_SIZE + WireHeader.FRAG_SLACK + n;
            assertEquals(0, record % 64, "record of " + n + " data bytes");
        }
        assertEquals(16, FragmentSender.padding(16), "a record on a line: data 64 bytes in");
    }
}
