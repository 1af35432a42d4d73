package org.verbatim.datatype;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Peers' layouts that arrived flattened, kept by (rank, type id, version) so that a layout is
 * sent once (the datatype paper's Multi-W caches the receiver's type this way). Bounded per
 * rank, least recently used out first.
 *
 * <p>Deterministic, so that the side that sends layouts can keep a mirror of what the other side
 * holds: two caches of the same capacity that see the same sequence of {@link #find} hits and
 * {@link #put}s for a rank hold the same keys for it ({@link #contains} does not count as a use).
 * Type ids are process-unique and never reused ({@link CommittedType#id()}), so a freed type needs
 * no invalidation message: its id is never named again and its entry ages out; the version is
 * there for a sender whose ids would be reused. Not thread-safe: the runtime uses it under its
 * lock.
 */
public final class LayoutCache {
    private record Key(long typeId, int version) {
    }

    private final int capacity;
    private final Map<Integer, LinkedHashMap<Key, CommittedType>> byRank = new HashMap<>();

    /** At most {@code capacity} layouts per rank. */
    public LayoutCache(int capacity) {
        if (capacity <= 0) {
            throw DatatypeException.argument("layout cache capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    /** The cached layout (a use: it becomes the most recent), or null when it must be asked for. */
    public CommittedType find(int rank, long typeId, int version) {
        Map<Key, CommittedType> m = byRank.get(rank);
        return m == null ? null : m.get(new Key(typeId, version));
    }

    /** True if the layout is held; not a use (the LRU order does not change). */
    public boolean contains(int rank, long typeId, int version) {
        Map<Key, CommittedType> m = byRank.get(rank);
        return m != null && m.containsKey(new Key(typeId, version));
    }

    /** Keeps {@code type}, the least recently used layout of {@code rank} out if it is full. */
    public void put(int rank, long typeId, int version, CommittedType type) {
        byRank.computeIfAbsent(rank, r -> new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, CommittedType> e) {
                return size() > capacity;
            }
        }).put(new Key(typeId, version), type);
    }

    /** Forgets every layout of {@code rank} (the peer is gone, or freed its types). */
    public void forget(int rank) {
        byRank.remove(rank);
    }

    public int size() {
        int n = 0;
        for (Map<Key, CommittedType> m : byRank.values()) {
            n += m.size();
        }
        return n;
    }
}
