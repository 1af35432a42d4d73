package org.verbatim.datatype;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Peers' layouts that arrived flattened, kept by (rank, type id, version) so that a layout is
 * sent once (the datatype paper's Multi-W caches the receiver's type this way). Bounded, least
 * recently used out first. Not thread-safe: the runtime uses it under its lock.
 */
public final class LayoutCache {
    private record Key(int rank, long typeId, int version) {
    }

    private final Map<Key, CommittedType> map;

    public LayoutCache(int capacity) {
        this.map = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, CommittedType> e) {
                return size() > capacity;
            }
        };
    }

    /** The cached layout, or null when it must be asked for. */
    public CommittedType find(int rank, long typeId, int version) {
        return map.get(new Key(rank, typeId, version));
    }

    public void put(int rank, long typeId, int version, CommittedType type) {
        map.put(new Key(rank, typeId, version), type);
    }

    /** Forgets every layout of {@code rank} (the peer is gone, or freed its types). */
    public void forget(int rank) {
        map.keySet().removeIf(k -> k.rank() == rank);
    }

    public int size() {
        return map.size();
    }
}
