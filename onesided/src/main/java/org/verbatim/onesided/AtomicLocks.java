package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;
import org.verbatim.runtime.ext.CompletionCallback;
import org.verbatim.runtime.ext.Retryable;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.PostStatus;

/**
 * Passive-target locks by atomics (as foMPI's and Open MPI osc/rdma's), for windows whose members
 * are not all mapped here: a member on another host takes and releases a member's lock with its
 * adapter's fetch-and-add and compare-and-swap, a member on the same host (and the member itself)
 * with CPU atomics on a shared mapping of the lock segment, so passive target needs nothing from
 * the target process. The words and the claims are {@link LockWords}'s; which members may use them
 * and the segments' exchange are {@link AtomicLockPlan}'s. Unlock completes the epoch first (RDMA
 * completed and flushed, records acknowledged by the target: see {@link PassiveTarget}), then
 * releases with one atomic, which a remote release posts without waiting for.
 */
final class AtomicLocks implements AutoCloseable {
    /** Backoff between attempts: from 1 us, doubling, at most this (bounded). */
    private static final long MAX_BACKOFF_NANOS = 200_000;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final Window w;
    private final AtomicLockPlan plan;
    private long pauseUntil;
    private final BooleanSupplier paused = () -> System.nanoTime() - pauseUntil >= 0;
    private final LockWords.Pause pause = this::pause;
    /** Per member: its lock segment as mapped here (this member, same-host members), or null. */
    private final MemorySegment[] host;
    /** Per member on another host: the adapter's way to its words (null for the others). */
    private final Peer[] peers;

    private AtomicLocks(Window w, AtomicLockPlan plan) {
        this.w = w;
        this.plan = plan;
        this.host = plan.host();
        this.peers = new Peer[w.size];
        MemorySegment mine = plan.segment();
        for (int t = 0; t < w.size; t++) {
            if (host[t] == null) {
                long slot = LockWords.slot(t);
                peers[t] = new Peer(new Remote(t, mine.asSlice(slot, 8)),
                        new Remote(t, mine.asSlice(slot + 8, 8)),
                        new Remote(t, mine.asSlice(slot + 16, 8)));
            }
        }
    }

    static AtomicLocks of(Window w, AtomicLockPlan plan) {
        return plan == null ? null : new AtomicLocks(w, plan);
    }

    /** True when member {@code t}'s lock is taken by CPU atomics from here (same host). */
    boolean onHost(int t) {
        return host[t] != null;
    }

    // ------------------------------------------------------------------ acquire

    void acquire(int t, boolean exclusive) {
        if (host[t] != null) {
            if (exclusive) {
                LockWords.hostExclusive(host[t], pause);
            } else {
                LockWords.hostShared(host[t], pause);
            }
        } else if (exclusive) {
            LockWords.remoteExclusive(peers[t], pause);
        } else {
            LockWords.remoteShared(peers[t], pause);
        }
    }

    void release(int t, boolean exclusive) {
        if (host[t] != null) {
            LockWords.hostRelease(host[t], exclusive);
        } else {
            peers[t].postRelease(LockWords.releaseDelta(exclusive));
        }
    }

    /**
     * Waits for the releases still in flight (before the window's registrations go): a remote
     * release is posted and not awaited, the next operation on that peer's word waits for it.
     */
    void drain() {
        for (Peer peer : peers) {
            if (peer != null) {
                peer.settle();
            }
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

    /** A member on another host: its remote word by atomics, its host word by reads behind them. */
    private static final class Peer implements LockWords.RemotePath {
        private final Remote atomic;
        private final Remote read;
        private final Remote release;
        private long hostRead;
        /** True while a release is posted and its completion not yet taken. */
        private boolean releasing;

        Peer(Remote atomic, Remote read, Remote release) {
            this.atomic = atomic;
            this.read = read;
            this.release = release;
        }

        /**
         * Posts the release and returns without waiting: the epoch is complete at the target
         * already (unlock completed its writes and reads, and records were acknowledged), and this
         * member's next claim on the peer is posted behind it on the same connection, which
         * executes them in order. Saves each epoch one round trip; a failure of the release is
         * raised by the next release to the peer or by the window's free.
         */
        void postRelease(long add) {
            settle();
            release.start(Remote.FETCH_ADD, add, 0);
            releasing = true;
        }

        /** Takes the completion of a release still in flight. */
        void settle() {
            if (releasing) {
                releasing = false;
                release.finish();
            }
        }

        @Override
        public long atomicThenRead(int op, long a, long b) {
            atomic.start(op == FETCH_ADD ? Remote.FETCH_ADD : Remote.COMPARE_SWAP, a, b);
            read.start(Remote.READ, 0, 0); // executed at the target after the atomic
            long old = atomic.finish();
            hostRead = read.finish();
            return old;
        }

        @Override
        public long hostRead() {
            return hostRead;
        }

        @Override
        public long fetchAndAdd(long add) {
            return atomic.run(Remote.FETCH_ADD, add, 0);
        }

        @Override
        public long readHost() {
            hostRead = read.run(Remote.READ, 0, 0);
            return hostRead;
        }
    }

    // ------------------------------------------------------------------ remote operations

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
            long k = plan.key()[t];
            long at = plan.address()[t];
            int rc = switch (kind) {
                case FETCH_ADD -> ep.fetchAndAdd(result, at + LockWords.REMOTE, k, first, wr);
                case COMPARE_SWAP -> ep.compareAndSwap(result, at + LockWords.REMOTE, k, first,
                        second, wr);
                default -> ep.read(result, at + LockWords.HOST, k, wr);
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
        plan.close();
    }
}
