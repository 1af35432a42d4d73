package org.verbatim.onesided;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LockTableTest {
    private final LockTable table = new LockTable();
    private final List<Integer> granted = new ArrayList<>();

    @Test
    void sharedHoldersShareAndExclusiveWaitsForThem() {
        table.request(1, false, granted::add);
        table.request(2, false, granted::add);
        table.request(3, true, granted::add);
        assertEquals(List.of(1, 2), granted);
        assertTrue(table.release(1, granted::add));
        assertEquals(List.of(1, 2), granted);
        assertTrue(table.release(2, granted::add));
        assertEquals(List.of(1, 2, 3), granted);
    }

    @Test
    void aWaitingWriterHoldsBackLaterReaders() {
        table.request(1, false, granted::add);
        table.request(2, true, granted::add);
        table.request(3, false, granted::add);
        assertEquals(List.of(1), granted, "reader 3 must queue behind writer 2");
        table.release(1, granted::add);
        assertEquals(List.of(1, 2), granted);
        table.release(2, granted::add);
        assertEquals(List.of(1, 2, 3), granted);
        table.release(3, granted::add);
        assertTrue(table.idle());
    }

    @Test
    void exclusiveIsExclusive() {
        table.request(4, true, granted::add);
        table.request(5, true, granted::add);
        assertEquals(List.of(4), granted);
        assertFalse(table.release(5, granted::add), "5 holds nothing");
        table.release(4, granted::add);
        assertEquals(List.of(4, 5), granted);
    }

    @Test
    void releaseWithoutLockIsRefused() {
        assertFalse(table.release(1, granted::add));
    }
}
