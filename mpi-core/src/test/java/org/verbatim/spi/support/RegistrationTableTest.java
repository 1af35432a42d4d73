package org.verbatim.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.Access;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.MemoryRegistration;

class RegistrationTableTest {
    private static final int DENIED = -CompletionStatus.REMOTE_ACCESS_ERROR;

    @Test
    void resolvesWithBoundsAndRights() {
        try (Arena arena = Arena.ofConfined()) {
            RegistrationTable table = new RegistrationTable();
            MemorySegment m = arena.allocate(100, 8);
            MemoryRegistration r = table.register(m, Access.REMOTE_READ);
            long a = m.address();
            int slot = table.resolve(r.remoteKey(), a + 10, 90, Access.REMOTE_READ);
            assertTrue(slot >= 0);
            assertSame(m, table.segment(slot));
            assertEquals(10, table.offset(slot, a + 10));
            assertEquals(DENIED, table.resolve(r.remoteKey(), a + 10, 91, Access.REMOTE_READ));
            assertEquals(DENIED, table.resolve(r.remoteKey(), a - 1, 1, Access.REMOTE_READ));
            assertEquals(DENIED, table.resolve(r.remoteKey(), a, -1, Access.REMOTE_READ));
            assertEquals(DENIED, table.resolve(r.remoteKey(), a, 8, Access.REMOTE_WRITE));
            assertEquals(DENIED, table.resolve(0, a, 8, Access.REMOTE_READ));
            assertTrue(table.resolve(r.remoteKey(), a + 100, 0, Access.REMOTE_READ) >= 0);
        }
    }

    @Test
    void closedKeysNeverMatchALaterRegistrationInTheSameSlot() {
        try (Arena arena = Arena.ofConfined()) {
            RegistrationTable table = new RegistrationTable();
            MemorySegment m = arena.allocate(64, 8);
            MemoryRegistration first = table.register(m, Access.ALL);
            first.close();
            first.close();
            MemoryRegistration second = table.register(m, Access.ALL);
            assertNotEquals(first.remoteKey(), second.remoteKey());
            assertEquals(DENIED, table.resolve(first.remoteKey(), m.address(), 8, Access.REMOTE_READ));
            assertTrue(table.resolve(second.remoteKey(), m.address(), 8, Access.REMOTE_READ) >= 0);
            assertEquals(1, table.size());
            for (int i = 0; i < 200; i++) {
                table.register(m, Access.ALL);
            }
            assertEquals(201, table.size());
        }
    }

    @Test
    void heapMemoryIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new RegistrationTable().register(MemorySegment.ofArray(new byte[8]), Access.ALL));
    }
}
