package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.ext.Retryable;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.PostStatus;

/**
 * Puts and gets as RDMA writes and reads ({@link RdmaTargets}): the target's CPU takes no part.
 * Origin and result memory must be native (heap memory takes the two-sided path); as the
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

    private final Window w;
    /** Direct operations not yet complete locally, per target. */
    final int[] outstanding;
    /** Writes completed or in flight since the last flush, on transports that need one. */
    private final boolean[] unflushed;

    DirectOps(Window w) {
        this.w = w;
        this.outstanding = new int[w.size];
        this.unflushed = new boolean[w.size];
    }

    /** True when {@link #issue} takes {@code h} (the same answer at issue and at counting). */
    boolean takes(HeldOp h) {
        RdmaTargets r = w.rdma;
        if (r == null || !r.usable[h.target()] || h.bytes() < w.settings.rdmaThreshold()
                || h.layout() != null) {
            return false;
        }
        return switch (h.kind()) {
            case PUT -> RdmaTargets.nativeMemory(h.origin()) && h.bytes() > 0;
            case GET -> RdmaTargets.nativeMemory(h.result()) && h.bytes() > 0;
            default -> false;
        };
    }

    /** True when {@code h}, taken by {@link #issue}, is counted at the target by its immediate. */
    boolean immediate(HeldOp h) {
        return h.kind() == HeldOp.Kind.PUT && w.fenceEpoch && w.fenceDesign == FenceDesign.IMM_RI
                && w.rdma.immediates(h.target());
    }

    /** Posts {@code h}, which {@link #takes} accepted. */
    void issue(HeldOp h) {
        int t = h.target();
        boolean put = h.kind() == HeldOp.Kind.PUT;
        MemorySegment local = put ? h.origin() : h.result();
        boolean imm = immediate(h);
        Endpoint ep = w.ctx.endpoint(w.world[t]);
        long remote = w.rdma.address[t] + h.offset();
        long key = w.rdma.key[t];
        int immediate = IMMEDIATE_MARK | (w.id & ~IMMEDIATE_MASK);
        long[] wr = new long[1];
        wr[0] = w.ctx.dispatch().track((id, status) -> {
            w.ctx.dispatch().untrack(id);
            outstanding[t]--;
            if (status != CompletionStatus.OK) {
                int cls = status == CompletionStatus.REMOTE_ACCESS_ERROR ? ErrorClass.ERR_RMA_RANGE
                        : ErrorClass.ERR_OTHER;
                if (h.request() != null) {
                    h.request().failed(cls);
                }
                if (w.deferredError == 0) {
                    w.deferredError = cls;
                }
            } else if (h.request() != null) {
                h.request().arrived(h.bytes());
            }
        });
        outstanding[t]++;
        if (put && !w.rdma.placedOnCompletion(t) && !imm) {
            unflushed[t] = true;
        }
        if (imm) {
            w.channel(t).counted++;
        }
        w.ext.counters.rdma++;
        Retryable post = () -> {
            int rc;
            if (!put) {
                rc = ep.read(local, remote, key, wr[0]);
            } else if (imm) {
                rc = ep.writeWithImmediate(local, remote, key, immediate, wr[0]);
            } else {
                rc = ep.write(local, remote, key, wr[0]);
            }
            return rc == PostStatus.OK;
        };
        if (!post.retry()) {
            w.ctx.dispatch().pending(post);
        }
    }

    /** Waits until the direct operations to {@code t} are complete and their writes placed. */
    void complete(int t) {
        w.await(() -> outstanding[t] == 0);
        boolean flush;
        w.lock();
        try {
            flush = unflushed[t];
            unflushed[t] = false;
        } finally {
            w.unlock();
        }
        if (flush) {
            boolean[] done = {false};
            w.lock();
            try {
                Endpoint ep = w.ctx.endpoint(w.world[t]);
                long wr = w.ctx.dispatch().track((id, status) -> {
                    w.ctx.dispatch().untrack(id);
                    done[0] = true;
                });
                Retryable post = () -> ep.flush(wr) == PostStatus.OK;
                if (!post.retry()) {
                    w.ctx.dispatch().pending(post);
                }
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
