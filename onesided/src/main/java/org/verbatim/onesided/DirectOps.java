package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.ext.CompletionCallback;
import org.verbatim.runtime.ext.Retryable;
import org.verbatim.datatype.MessageShape;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.WorkList;

/**
 * Puts and gets as RDMA writes and reads ({@link RdmaTargets}): the target's CPU takes no part.
 * A derived target datatype is walked here, one write or read per block of its layout.
 * Origin and result memory must be native (heap memory takes the two-sided path, except in lock
 * epochs of windows locked by remote atomics, where it is staged: {@link RdmaStaging}); as the
 * rendezvous reads do, the local side is passed as it is (the transport resolves its own local
 * keys, through its registration cache on verbs). In a Fence-Imm-RI epoch a put is
 * a write with immediate, which the target counts where it lands. Before a synchronisation
 * record tells a target that an epoch's operations are done, {@link #complete} waits for their
 * local completion and, where a completed write is not yet known to be placed, a flush.
 * Runs under the runtime's lock, except {@link #complete} and {@link #completeAll}.
 */
final class DirectOps {
    /** Immediates of the one-sided module: bit 30 set (bit 31 is RPUT's), low 30 bits the window. */
    static final int IMMEDIATE_MARK = 0x4000_0000;
    static final int IMMEDIATE_MASK = 0xC000_0000;
    /** Most blocks of a target layout posted as RDMA (more go as records). */
    static final long MAX_BLOCKS = 4096;

    private final Window w;
    /** Direct operations not yet complete locally, per target. */
    final int[] outstanding;
    /** Writes completed or in flight since the last flush, on transports that need one. */
    private final boolean[] unflushed;
    /** Native memory for heap origins and results in lock epochs of atomic-lock windows. */
    private final RdmaStaging staging = new RdmaStaging();
    /** Contiguous writes and reads, reused ({@link Op}). */
    private final OpPool ops = new OpPool();
    /** Per target: its direct operations are complete locally (taken under the runtime's lock). */
    private final BooleanSupplier[] drained;

    DirectOps(Window w) {
        this.w = w;
        this.outstanding = new int[w.size];
        this.unflushed = new boolean[w.size];
        this.drained = new BooleanSupplier[w.size];
        for (int t = 0; t < w.size; t++) {
            int target = t;
            drained[t] = () -> {
                w.ctx.lockRuntime();
                try {
                    return outstanding[target] == 0;
                } finally {
                    w.ctx.unlockRuntime();
                }
            };
        }
    }

    /**
     * True when {@link #issue} takes {@code h} (the same answer at issue and at counting): puts
     * and gets of native memory to a member reached by native RDMA, from
     * {@code verbatim.rma.rdma-threshold} on, or of any size in a lock epoch of a window locked by
     * remote atomics ({@link #everySize}); a target layout when its blocks are not too many (and,
     * outside such epochs, not smaller than the threshold on average).
     */
    boolean takes(HeldOp h) {
        RdmaTargets r = w.rdma;
        if (r == null || !r.usable[h.target()] || h.bytes() <= 0) {
            return false;
        }
        long threshold = everySize(h.target()) ? 1 : w.settings.rdmaThreshold();
        if (h.bytes() < threshold) {
            return false;
        }
        TargetLayout l = h.layout();
        if (l != null) {
            // one write or read per block: worth it when blocks are large (and not too many)
            long blocks = l.type().blockCount() * l.count();
            if (blocks > MAX_BLOCKS || h.bytes() / Math.max(1, blocks) < threshold) {
                return false;
            }
        }
        boolean stage = threshold == 1;
        return switch (h.kind()) {
            case PUT -> local(h.origin(), h.bytes(), stage);
            case GET -> local(h.result(), h.bytes(), stage);
            default -> false;
        };
    }

    /** Native memory, or heap memory that fits {@link #staging} when {@code stage}. */
    private boolean local(MemorySegment m, long bytes, boolean stage) {
        return RdmaTargets.nativeMemory(m) || (stage && m != null && staging.fits(bytes, idle()));
    }

    /**
     * The local side of {@code h}'s write or read: its own memory when native, else a piece of
     * {@link #staging} (holding the origin's bytes for a put; a get's completion copies out).
     */
    private MemorySegment localSide(HeldOp h, boolean put) {
        MemorySegment m = put ? h.origin() : h.result();
        if (m.isNative()) {
            return m;
        }
        staging.registerWith(w.ctx.transport(w.world[h.target()]));
        MemorySegment piece = staging.take(h.bytes(), idle());
        if (put) {
            MemorySegment.copy(m, 0, piece, 0, h.bytes());
        }
        return piece;
    }

    /** A get read into staging: its bytes to the result memory (before the request completes). */
    private static void copyOut(HeldOp h, MemorySegment local) {
        if (h.kind() == HeldOp.Kind.GET && local != h.result()) {
            MemorySegment.copy(local, 0, h.result(), 0, h.bytes());
        }
    }

    void close() {
        staging.close();
    }

    /**
     * True when every put and get to {@code t} goes by RDMA whatever its size: a lock or lockAll
     * epoch on a window locked by remote atomics, with {@code verbatim.rma.lock-rdma} on. A record there would make unlock send FLUSH and
     * wait for a DONE that only comes when the target calls MPI; by RDMA alone the epoch needs
     * nothing from the target (small writes go inline where the device allows).
     */
    boolean everySize(int t) {
        return w.settings.lockRdma() && w.locks != null && w.epochs.passive(t);
    }

    /** True when {@code h}, taken by {@link #issue}, is counted at the target by its immediate. */
    boolean immediate(HeldOp h) {
        return h.kind() == HeldOp.Kind.PUT && w.epochs.fenceEpoch
                && w.fenceDesign == FenceDesign.IMM_RI && w.rdma.immediates(h.target());
    }

    /** Posts {@code h}, which {@link #takes} accepted. */
    void issue(HeldOp h) {
        if (h.layout() != null) {
            issueBlocks(h);
            return;
        }
        int t = h.target();
        boolean put = h.kind() == HeldOp.Kind.PUT;
        MemorySegment local = localSide(h, put);
        boolean imm = immediate(h);
        Op op = ops.take();
        op.start(h, t, put, imm, local);
        outstanding[t]++;
        if (put && !w.rdma.placedOnCompletion(t) && !imm) {
            unflushed[t] = true;
        }
        if (imm) {
            w.channels.get(t).counted++;
        }
        w.ext.counters.rdma++;
        post(t, op);
    }

    /**
     * Posts now, unless something is queued for the target already: then behind it, so that
     * one origin's writes and reads reach the queue pair, which executes them at the target in
     * order, in the order they were issued (a get after a put to the same place, with the
     * scheduler off or a flush between them, reads what the put wrote).
     */
    private void post(int t, Retryable post) {
        if (w.ctx.dispatch().pendingFor(w.world[t]) > 0 || !post.retry()) {
            w.ctx.dispatch().pending(post);
        }
    }

    /** A post kept in order behind what is queued for its peer. */
    private abstract static class Ordered implements Retryable {
        private final int peer;

        Ordered(int peer) {
            this.peer = peer;
        }

        @Override
        public int orderedPeer() {
            return peer;
        }
    }

    /**
     * One contiguous write or read in flight: its post (tried again from the pending queue while
     * the transport refuses it) and its completion. Taken from {@link #ops} at the post and given
     * back at the completion, after which nothing refers to it: a put or get by RDMA allocates
     * nothing once as many are in flight as have ever been.
     */
    private final class Op implements Retryable, CompletionCallback {
        private HeldOp h;
        private int target;
        private boolean put;
        private boolean imm;
        private MemorySegment local;
        private long wr;

        void start(HeldOp h, int target, boolean put, boolean imm, MemorySegment local) {
            this.h = h;
            this.target = target;
            this.put = put;
            this.imm = imm;
            this.local = local;
            this.wr = w.ctx.dispatch().track(this);
        }

        @Override
        public int orderedPeer() {
            return w.world[target];
        }

        @Override
        public boolean retry() {
            Endpoint ep = w.ctx.endpoint(w.world[target]);
            long remote = w.rdma.address[target] + h.offset();
            long key = w.rdma.key[target];
            int rc;
            if (!put) {
                rc = ep.read(local, remote, key, wr);
            } else if (imm) {
                rc = ep.writeWithImmediate(local, remote, key,
                        IMMEDIATE_MARK | (w.id & ~IMMEDIATE_MASK), wr);
            } else {
                rc = ep.write(local, remote, key, wr);
            }
            return rc == PostStatus.OK;
        }

        @Override
        public void onComplete(long id, int status) {
            w.ctx.dispatch().untrack(id);
            outstanding[target]--;
            HeldOp done = h;
            MemorySegment read = local;
            h = null;
            local = null;
            ops.give(this);
            if (status != CompletionStatus.OK) {
                int cls = failure(status);
                if (done.request() != null) {
                    done.request().failed(cls);
                }
            } else if (done.request() != null) {
                copyOut(done, read);
                done.request().arrived(done.bytes());
            }
        }
    }

    /** The free {@link Op}s (a stack; grows to the most in flight at once). */
    private final class OpPool {
        private Op[] free = new Op[8];
        private int count;

        Op take() {
            return count == 0 ? new Op() : free[--count];
        }

        void give(Op op) {
            if (count == free.length) {
                free = java.util.Arrays.copyOf(free, 2 * count);
            }
            free[count++] = op;
        }
    }

    /**
     * A put or get with a target layout: the origin walks the layout and posts one write (with
     * immediate in a Fence-Imm-RI epoch, each counted at the target) or read per block, from or
     * into the consecutive packed bytes, as one list ({@link Endpoint#postList}: one call where
     * the transport posts lists natively). The request completes when the last block has.
     */
    private void issueBlocks(HeldOp h) {
        int t = h.target();
        TargetLayout l = h.layout();
        boolean put = h.kind() == HeldOp.Kind.PUT;
        MemorySegment local = localSide(h, put);
        boolean imm = immediate(h);
        Endpoint ep = w.ctx.endpoint(w.world[t]);
        long remote = w.rdma.address[t] + h.offset();
        long key = w.rdma.key[t];
        int immediate = IMMEDIATE_MARK | (w.id & ~IMMEDIATE_MASK);
        MessageShape shape = l.type().shape(l.count());
        int blocks = (int) shape.blockCount();
        int[] left = {blocks};
        int[] failed = {0};
        CompletionCallback done = (id, status) -> {
            w.ctx.dispatch().untrack(id);
            outstanding[t]--;
            if (status != CompletionStatus.OK && failed[0] == 0) {
                failed[0] = failure(status);
            }
            if (--left[0] == 0 && h.request() != null) {
                if (failed[0] != 0) {
                    h.request().failed(failed[0]);
                } else {
                    copyOut(h, local);
                    h.request().arrived(h.bytes());
                }
            }
        };
        WorkList list = new WorkList(blocks);
        long packed = 0;
        for (int i = 0; i < blocks; i++) {
            long len = shape.blockLength(i);
            MemorySegment piece = local.asSlice(packed, len);
            long at = remote + shape.blockOffset(i);
            long wr = w.ctx.dispatch().track(done);
            if (!put) {
                list.read(piece, at, key, wr);
            } else if (imm) {
                list.writeWithImmediate(piece, at, key, immediate, wr);
                w.channels.get(t).counted++;
            } else {
                list.write(piece, at, key, wr);
            }
            packed += len;
        }
        outstanding[t] += blocks;
        if (put && !w.rdma.placedOnCompletion(t) && !imm) {
            unflushed[t] = true;
        }
        w.ext.counters.rdma++;
        int[] next = {0};
        post(t, new Ordered(w.world[t]) {
            @Override
            public boolean retry() {
                next[0] += ep.postList(list, next[0]);
                return next[0] == list.count();
            }
        });
    }

    /**
     * The error class of a failed RDMA completion (a refused access is out of the window's
     * range), kept as the window's deferred error if it is the first.
     */
    private int failure(int status) {
        int cls = status == CompletionStatus.REMOTE_ACCESS_ERROR ? ErrorClass.ERR_RMA_RANGE
                : ErrorClass.ERR_OTHER;
        if (w.deferredError == 0) {
            w.deferredError = cls;
        }
        return cls;
    }

    /** Waits until the direct operations to {@code t} are complete and their writes placed. */
    void complete(int t) {
        w.awaitLocking(drained[t]);
        boolean flush;
        w.lock();
        try {
            flush = unflushed[t];
            unflushed[t] = false;
        } finally {
            w.unlock();
        }
        if (flush) {
            // only where a completed write is not yet placed (not shm); may run in several
            // threads at once, so its state is its own
            boolean[] done = {false};
            w.lock();
            try {
                Endpoint ep = w.ctx.endpoint(w.world[t]);
                long wr = w.ctx.dispatch().track((id, status) -> {
                    w.ctx.dispatch().untrack(id);
                    done[0] = true;
                });
                post(t, new Ordered(w.world[t]) {
                    @Override
                    public boolean retry() {
                        return ep.flush(wr) == PostStatus.OK;
                    }
                });
            } finally {
                w.unlock();
            }
            w.await(() -> done[0]);
        }
    }

    void completeAll() {
        for (int t = 0; t < w.size; t++) {
            complete(t);
        }
    }

    boolean idle() {
        for (int n : outstanding) {
            if (n != 0) {
                return false;
            }
        }
        return true;
    }
}
