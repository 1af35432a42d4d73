package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import org.verbatim.datatype.FlatLayout;
import org.verbatim.runtime.rma.RmaWindow;
import org.verbatim.runtime.op.OpCode;
import org.verbatim.runtime.op.Reduction;

/**
 * Issues one operation on the path its target allows: window memory mapped in this process
 * (allocated windows of same-host ranks, and this process's own part) takes puts and gets as
 * plain copies, complete at once; everything else, and every accumulate (so that accumulates from
 * all origins are applied one at a time by the target, element-atomic), goes as records of the
 * two-sided path, cut into pieces of whole elements that fit one message. A derived target
 * datatype ({@link TargetLayout}) is walked here on mapped memory and sent to the target (once)
 * for records. Runs under the lock.
 */
final class Issuer {
    private final Window w;

    Issuer(Window w) {
        this.w = w;
    }

    void issue(HeldOp h) {
        int t = h.target();
        MemorySegment mapped = w.settings.directShared()
                && w.memory.flavor != RmaWindow.FLAVOR_DYNAMIC ? w.memory.mapped[t] : null;
        TargetLayout l = h.layout();
        if (mapped != null && h.kind() == HeldOp.Kind.PUT) {
            if (l == null) {
                MemorySegment.copy(h.origin(), 0, mapped, h.offset(), h.bytes());
            } else {
                l.scatter(h.origin(), 0, mapped.asSlice(h.offset(), l.span()), 0, h.bytes());
            }
            w.ext.counters.direct++;
            return;
        }
        if (mapped != null && h.kind() == HeldOp.Kind.GET) {
            if (l == null) {
                MemorySegment.copy(mapped, h.offset(), h.result(), 0, h.bytes());
            } else {
                l.gather(mapped.asSlice(h.offset(), l.span()), 0, h.bytes(), h.result(), 0);
            }
            h.request().arrived(h.bytes());
            w.ext.counters.direct++;
            return;
        }
        if (w.memory.allMapped) {
            atomically(h, mapped, w.memory.control[t]);
            return;
        }
        if (w.direct.takes(h)) {
            w.direct.issue(h);
            return;
        }
        Channel c = w.channels.get(t);
        w.ext.counters.recordOps++;
        w.recordsSinceSync[t]++;
        int token = h.kind().hasResult() ? w.replies.register(h.request()) : 0;
        int elem = h.elem().ordinal();
        int op = h.op().ordinal();
        if (l != null) {
            layoutRecords(h, c, token, elem, op);
            return;
        }
        if (h.kind() == HeldOp.Kind.CAS) {
            long n = h.bytes();
            long at = c.reserve(2 * n);
            RmaWire.writeHeader(c.outbox(), at, RmaWire.CAS, elem, op, w.id, token, 0,
                    h.offset(), n);
            MemorySegment.copy(h.origin(), 0, c.outbox(), at + RmaWire.RECORD_HEADER, n);
            MemorySegment.copy(h.compare(), 0, c.outbox(), at + RmaWire.RECORD_HEADER + n, n);
            counted(c, at);
            return;
        }
        boolean carriesData = carriesData(h);
        long chunk = c.maxPayload();
        long off = 0;
        do {
            long n = Math.min(chunk, h.bytes() - off);
            long at = c.reserve(carriesData ? n : 0);
            RmaWire.writeHeader(c.outbox(), at, h.kind().wire, elem, op, w.id, token, (int) off,
                    h.offset() + off, n);
            if (carriesData && n > 0) {
                MemorySegment.copy(h.origin(), off, c.outbox(), at + RmaWire.RECORD_HEADER, n);
            }
            counted(c, at);
            if (h.kind().hasResult() && off + n < h.bytes()) {
                w.replies.expect(h.request());
            }
            off += n;
        } while (off < h.bytes());
    }

    private static boolean carriesData(HeldOp h) {
        return h.kind() == HeldOp.Kind.PUT || h.kind() == HeldOp.Kind.ACC
                || (h.kind() == HeldOp.Kind.GACC && h.op() != OpCode.NO_OP);
    }

    /** Packed bytes per record of an operation with a target layout (whole elements). */
    private static long layoutChunk(Channel c) {
        return (c.maxPayload() - RmaWire.LAYOUT_PREFIX) & ~15L;
    }

    /**
     * An operation with a derived target type as records: the layout first, unless this target
     * has it already ({@link LayoutsSent}), then pieces of the packed data, each naming the
     * layout and where in the packed bytes it starts; the target walks the layout.
     */
    private void layoutRecords(HeldOp h, Channel c, int token, int elem, int op) {
        int t = h.target();
        TargetLayout l = h.layout();
        long id = l.type().id();
        if (!w.layouts.touch(t, id)) {
            FlatLayout flat = l.type().flatten();
            long n = flat.byteSize();
            long at = c.reserve(n);
            RmaWire.writeHeader(c.outbox(), at, RmaWire.LAYOUT, 0, 0, w.id, 0, 0, id, n);
            flat.writeTo(c.outbox(), at + RmaWire.RECORD_HEADER);
            w.ext.counters.layoutsSent++;
        }
        boolean carriesData = carriesData(h);
        long chunk = layoutChunk(c);
        long off = 0;
        do {
            long n = Math.min(chunk, h.bytes() - off);
            long at = c.reserve(RmaWire.LAYOUT_PREFIX + (carriesData ? n : 0));
            RmaWire.writeHeader(c.outbox(), at, h.kind().wire, elem, op, w.id, token, (int) off,
                    h.offset(), n);
            RmaWire.writeLayoutPrefix(c.outbox(), at, id, l.count(), off);
            if (carriesData) {
                MemorySegment.copy(h.origin(), off, c.outbox(), at + RmaWire.RECORD_HEADER
                        + RmaWire.LAYOUT_PREFIX, n);
            }
            counted(c, at);
            if (h.kind().hasResult() && off + n < h.bytes()) {
                w.replies.expect(h.request());
            }
            off += n;
        } while (off < h.bytes());
    }

    /**
     * Accumulate, get-accumulate and compare-and-swap on memory every member maps: applied here,
     * under the target's accumulate lock, which every origin takes for them (element-atomic, and
     * one origin's accumulates stay in order). The target does nothing.
     */
    private void atomically(HeldOp h, MemorySegment target, MemorySegment control) {
        long off = h.offset();
        long n = h.bytes();
        w.ext.counters.direct++;
        SharedControl.accumulating(control, () -> {
            TargetLayout l = h.layout();
            if (h.result() != null) {
                if (l == null) {
                    MemorySegment.copy(target, off, h.result(), 0, n);
                } else {
                    l.gather(target.asSlice(off, l.span()), 0, n, h.result(), 0);
                }
            }
            switch (h.kind()) {
                case CAS -> {
                    if (target.asSlice(off, n).mismatch(h.compare()) == -1) {
                        MemorySegment.copy(h.origin(), 0, target, off, n);
                    }
                }
                case ACC, GACC -> {
                    if (l != null) {
                        l.combine(h.op(), h.elem(), h.origin(), 0, target.asSlice(off, l.span()),
                                0, n);
                    } else if (h.op() != OpCode.NO_OP) {
                        Reduction.reduce(h.op(), h.elem(), h.origin(), 0, target, off,
                                n / h.elem().size());
                    }
                }
                default -> throw new AssertionError(h.kind());
            }
        });
        if (h.request() != null) {
            h.request().arrived(n);
        }
    }

    /** A data record of a fence epoch: the target counts it, and so does the channel. */
    private void counted(Channel c, long at) {
        if (w.epochs.fenceEpoch) {
            RmaWire.markFenced(c.outbox(), at);
            c.counted++;
        }
    }

    /** How many counted records {@link #issue} will write for {@code h} (Fence-Def's counts). */
    int pieces(HeldOp h) {
        int t = h.target();
        boolean mapped = w.settings.directShared() && w.memory.flavor != RmaWindow.FLAVOR_DYNAMIC
                && w.memory.mapped[t] != null;
        if (mapped && (w.memory.allMapped || h.kind() == HeldOp.Kind.PUT
                || h.kind() == HeldOp.Kind.GET)) {
            return 0;
        }
        if (w.direct.takes(h)) {
            return 0;
        }
        if (h.kind() == HeldOp.Kind.CAS || h.bytes() == 0) {
            return 1;
        }
        Channel c = w.channels.get(t);
        long chunk = h.layout() != null ? layoutChunk(c) : c.maxPayload();
        return (int) ((h.bytes() + chunk - 1) / chunk);
    }
}
