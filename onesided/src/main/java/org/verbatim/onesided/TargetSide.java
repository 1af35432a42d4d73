package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.verbatim.datatype.CommittedType;
import org.verbatim.datatype.DatatypeException;
import org.verbatim.datatype.FlatLayout;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.op.ElementKind;
import org.verbatim.runtime.op.OpCode;
import org.verbatim.runtime.op.Reduction;

/**
 * What a window does with the records that reach it, under the runtime's lock: applies data
 * operations to this process's memory (one record at a time, so accumulates from every origin are
 * element-atomic and those from one origin stay in order), answers gets, counts the
 * synchronisation records the epochs wait for, and runs the lock table. A record that falls
 * outside the memory (possible only for dynamic windows, whose ranges the origin cannot check) is
 * not applied; its origin learns MPI_ERR_RMA_RANGE from the reply or the next DONE.
 */
final class TargetSide {
    private static final ElementKind[] KINDS = ElementKind.values();
    private static final OpCode[] OPS = OpCode.values();

    private final Window w;
    /** Data records received since the last fence (fence counting). */
    int counted;
    /** FINISH and FLAG records received (fence designs). */
    int finishes;
    int flags;
    /** POST and COMPLETE records received per origin (PSCW). */
    final int[] posts;
    final int[] completes;
    /** An error to report to each origin with its next DONE. */
    private final int[] errors;
    private final LockTable locks = new LockTable();
    private final boolean[] touched;

    TargetSide(Window w) {
        this.w = w;
        this.posts = new int[w.size];
        this.completes = new int[w.size];
        this.errors = new int[w.size];
        this.touched = new boolean[w.size];
    }

    /** Handles every record of one message from group rank {@code src}. */
    void onMessage(int src, MemorySegment m, long from, long end) {
        long at = from;
        while (at < end) {
            at += record(src, m, at);
        }
        for (int r = 0; r < touched.length; r++) {
            if (touched[r]) {
                touched[r] = false;
                w.channels.get(r).flush();
            }
        }
    }

    /** Handles one record; returns its size. */
    private long record(int src, MemorySegment m, long at) {
        int type = RmaWire.type(m, at);
        long n = RmaWire.length(m, at);
        long disp = RmaWire.disp(m, at);
        long payload = at + RmaWire.RECORD_HEADER;
        if (RmaWire.counted(m, at)) {
            counted++;
        }
        if (type >= RmaWire.PUT && type <= RmaWire.GACC && RmaWire.layoutData(m, at)) {
            return layoutRecord(src, type, m, at, n, disp);
        }
        switch (type) {
            case RmaWire.PUT -> {
                MemorySegment to = range(src, disp, n);
                if (to != null) {
                    MemorySegment.copy(m, payload, to, 0, n);
                }
                return RmaWire.recordBytes(n);
            }
            case RmaWire.ACC -> {
                MemorySegment to = range(src, disp, n);
                if (to != null) {
                    combine(m, at, payload, to, n);
                }
                return RmaWire.recordBytes(n);
            }
            case RmaWire.GET -> {
                reply(src, m, at, range(src, disp, n), n, null);
                return RmaWire.recordBytes(0);
            }
            case RmaWire.GACC -> {
                boolean noOp = OPS[RmaWire.op(m, at)] == OpCode.NO_OP;
                MemorySegment to = range(src, disp, n);
                reply(src, m, at, to, n, to == null || noOp ? null : () -> combine(m, at, payload,
                        to, n));
                return RmaWire.recordBytes(noOp ? 0 : n);
            }
            case RmaWire.CAS -> {
                MemorySegment to = range(src, disp, n);
                reply(src, m, at, to, n, to == null ? null : () -> {
                    if (to.mismatch(m.asSlice(payload + n, n)) == -1) {
                        MemorySegment.copy(m, payload, to, 0, n);
                    }
                });
                return RmaWire.recordBytes(2 * n);
            }
            case RmaWire.REPLY -> {
                w.replies.onReply(src, RmaWire.token(m, at), disp, m, payload, n, RmaWire.aux(m, at));
                return RmaWire.recordBytes(n);
            }
            case RmaWire.LAYOUT -> {
                try {
                    w.layouts.received(src, disp, FlatLayout.read(m.asSlice(payload, n), 0).commit());
                } catch (DatatypeException e) {
                    throw w.ctx.fail("a target datatype layout from rank " + w.world[src]
                            + " is malformed: " + e.getMessage());
                }
                return RmaWire.recordBytes(n);
            }
            case RmaWire.FINISH -> finishes++;
            case RmaWire.FLAG -> flags++;
            case RmaWire.POST -> posts[src]++;
            case RmaWire.COMPLETE -> completes[src]++;
            case RmaWire.LOCK -> locks.request(src, RmaWire.aux(m, at) == RmaWire.LOCK_EXCLUSIVE,
                    this::granted);
            case RmaWire.LOCK_GRANTED -> w.granted[src] = true;
            case RmaWire.UNLOCK -> {
                if (!locks.release(src, this::granted)) {
                    throw w.ctx.fail("rank " + w.world[src] + " unlocked window " + w.id
                            + " on rank " + w.ctx.worldRank() + " without holding its lock");
                }
                done(src);
            }
            case RmaWire.FLUSH -> done(src);
            case RmaWire.DONE -> {
                w.doneReceived[src]++;
                int e = RmaWire.aux(m, at);
                if (e != 0 && w.deferredError == 0) {
                    w.deferredError = e;
                }
            }
            default -> throw w.ctx.fail("one-sided record of unknown type " + type + " from rank "
                    + w.world[src]);
        }
        return RmaWire.recordBytes(0);
    }

    /**
     * A data record whose target data follows a layout the origin sent before: the piece's
     * packed bytes are scattered to (or gathered from, combined with) the memory the layout
     * touches, all of which must lie in this process's window or nothing is done.
     */
    private long layoutRecord(int src, int type, MemorySegment m, long at, long n, long disp) {
        long id = RmaWire.layoutId(m, at);
        long count = RmaWire.layoutCount(m, at);
        long from = RmaWire.layoutFrom(m, at);
        long data = at + RmaWire.RECORD_HEADER + RmaWire.LAYOUT_PREFIX;
        CommittedType t = w.layouts.find(src, id);
        if (t == null || count < 0 || from < 0 || n < 0 || from + n > t.size() * count) {
            throw w.ctx.fail("one-sided record from rank " + w.world[src] + " names layout " + id
                    + (t == null ? ", which it never sent" : " with bytes outside its data"));
        }
        TargetLayout l = new TargetLayout(t, count, t.shape(count).highest(), 0);
        MemorySegment to = range(src, disp, l.span());
        boolean noOp = OPS[RmaWire.op(m, at)] == OpCode.NO_OP;
        switch (type) {
            case RmaWire.PUT -> {
                if (to != null) {
                    l.scatter(m, data, to, from, n);
                }
            }
            case RmaWire.ACC -> {
                if (to != null) {
                    l.combine(OPS[RmaWire.op(m, at)], KINDS[RmaWire.elem(m, at)], m, data, to,
                            from, n);
                }
            }
            default -> { // GET, GACC: the old bytes back, then the update
                Channel c = w.channels.get(src);
                if (RmaWire.recordBytes(n) + RmaWire.MESSAGE_HEADER > c.outbox().byteSize()) {
                    throw w.ctx.fail("one-sided reply of " + n + " B does not fit a message to "
                            + "rank " + w.world[src]);
                }
                long r = c.reserve(to == null ? 0 : n);
                RmaWire.writeHeader(c.outbox(), r, RmaWire.REPLY, 0, 0, w.id,
                        RmaWire.token(m, at), to == null ? ErrorClass.ERR_RMA_RANGE : 0,
                        RmaWire.aux(m, at), to == null ? 0 : n);
                if (to != null) {
                    l.gather(to, from, n, c.outbox(), r + RmaWire.RECORD_HEADER);
                    if (type == RmaWire.GACC) {
                        l.combine(OPS[RmaWire.op(m, at)], KINDS[RmaWire.elem(m, at)], m, data, to,
                                from, n);
                    }
                }
                touched[src] = true;
            }
        }
        boolean carries = type == RmaWire.PUT || type == RmaWire.ACC
                || (type == RmaWire.GACC && !noOp);
        return RmaWire.recordBytes(RmaWire.LAYOUT_PREFIX + (carries ? n : 0));
    }

    private MemorySegment range(int src, long disp, long n) {
        MemorySegment to = w.memory.localRange(disp, n);
        if (to == null) {
            errors[src] = ErrorClass.ERR_RMA_RANGE;
        }
        return to;
    }

    private static void combine(MemorySegment m, long at, long payload, MemorySegment to, long n) {
        OpCode op = OPS[RmaWire.op(m, at)];
        ElementKind kind = KINDS[RmaWire.elem(m, at)];
        long count = n / kind.size();
        Reduction.reduce(op, kind, m, payload, to, 0, count);
    }

    /** Answers a get-like record with the bytes of {@code from} before {@code update} runs. */
    private void reply(int src, MemorySegment m, long at, MemorySegment from, long n,
                       Runnable update) {
        Channel c = w.channels.get(src);
        if (RmaWire.recordBytes(n) + RmaWire.MESSAGE_HEADER > c.outbox().byteSize()) {
            throw w.ctx.fail("one-sided reply of " + n + " B does not fit a message to rank "
                    + w.world[src]);
        }
        long r = c.reserve(from == null ? 0 : n);
        RmaWire.writeHeader(c.outbox(), r, RmaWire.REPLY, 0, 0, w.id, RmaWire.token(m, at),
                from == null ? ErrorClass.ERR_RMA_RANGE : 0, RmaWire.aux(m, at),
                from == null ? 0 : n);
        if (from != null) {
            MemorySegment.copy(from, 0, c.outbox(), r + RmaWire.RECORD_HEADER, n);
            if (update != null) {
                update.run();
            }
        }
        touched[src] = true;
    }

    private void granted(int origin) {
        Channel c = w.channels.get(origin);
        long at = c.reserve(0);
        RmaWire.writeHeader(c.outbox(), at, RmaWire.LOCK_GRANTED, 0, 0, w.id, 0, 0, 0, 0);
        touched[origin] = true;
    }

    private void done(int src) {
        Channel c = w.channels.get(src);
        long at = c.reserve(0);
        RmaWire.writeHeader(c.outbox(), at, RmaWire.DONE, 0, 0, w.id, 0, errors[src], 0, 0);
        errors[src] = 0;
        touched[src] = true;
    }

    boolean idle() {
        return locks.idle() && Arrays.stream(posts).allMatch(x -> x == 0);
    }
}
