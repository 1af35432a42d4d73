package org.verbatim.onesided;

import java.util.LinkedHashMap;
import java.util.Map;
import org.verbatim.datatype.CommittedType;
import org.verbatim.datatype.LayoutCache;

/**
 * Target datatype layouts of one window on both sides: at the origin, which layouts each target
 * holds (by committed type id, so one is sent once); at the target, the layouts each origin sent
 * ({@link LayoutCache}, keyed by (origin, type id, version 0: a committed type never changes)).
 * Both are bounded, least recently used out first, with the same capacity, and both are touched
 * in the same order: the origin once per operation as it writes the operation's records, the
 * target as those records arrive (the channel keeps their order), so the origin's set is always
 * the target's and a layout the origin believes sent is never missing. Under the runtime's lock.
 */
final class LayoutsSent {
    static final int CAPACITY = 64;

    private final Map<Long, Boolean>[] sent;
    private final LayoutCache[] received;

    @SuppressWarnings("unchecked")
    LayoutsSent(int size) {
        this.sent = new Map[size];
        this.received = new LayoutCache[size];
    }

    /** Origin: true when {@code target} holds layout {@code id}; else records it as sent now. */
    boolean touch(int target, long id) {
        Map<Long, Boolean> m = sent[target];
        if (m == null) {
            m = new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, Boolean> e) {
                    return size() > CAPACITY;
                }
            };
            sent[target] = m;
        }
        return m.put(id, Boolean.TRUE) != null;
    }

    /** Target: keeps layout {@code id} from {@code origin}. */
    void received(int origin, long id, CommittedType type) {
        LayoutCache c = received[origin];
        if (c == null) {
            c = new LayoutCache(CAPACITY);
            received[origin] = c;
        }
        c.put(origin, id, 0, type);
    }

    /** Target: the layout {@code id} from {@code origin}, or null if it never came. */
    CommittedType find(int origin, long id) {
        LayoutCache c = received[origin];
        return c == null ? null : c.find(origin, id, 0);
    }
}
