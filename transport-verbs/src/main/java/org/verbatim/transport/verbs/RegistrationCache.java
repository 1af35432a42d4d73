package org.verbatim.transport.verbs;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.verbatim.spi.Access;
import org.verbatim.spi.MemoryRegistration;

/**
 * The pin-down cache: a registration outlives its user's {@code close()} so the next
 * registration of the same memory costs nothing, within a bound on memory kept pinned that way.
 *
 * <p>Invalidation: Java frees native memory by closing its arena, so an entry is valid only while
 * its segment's scope is alive, and a hit needs the same scope. A stale entry (memory freed, the
 * address possibly reused) is never handed out; it is unpinned at the next lookup or sweep. This
 * is the Java form of the malloc/munmap hooks C pin-down caches need. Memory in the global scope
 * (a segment made from a bare address) has no observable end, so it is pinned for each use and
 * never cached: its address may belong to other memory by the next use.
 *
 * <p>Entries carry their {@link Access} rights: a hit needs an entry that grants at least the
 * rights asked for; otherwise the memory is pinned again with the new rights.
 *
 * <p>Not thread-safe: the transport calls it under the runtime's progress lock.
 */
final class RegistrationCache {

    /** Pins memory (ibv_reg_mr) with {@link Access} rights and unpins it. */
    interface Pinner {
        Pinned pin(MemorySegment segment, int access);
    }

    /** One pinned range. */
    interface Pinned {
        int lkey();

        int rkey();

        void unpin();
    }

    /** A cached pinned range and its users. */
    static final class Entry {
        final MemorySegment segment;
        final Pinned pinned;
        final long start;
        final long end;
        final int access;
        int users;
        boolean cached;

        Entry(MemorySegment segment, Pinned pinned, int access) {
            this.segment = segment;
            this.pinned = pinned;
            this.access = access;
            this.start = segment.address();
            this.end = start + segment.byteSize();
        }

        boolean alive() {
            return segment.scope().isAlive();
        }

        boolean covers(long address, long length) {
            return address >= start && address + length <= end;
        }

        boolean covers(long address, long length, int needed) {
            return covers(address, length) && Access.allows(access, needed);
        }
    }

    private static final MemorySegment.Scope GLOBAL = MemorySegment.NULL.scope();

    private final Pinner pinner;
    private final long bound;
    private final TreeMap<Long, Entry> byStart = new TreeMap<>();
    private final List<Entry> uncached = new ArrayList<>();
    private final LinkedHashSet<Entry> idle = new LinkedHashSet<>();
    private long idleBytes;
    private long pinnedBytes;
    private long hits;
    private long misses;
    private long evictions;
    private long invalidations;
    /**
     * The entry the last {@link #lkey} lookup found: a loop that posts from the same memory (an
     * atomic's result word, a staging buffer) finds it again without the tree walk (and the boxed
     * key it takes). Every entry that leaves the cache is unpinned first, which forgets it here.
     */
    private Entry lastFound;

    RegistrationCache(Pinner pinner, long bound) {
        this.pinner = pinner;
        this.bound = bound;
    }

    /** Registers {@code segment} (native) with every right, from the cache when possible. */
    MemoryRegistration register(MemorySegment segment) {
        return register(segment, Access.ALL);
    }

    /**
     * Registers {@code segment} (native) with the {@link Access} rights {@code access}, from the
     * cache when a live entry of the same memory grants at least those rights.
     */
    MemoryRegistration register(MemorySegment segment, int access) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("only native memory can be registered for RDMA");
        }
        Map.Entry<Long, Entry> floor = byStart.floorEntry(segment.address());
        Entry hit = floor == null ? null : floor.getValue();
        if (hit != null && !hit.alive()) {
            invalidate(hit);
            hit = null;
        }
        if (hit != null && hit.covers(segment.address(), segment.byteSize(), access)
                && hit.segment.scope().equals(segment.scope())) {
            hits++;
            if (hit.users++ == 0) {
                idle.remove(hit);
                idleBytes -= hit.end - hit.start;
            }
            return new Handle(hit, segment);
        }
        misses++;
        Pinned pinned;
        try {
            pinned = pinner.pin(segment, access);
        } catch (RuntimeException e) {
            // The device may be out of pinnable memory (the locked-memory limit, say): memory
            // kept pinned only for the cache's sake goes first, then one more try.
            if (dropIdle() == 0) {
                throw e;
            }
            pinned = pinner.pin(segment, access);
        }
        Entry entry = new Entry(segment, pinned, access);
        pinnedBytes += entry.end - entry.start;
        entry.users = 1;
        if (segment.scope().equals(GLOBAL)) {
            uncached.add(entry);
            return new Handle(entry, segment);
        }
        Entry sameStart = byStart.get(entry.start);
        if (sameStart == null || sameStart.users == 0) {
            if (sameStart != null) {
                idle.remove(sameStart);
                idleBytes -= sameStart.end - sameStart.start;
                unpin(sameStart);
                evictions++;
            }
            entry.cached = true;
            byStart.put(entry.start, entry);
        } else {
            uncached.add(entry);
        }
        return new Handle(entry, segment);
    }

    /** The local key of registered memory that contains [address, address + length), or -1. */
    int lkey(long address, long length) {
        return lkey(address, length, 0);
    }

    /**
     * The local key of registered memory that contains [address, address + length) with at least
     * the {@link Access} rights {@code needed} (LOCAL_WRITE for the target of a read or atomic),
     * or -1.
     */
    int lkey(long address, long length, int needed) {
        Entry e = find(address, length, needed);
        return e == null ? -1 : e.pinned.lkey();
    }

    private Entry find(long address, long length, int needed) {
        Entry last = lastFound;
        if (last != null && last.covers(address, length, needed)) {
            return last;
        }
        Entry e = search(address, length, needed);
        if (e != null) {
            lastFound = e;
        }
        return e;
    }

    private Entry search(long address, long length, int needed) {
        Map.Entry<Long, Entry> floor = byStart.floorEntry(address);
        if (floor != null && floor.getValue().covers(address, length, needed)) {
            return floor.getValue();
        }
        for (Entry e : byStart.headMap(address, true).descendingMap().values()) {
            if (e.covers(address, length, needed)) {
                return e;
            }
        }
        for (int i = 0, n = uncached.size(); i < n; i++) {
            if (uncached.get(i).covers(address, length, needed)) {
                return uncached.get(i);
            }
        }
        return null;
    }

    private void release(Entry entry) {
        if (--entry.users > 0) {
            return;
        }
        if (!entry.cached || !entry.alive()) {
            if (entry.cached) {
                byStart.remove(entry.start);
                invalidations++;
            } else {
                uncached.remove(entry);
            }
            unpin(entry);
            return;
        }
        idle.add(entry);
        idleBytes += entry.end - entry.start;
        trim();
    }

    /** Unpins idle entries, oldest first, until the idle bytes fit the bound; drops dead ones. */
    void trim() {
        Iterator<Entry> it = idle.iterator();
        while (it.hasNext()) {
            Entry e = it.next();
            boolean dead = !e.alive();
            if (!dead && idleBytes <= bound) {
                continue;
            }
            it.remove();
            idleBytes -= e.end - e.start;
            byStart.remove(e.start);
            unpin(e);
            if (dead) {
                invalidations++;
            } else {
                evictions++;
            }
        }
    }

    /** Unpins every idle entry (no user holds it); returns how many. */
    int dropIdle() {
        int dropped = 0;
        for (Iterator<Entry> it = idle.iterator(); it.hasNext(); ) {
            Entry e = it.next();
            it.remove();
            idleBytes -= e.end - e.start;
            byStart.remove(e.start);
            unpin(e);
            evictions++;
            dropped++;
        }
        return dropped;
    }

    private void invalidate(Entry e) {
        invalidations++;
        byStart.remove(e.start);
        e.cached = false;
        if (e.users == 0) {
            idle.remove(e);
            idleBytes -= e.end - e.start;
            unpin(e);
        } else {
            uncached.add(e);
        }
    }

    private void unpin(Entry e) {
        if (lastFound == e) {
            lastFound = null;
        }
        pinnedBytes -= e.end - e.start;
        e.pinned.unpin();
    }

    /** Unpins everything (transport close). */
    void clear() {
        lastFound = null;
        for (Entry e : byStart.values()) {
            e.pinned.unpin();
        }
        for (Entry e : uncached) {
            e.pinned.unpin();
        }
        byStart.clear();
        uncached.clear();
        idle.clear();
        idleBytes = 0;
        pinnedBytes = 0;
    }

    long hits() {
        return hits;
    }

    long misses() {
        return misses;
    }

    long evictions() {
        return evictions;
    }

    long invalidations() {
        return invalidations;
    }

    long pinnedBytes() {
        return pinnedBytes;
    }

    long idleBytes() {
        return idleBytes;
    }

    /** What one {@link #register} call returned; closing it twice is harmless. */
    private final class Handle implements MemoryRegistration {
        private final Entry entry;
        private final MemorySegment segment;
        /** The key as a number stays readable after close (a peer may be told a dead key). */
        private final long remoteKey;
        private boolean closed;

        Handle(Entry entry, MemorySegment segment) {
            this.entry = entry;
            this.segment = segment;
            this.remoteKey = Integer.toUnsignedLong(entry.pinned.rkey());
        }

        @Override
        public MemorySegment segment() {
            return segment;
        }

        @Override
        public long remoteKey() {
            return remoteKey;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                release(entry);
            }
        }
    }
}
