package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.IBV_ACCESS_LOCAL_WRITE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.ReentrantLock;
import org.verbatim.verbs.MemoryRegion;
import org.verbatim.verbs.ProtectionDomain;
import org.verbatim.verbs.QueuePair;
import org.verbatim.verbs.ReceiveRequest;
import org.verbatim.verbs.SharedReceiveQueue;

/**
 * The registered receive buffers of the send/receive channel, in slabs: the shared receive
 * queue's pool (owner -1) and, for ardma-sr, one slab per connection. A buffer's id, which is the
 * receive work request id, is {@code slab << 16 | index}.
 *
 * <p>Every buffer is posted again as soon as its message has been delivered, so "no free buffer"
 * is the normal state and the SRQ limit event means the receiver is behind: the async-event
 * thread then adds a slab (up to the configured maximum). Posting and growing share one lock.
 */
final class ReceiveBuffers {
    private static final int MAX_PER_SLAB = 1 << 16;

    private final ProtectionDomain pd;
    private final Arena arena;
    private final int bufferSize;
    private final ReentrantLock lock = new ReentrantLock();
    private final ReceiveRequest request;
    private volatile MemorySegment[] slabs = new MemorySegment[0];
    private volatile int[] lkeys = new int[0];
    private volatile int[] owners = new int[0];
    private int total;

    ReceiveBuffers(ProtectionDomain pd, Arena arena, int bufferSize) {
        this.pd = pd;
        this.arena = arena;
        this.bufferSize = bufferSize;
        this.request = new ReceiveRequest(arena, 1);
    }

    /** Adds a slab of {@code count} buffers owned by {@code owner} (-1: SRQ); returns its index. */
    int addSlab(int count, int owner) {
        if (count > MAX_PER_SLAB) {
            throw new IllegalArgumentException("at most " + MAX_PER_SLAB + " buffers per slab");
        }
        lock.lock();
        try {
            MemorySegment memory = arena.allocate((long) count * bufferSize, 4096);
            MemoryRegion mr = pd.register(memory, IBV_ACCESS_LOCAL_WRITE);
            int n = slabs.length;
            MemorySegment[] s = java.util.Arrays.copyOf(slabs, n + 1);
            int[] k = java.util.Arrays.copyOf(lkeys, n + 1);
            int[] o = java.util.Arrays.copyOf(owners, n + 1);
            s[n] = memory;
            k[n] = mr.lkey();
            o[n] = owner;
            lkeys = k;
            owners = o;
            slabs = s;
            total += count;
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** Posts every buffer of slab {@code slab}; returns the number that failed to post. */
    int postAll(int slab, SharedReceiveQueue srq, QueuePair qp) {
        int count = (int) (slabs[slab].byteSize() / bufferSize);
        int failed = 0;
        for (int i = 0; i < count; i++) {
            if (post((slab << 16) | i, srq, qp) != 0) {
                failed++;
            }
        }
        return failed;
    }

    /** Posts buffer {@code id} again, to the SRQ or to the connection's queue pair. */
    int post(long id, SharedReceiveQueue srq, QueuePair qp) {
        int slab = (int) (id >>> 16);
        int index = (int) (id & 0xFFFF);
        lock.lock();
        try {
            request.wrId(id).entry(0, slabs[slab].address() + (long) index * bufferSize, bufferSize, lkeys[slab]);
            return srq != null ? srq.post(request) : qp.post(request);
        } finally {
            lock.unlock();
        }
    }

    /** The slab memory holding buffer {@code id}. */
    MemorySegment slab(long id) {
        return slabs[(int) (id >>> 16)];
    }

    /** Offset of buffer {@code id} inside its slab. */
    long offset(long id) {
        return (id & 0xFFFF) * bufferSize;
    }

    int bufferSize() {
        return bufferSize;
    }

    /** Buffers in all slabs. */
    int total() {
        lock.lock();
        try {
            return total;
        } finally {
            lock.unlock();
        }
    }
}
