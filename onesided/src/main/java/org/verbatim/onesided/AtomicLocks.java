package org.verbatim.onesided;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.ext.CompletionCallback;
import org.verbatim.runtime.ext.ExtensionContext;
import org.verbatim.runtime.ext.Retryable;
import org.verbatim.runtime.rma.WindowGroup;
import org.verbatim.spi.Access;
import org.verbatim.spi.AtomicOp;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.Transport;

/**
 * Passive-target locks by remote atomics (as foMPI's and Open MPI osc/rdma's), for windows whose
 * members are not all mapped here but reach each other over transports with native atomics
 * (verbs): a peer takes and releases a member's lock with its adapter's fetch-and-add and
 * compare-and-swap, so passive target needs nothing from the target process.
 *
 * <p>Each member has a registered lock segment:
 * <pre>
 *   0              64             128                    128 + 16p
 *   +--------------+--------------+----------------------+
 *   | remote word  | local word   | per target t: atomic result (8 B), local word read (8 B)
 *   +--------------+--------------+----------------------+
 *   remote word (changed by the adapters' atomics only):
 *     bit 62 a peer holds it exclusively | bits 32..61 peers' writers waiting
 *     | bits 0..31 peers' readers
 *   local word (written by the member's own CPU only, read by peers by RDMA read):
 *     1 the member holds (or tries) its own lock shared, 2 exclusive, 4 its own writer waits
 * </pre>
 * A member reaches itself through the CPU, and a CPU atomic on a word is atomic against the
 * adapter's atomics only where the device reports IBV_ATOMIC_GLOB (Soft-RoCE reports
 * IBV_ATOMIC_HCA). So no word here is changed by both: the peers' claims are in the remote word
 * (adapter atomics only), the member's own claim in the local word (its CPU's stores only), and
 * the two sides exclude each other as Dekker's algorithm does: each publishes its claim, then reads
 * the other's word, and backs out on a conflict. A peer posts its read of the local word right
 * behind its atomic on the same queue pair, without waiting for the atomic's completion: a
 * reliable connection executes a queue pair's requests at the target in order (the guarantee a
 * flush by a zero-length read rests on), so the atomic has taken effect there before the read
 * runs, one round trip instead of two. The member's store is ordered before its load of the
 * remote word by a full fence; so of two conflicting claims at least one sees the other. Both may see each other
 * and back out; the bounded backoff and the priority rules make one of them win:
 * <ul>
 * <li>peers' writers announce themselves first; new readers (peers and the member) wait while
 * one is announced, so readers cannot starve a writer;</li>
 * <li>the member's own writer marks "waiting" in its local word, which new peer readers respect;
 * a peer writer that finds the member holding (shared or exclusive) gives its word back.</li>
 * </ul>
 * Unlock completes the epoch first (RDMA completed and flushed, records acknowledged by the
 * target: see {@link PassiveTarget}), then releases with one fetch-and-add (peers) or a fence and
 * a store (the member itself).
 */
final class AtomicLocks implements AutoCloseable {
    private static final long REMOTE = 0;
    private static final long LOCAL = 64;
    private static final long SLOTS = 128;
    private static final long EXCLUSIVE = 1L << 62;
    private static final long WRITER = 1L << 32;
    private static final long READERS = WRITER - 1;
    private static final long WRITERS = EXCLUSIVE - WRITER;
    static final long LOCAL_SHARED = 1;
    static final long LOCAL_EXCLUSIVE = 2;
    static final long LOCAL_WAITING = 4;
    /** Backoff between attempts: from 1 us, doubling, at most this (bounded). */
    private static final long MAX_BACKOFF_NANOS = 200_000;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final Window w;
    private final Arena arena;
    private final MemorySegment mine;
    private final Map<Transport, MemoryRegistration> registrations;
    private final long[] address;
    private final long[] key;
    private long pauseUntil;
    private final BooleanSupplier paused = () -> System.nanoTime() - pauseUntil >= 0;
    /** Per peer: the atomics on its lock segment's remote word (null for this member). */
    private final Remote[] remote;
    /** Per peer: the reads of its local word, posted behind an atomic (null for this member). */
    private final Remote[] reads;

    private AtomicLocks(Window w, Plan plan) {
        this.w = w;
        this.arena = plan.arena();
        this.mine = plan.segment();
        this.registrations = plan.registrations();
        this.address = plan.address();
        this.key = plan.key();
        this.remote = new Remote[w.size];
        this.reads = new Remote[w.size];
        for (int t = 0; t < w.size; t++) {
            remote[t] = t == w.me ? null : new Remote(t, mine.asSlice(SLOTS + 16L * t, 8));
            reads[t] = t == w.me ? null : new Remote(t, mine.asSlice(SLOTS + 16L * t + 8, 8));
        }
    }

    /** The lock mode a window uses, decided collectively at creation. */
    record Plan(Arena arena, Map<Transport, MemoryRegistration> registrations,
                MemorySegment segment, long[] address, long[] key) {
    }

    /**
     * Collective: decides whether the window's locks are remote atomics ({@code mode}: auto,
     * atomic or record, the same on every member) and exchanges the lock segments' addresses and
     * keys. Null when the window uses lock records; with {@code atomic}, a window some of whose
     * members cannot reach each other by native atomics is MPI_ERR_UNSUPPORTED_OPERATION on every
     * member.
     */
    static Plan exchange(ExtensionContext ctx, WindowGroup group, String mode) {
        if (mode.equals("record")) {
            return null;
        }
        int p = group.size();
        int me = group.rank();
        boolean able = true;
        for (int q = 0; q < p && able; q++) {
            able = q == me || nativeAtomics(ctx.transport(group.worldRank(q)).capabilities());
        }
        Map<Transport, MemoryRegistration> regs = new IdentityHashMap<>();
        MemorySegment segment = null;
        Arena arena = Arena.ofShared();
        long[] mine = new long[2 * p + 1];
        mine[0] = able ? 1 : 0;
        if (able) {
            segment = arena.allocate(SLOTS + 16L * p, 64);
            for (int q = 0; q < p; q++) {
                if (q == me) {
                    continue;
                }
                MemorySegment s = segment;
                MemoryRegistration reg = regs.computeIfAbsent(
                        ctx.transport(group.worldRank(q)), tr -> tr.register(s, Access.ALL));
                mine[1 + 2 * q] = reg.address();
                mine[2 + 2 * q] = reg.remoteKey();
            }
        }
        long[] all = group.allgather(mine);
        int stride = 2 * p + 1;
        boolean everyone = true;
        for (int r = 0; r < p; r++) {
            everyone &= all[r * stride] == 1;
        }
        if (!everyone) {
            regs.values().forEach(MemoryRegistration::close);
            arena.close();
            if (mode.equals("atomic")) {
                throw new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION, "verbatim.rma.lock=atomic,"
                        + " but not every pair of the window's members is reached over a transport"
                        + " with native remote atomics (ib); use auto or record");
            }
            return null;
        }
        long[] address = new long[p];
        long[] key = new long[p];
        for (int r = 0; r < p; r++) {
            if (r != me) {
                address[r] = all[r * stride + 1 + 2 * me];
                key[r] = all[r * stride + 2 + 2 * me];
            }
        }
        return new Plan(arena, regs, segment, address, key);
    }

    static AtomicLocks of(Window w, Plan plan) {
        return plan == null ? null : new AtomicLocks(w, plan);
    }

    static boolean nativeAtomics(Capabilities c) {
        return c.has(Capability.ATOMICS) && !c.has(Capability.ATOMICS_EMULATED)
                && c.atomics().contains(AtomicOp.FETCH_AND_ADD)
                && c.atomics().contains(AtomicOp.COMPARE_AND_SWAP)
                && c.has(Capability.RDMA_READ) && !c.has(Capability.RDMA_READ_EMULATED);
    }

    // ------------------------------------------------------------------ acquire

    void acquire(int t, boolean exclusive) {
        if (t == w.me) {
            if (exclusive) {
                acquireOwnExclusive();
            } else {
                acquireOwnShared();
            }
        } else if (exclusive) {
            acquireExclusive(t);
        } else {
            acquireShared(t);
        }
    }

    void release(int t, boolean exclusive) {
        if (t == w.me) {
            VarHandle.fullFence(); // the epoch's loads and stores before the release
            WORD.setVolatile(mine, LOCAL, 0L);
        } else {
            fetchAndAdd(t, exclusive ? -EXCLUSIVE : -1L);
        }
    }

    private void acquireShared(int t) {
        long backoff = 0;
        while (true) {
            remote[t].start(Remote.FETCH_ADD, 1L, 0);
            reads[t].start(Remote.READ, 0, 0);
            long old = remote[t].finish();
            long local = reads[t].finish();
            if ((old & (EXCLUSIVE | WRITERS)) == 0 && (local & (LOCAL_EXCLUSIVE | LOCAL_WAITING)) == 0) {
                return;
            }
            fetchAndAdd(t, -1L);
            // Claim again only once no peer writer is announced and the member neither holds
            // its own lock exclusively nor waits for it: a reader that claimed again after a
            // mere backoff kept the readers' count above zero most of the time when two peers
            // read, and the member's own writer (which needs a moment with no reader) starved.
            do {
                backoff = pause(backoff);
            } while ((fetchAndAdd(t, 0L) & (EXCLUSIVE | WRITERS)) != 0
                    || (readLocal(t) & (LOCAL_EXCLUSIVE | LOCAL_WAITING)) != 0);
        }
    }

    private void acquireExclusive(int t) {
        long v = fetchAndAdd(t, WRITER) + WRITER;
        long backoff = 0;
        while (true) {
            if ((v & (EXCLUSIVE | READERS)) == 0) {
                long desired = v - WRITER + EXCLUSIVE;
                remote[t].start(Remote.COMPARE_SWAP, v, desired);
                reads[t].start(Remote.READ, 0, 0); // used only if the swap succeeds
                long old = remote[t].finish();
                long local = reads[t].finish();
                if (old == v) {
                    if ((local & (LOCAL_SHARED | LOCAL_EXCLUSIVE)) == 0) {
                        return;
                    }
                    // the member itself holds its lock: give the word back, stay announced
                    v = fetchAndAdd(t, WRITER - EXCLUSIVE) + WRITER - EXCLUSIVE;
                    backoff = pause(backoff);
                    continue;
                }
                v = old;
                if ((v & (EXCLUSIVE | READERS)) == 0) {
                    continue; // only the writers' count moved: try again at once
                }
            }
            backoff = pause(backoff);
            v = fetchAndAdd(t, 0L);
        }
    }

    private void acquireOwnShared() {
        long backoff = 0;
        while (true) {
            while (((long) WORD.getVolatile(mine, REMOTE) & (EXCLUSIVE | WRITERS)) != 0) {
                backoff = pause(backoff);
            }
            WORD.setVolatile(mine, LOCAL, LOCAL_SHARED);
            VarHandle.fullFence();
            if (((long) WORD.getVolatile(mine, REMOTE) & (EXCLUSIVE | WRITERS)) == 0) {
                return;
            }
            WORD.setVolatile(mine, LOCAL, 0L);
        }
    }

    private void acquireOwnExclusive() {
        WORD.setVolatile(mine, LOCAL, LOCAL_WAITING);
        VarHandle.fullFence();
        long backoff = 0;
        while (true) {
            if (((long) WORD.getVolatile(mine, REMOTE) & (EXCLUSIVE | READERS)) == 0) {
                WORD.setVolatile(mine, LOCAL, LOCAL_EXCLUSIVE);
                VarHandle.fullFence();
                if (((long) WORD.getVolatile(mine, REMOTE) & (EXCLUSIVE | READERS)) == 0) {
                    return;
                }
                WORD.setVolatile(mine, LOCAL, LOCAL_WAITING);
                VarHandle.fullFence();
            }
            backoff = pause(backoff);
        }
    }

    /**
     * Waits {@code backoff} (1 us the first time, doubling up to {@link #MAX_BACKOFF_NANOS})
     * while making progress (a holder's epoch may need this process's), and returns the next.
     */
    private long pause(long backoff) {
        long next = backoff == 0 ? 1_000 : Math.min(2 * backoff, MAX_BACKOFF_NANOS);
        pauseUntil = System.nanoTime() + next;
        w.await(paused);
        return next;
    }

    // ------------------------------------------------------------------ remote operations

    private long fetchAndAdd(int t, long add) {
        return remote[t].run(Remote.FETCH_ADD, add, 0);
    }

    /** The local word of member {@code t}, by an RDMA read. */
    private long readLocal(int t) {
        return reads[t].run(Remote.READ, 0, 0);
    }

    /**
     * One operation at a time on one word of a peer's lock segment, built once per peer so that
     * an operation allocates nothing here: the post (retried from the dispatch's pending queue
     * when the queue pair is full, in order behind what is queued for that peer), its completion,
     * and the wait for it.
     */
    private final class Remote implements Retryable, CompletionCallback, BooleanSupplier {
        static final int FETCH_ADD = 0;
        static final int COMPARE_SWAP = 1;
        static final int READ = 2;
        private final int t;
        private final MemorySegment result;
        private int kind;
        private long first;
        private long second;
        private long wr;
        private Endpoint ep;
        /** The completion status, or -1 while the operation is outstanding. */
        private int status;

        /** {@code slot}: where the operation's result lands (8 bytes of this member's segment). */
        Remote(int t, MemorySegment slot) {
            this.t = t;
            this.result = slot;
        }

        /** Posts one operation and waits for its completion; a failure ends the job. */
        long run(int op, long a, long b) {
            start(op, a, b);
            return finish();
        }

        /**
         * Posts one operation, queued behind anything already queued for the peer (so a read
         * started after an atomic reaches the queue pair after it).
         */
        void start(int op, long a, long b) {
            w.lock();
            try {
                kind = op;
                first = a;
                second = b;
                status = -1;
                ep = w.ctx.endpoint(w.world[t]);
                wr = w.ctx.dispatch().track(this);
                if (w.ctx.dispatch().pendingFor(w.world[t]) > 0 || !retry()) {
                    w.ctx.dispatch().pending(this);
                }
            } finally {
                w.unlock();
            }
        }

        /** Waits for the operation {@link #start} posted; its result. A failure ends the job. */
        long finish() {
            w.await(this);
            if (status != CompletionStatus.OK) {
                throw w.ctx.fail("window " + w.id + ": a remote " + (kind == READ ? "read" : "atomic")
                        + " on the lock of rank " + t + " failed (completion status " + status + ")");
            }
            return (long) WORD.getVolatile(result, 0L);
        }

        @Override
        public int orderedPeer() {
            return w.world[t];
        }

        @Override
        public boolean retry() {
            long k = key[t];
            int rc = switch (kind) {
                case FETCH_ADD -> ep.fetchAndAdd(result, address[t] + REMOTE, k, first, wr);
                case COMPARE_SWAP -> ep.compareAndSwap(result, address[t] + REMOTE, k, first,
                        second, wr);
                default -> ep.read(result, address[t] + LOCAL, k, wr);
            };
            return rc == PostStatus.OK;
        }

        @Override
        public void onComplete(long id, int st) {
            w.ctx.dispatch().untrack(id);
            status = st;
        }

        @Override
        public boolean getAsBoolean() {
            return status >= 0;
        }
    }

    @Override
    public void close() {
        registrations.values().forEach(MemoryRegistration::close);
        registrations.clear();
        arena.close();
    }
}
