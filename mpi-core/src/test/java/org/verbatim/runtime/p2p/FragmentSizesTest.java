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
}
