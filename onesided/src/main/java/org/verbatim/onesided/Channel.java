package org.verbatim.onesided;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.runtime.ext.Dispatch;
import org.verbatim.runtime.ext.Retryable;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.PostStatus;

/**
 * The way from one window to one target process: an outbox where records are collected
 * (aggregation) and sent as one message, in order. A message the transport refuses for now is
 * copied and queued in the runtime's pending queue, ordered behind everything else queued for
 * that peer, so records always arrive in the order they were written. Used under the runtime's
 * lock.
 */
final class Channel {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private final int world;
    private final int kind;
    private final Endpoint endpoint;
    private final Dispatch dispatch;
    private final MemorySegment outbox;
    private long filled;
    private int records;
    /** Data records written since the counter was last taken (fence counting). */
    int counted;
    private final RmaCounters counters;

    Channel(int world, int kind, Endpoint endpoint, Dispatch dispatch, int maxMessage,
            Arena arena, RmaCounters counters) {
        this.counters = counters;
        this.world = world;
        this.kind = kind;
        this.endpoint = endpoint;
        this.dispatch = dispatch;
        this.outbox = arena.allocate(maxMessage, 8);
    }

    /** The largest payload one record may carry (a multiple of 16: whole elements). */
    long maxPayload() {
        return (outbox.byteSize() - RmaWire.MESSAGE_HEADER - RmaWire.RECORD_HEADER) & ~15L;
    }

    /**
     * Room for a record of {@code payload} bytes: flushes the outbox first if it does not fit.
     * Returns the outbox and the record's offset in it (valid until the next call).
     */
    long reserve(long payload) {
        long need = RmaWire.recordBytes(payload);
        if (records > 0 && RmaWire.MESSAGE_HEADER + filled + need > outbox.byteSize()) {
            flush();
        }
        long at = RmaWire.MESSAGE_HEADER + filled;
        filled += need;
        records++;
        return at;
    }

    MemorySegment outbox() {
        return outbox;
    }

    boolean holdsRecords() {
        return records > 0;
    }

    /** Sends the collected records as one message. */
    void flush() {
        if (records == 0) {
            return;
        }
        outbox.set(ValueLayout.JAVA_BYTE, 0, (byte) kind);
        MemorySegment message = outbox.asSlice(0, RmaWire.MESSAGE_HEADER + filled);
        if (records > 1) {
            counters.aggregated += records;
        }
        filled = 0;
        records = 0;
        if (dispatch.pendingFor(world) == 0 && endpoint.send(message, EMPTY) == PostStatus.OK) {
            return;
        }
        MemorySegment copy = MemorySegment.ofArray(new byte[(int) message.byteSize()]);
        copy.copyFrom(message);
        dispatch.pending(new Retryable() {
            @Override
            public boolean retry() {
                return endpoint.send(copy, EMPTY) == PostStatus.OK;
            }

            @Override
            public int orderedPeer() {
                return world;
            }
        });
    }
}
