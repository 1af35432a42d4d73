package org.verbatim.transport.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.MemoryRegistration;

class RegistrationCacheTest {
    private final List<MemorySegment> pinned = new ArrayList<>();
    private int nextKey = 1;

    private RegistrationCache cache(long bound) {
        return new RegistrationCache((segment, access) -> {
            pinned.add(segment);
            int key = nextKey++;
            return new RegistrationCache.Pinned() {
                @Override
                public int lkey() {
                    return key;
                }

                @Override
                public int rkey() {
                    return key + 1000;
                }

                @Override
                public void unpin() {
                    assertTrue(pinned.remove(segment), "unpinned twice");
                }
            };
        }, bound);
    }

    @Test
    void reRegistrationAndSubRangesHit() {
        try (Arena arena = Arena.ofConfined()) {
            RegistrationCache c = cache(1 << 20);
            MemorySegment m = arena.allocate(65536, 4096);
            MemoryRegistration a = c.register(m);
            MemoryRegistration b = c.register(m.asSlice(100, 1000));
            assertEquals(1, c.misses());
            assertEquals(1, c.hits());
            assertEquals(a.remoteKey(), b.remoteKey());
            assertEquals(1, c.lkey(m.address() + 50, 10));
            a.close();
            b.close();
            b.close();
            assertEquals(1, pinned.size(), "kept pinned while within the bound");
            c.register(m).close();
            assertEquals(2, c.hits());
            c.clear();
            assertEquals(0, pinned.size());
        }
    }

    @Test
    void freedMemoryIsInvalidatedNotReused() {
        RegistrationCache c = cache(1 << 20);
        Arena arena = Arena.ofConfined();
        MemorySegment m = arena.allocate(8192, 4096);
        c.register(m).close();
        arena.close();
        c.trim();
        assertEquals(1, c.invalidations());
        assertEquals(0, pinned.size());
        try (Arena other = Arena.ofConfined()) {
            MemorySegment n = other.allocate(8192, 4096);
            c.register(n).close();
            assertEquals(0, c.hits(), "a hit needs the same, live scope");
        }
    }

    @Test
    void memoryWithoutAnObservableEndIsNeverCached() {
        try (Arena arena = Arena.ofConfined()) {
            RegistrationCache c = cache(1 << 20);
            MemorySegment m = arena.allocate(8192, 4096);
            MemorySegment bare = MemorySegment.ofAddress(m.address()).reinterpret(8192);
            MemoryRegistration a = c.register(bare);
            assertEquals(1, c.lkey(bare.address(), 8192), "pinned while in use");
            a.close();
            assertEquals(0, pinned.size(), "unpinned at close: the address may be freed next");
            c.register(bare).close();
            assertEquals(0, c.hits());
            assertEquals(2, c.misses());
            c.register(m).close();
            c.register(m).close();
            assertEquals(1, c.hits(), "memory with a scope is still cached");
            c.clear();
        }
    }

    @Test
    void boundOnIdlePinnedMemoryEvictsOldestFirst() {
        try (Arena arena = Arena.ofConfined()) {
            RegistrationCache c = cache(3 * 4096);
            List<MemorySegment> segments = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                MemorySegment s = arena.allocate(4096, 4096);
                segments.add(s);
                c.register(s).close();
            }
            assertEquals(3, pinned.size());
            assertEquals(3, c.evictions());
            assertTrue(c.idleBytes() <= 3 * 4096);
            assertEquals(-1, c.lkey(segments.get(0).address(), 16), "evicted");
            MemoryRegistration busy = c.register(segments.get(5));
            assertEquals(1, c.hits());
            assertTrue(pinned.contains(segments.get(5)));
            busy.close();
        }
    }

    @Test
    void heapMemoryIsRefused() {
        RegistrationCache c = cache(1 << 20);
        assertThrows(IllegalArgumentException.class, () -> c.register(MemorySegment.ofArray(new byte[8])));
    }

    @Test
    void aHitNeedsTheRightsAskedFor() {
        try (Arena arena = Arena.ofConfined()) {
            RegistrationCache c = cache(1 << 20);
            MemorySegment m = arena.allocate(65536, 4096);
            MemoryRegistration readOnly = c.register(m, org.verbatim.spi.Access.REMOTE_READ);
            c.register(m.asSlice(0, 100), org.verbatim.spi.Access.REMOTE_READ).close();
            assertEquals(1, c.hits(), "fewer rights: a hit");
            MemoryRegistration writable = c.register(m.asSlice(0, 100), org.verbatim.spi.Access.ALL);
            assertEquals(2, c.misses(), "more rights: pinned again");
            assertEquals(-1, c.lkey(m.address() + 1000, 8, org.verbatim.spi.Access.REMOTE_WRITE),
                    "no entry grants writes beyond the first 100 bytes");
            assertTrue(c.lkey(m.address() + 10, 8, org.verbatim.spi.Access.REMOTE_WRITE) > 0);
            readOnly.close();
            writable.close();
            c.clear();
        }
    }

    @Test
    void aClosedRegistrationStillNamesItsKey() {
        try (Arena arena = Arena.ofConfined()) {
            RegistrationCache c = cache(0);
            MemorySegment m = arena.allocate(4096, 4096);
            MemoryRegistration r = c.register(m);
            long key = r.remoteKey();
            r.close();
            assertEquals(0, pinned.size(), "no cache: unpinned at close");
            assertEquals(key, r.remoteKey());
        }
    }
}
