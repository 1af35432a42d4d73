package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.*;

import java.lang.foreign.MemorySegment;
import org.verbatim.spi.Access;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.verbs.MemoryRegion;
import org.verbatim.verbs.ProtectionDomain;
import org.verbatim.verbs.VerbsException;

/**
 * Memory registration of one engine: the {@link RegistrationCache} over {@code ibv_reg_mr} in its
 * protection domain, with {@link Access} rights mapped to {@code ibv_access_flags}, and the local
 * keys its one-sided operations look up.
 */
final class Registrations {
    private final ProtectionDomain pd;
    private final boolean atomics;
    private final RegistrationCache cache;
    private final String where;
    private static final int ENOMEM = 12;

    Registrations(ProtectionDomain pd, boolean atomics, long bound, String where) {
        this.pd = pd;
        this.where = where;
        this.atomics = atomics;
        this.cache = new RegistrationCache(this::pin, bound);
    }

    /**
     * The {@code IBV_ACCESS_*} flags of {@link Access} rights: remote write and remote atomic
     * also need local write (verbs refuses them without), and remote atomic is dropped on a
     * device without atomics (nothing could use it there).
     */
    static int ibvAccess(int access, boolean atomics) {
        int flags = 0;
        if ((access & (Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_ATOMIC)) != 0) {
            flags |= IBV_ACCESS_LOCAL_WRITE;
        }
        if ((access & Access.REMOTE_WRITE) != 0) {
            flags |= IBV_ACCESS_REMOTE_WRITE;
        }
        if ((access & Access.REMOTE_READ) != 0) {
            flags |= IBV_ACCESS_REMOTE_READ;
        }
        if ((access & Access.REMOTE_ATOMIC) != 0 && atomics) {
            flags |= IBV_ACCESS_REMOTE_ATOMIC;
        }
        return flags;
    }

    MemoryRegistration register(MemorySegment segment, int access) {
        return cache.register(segment, access);
    }

    private RegistrationCache.Pinned pin(MemorySegment segment, int access) {
        MemoryRegion mr;
        try {
            mr = pd.register(segment, ibvAccess(access, atomics));
        } catch (VerbsException e) {
            if (e.errno() != ENOMEM) {
                throw e;
            }
            throw new IllegalStateException("ibv_reg_mr of " + segment.byteSize() + " bytes on " + where
                    + " failed with ENOMEM: no more memory may be pinned. " + LockedMemory.describe(), e);
        }
        return new RegistrationCache.Pinned() {
            @Override
            public int lkey() {
                return mr.lkey();
            }

            @Override
            public int rkey() {
                return mr.rkey();
            }

            @Override
            public void unpin() {
                mr.close();
            }
        };
    }

    /** The lkey of registered memory covering the range with the rights {@code needed}, or -1. */
    int lkey(long address, long length, int needed) {
        return cache.lkey(address, length, needed);
    }

    /** Hits, misses, evictions, invalidations, pinned bytes. */
    long[] counters() {
        return new long[] {cache.hits(), cache.misses(), cache.evictions(), cache.invalidations(),
                cache.pinnedBytes()};
    }

    long hits() {
        return cache.hits();
    }

    long misses() {
        return cache.misses();
    }

    long evictions() {
        return cache.evictions();
    }

    long invalidations() {
        return cache.invalidations();
    }

    void clear() {
        cache.clear();
    }
}
