package org.verbatim.spi.support;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * One emulated operation in flight, or one reply a target owes a peer. Pooled: initiator
 * operations live in the engine's id table (bounded, so a full table is RETRY; the id travels in
 * the messages), replies in a free list. Queued in an endpoint's backlog, in posting order,
 * through {@link #next}. The local memory is a list of entries (one for a plain segment, several
 * for a gather or scatter list), copied at post time because the caller's list is read during the
 * call only.
 */
final class EmulationOp {
    /** Initiator kinds (in the id table until the reply arrives). */
    static final byte WRITE = 1;
    static final byte ACCUMULATE = 2;
    static final byte READ = 3;
    static final byte ATOMIC = 4;
    /** Target kinds (replies from the free list). */
    static final byte REPLY_ACK = 5;
    static final byte REPLY_READ_DATA = 6;
    static final byte REPLY_ATOMIC = 7;

    /** Index in the id table, or -1 for a pooled reply. */
    final int id;
    byte kind;
    EmulatedEndpoint endpoint;

    final MemorySegment[] segments;
    final long[] offsets;
    final long[] lengths;
    int count;
    /** Total bytes of the local entries. */
    long length;
    /** Cursor: bytes sent (write, accumulate, read data) or received (read), and where. */
    long done;
    int entry;
    long entryOffset;
    /** True once every message of the operation has left the backlog. */
    boolean sent;

    long remoteAddress;
    long remoteKey;
    long wrId;
    boolean withImmediate;
    int immediate;
    /** Element kind or atomic op code, and reduce op code. */
    byte arg;
    byte arg2;
    long operand;
    long operand2;
    /** The initiator's op id (replies). */
    int peerOpId;
    /** Completion status (ACK replies). */
    int status;
    EmulationOp next;

    EmulationOp(int id, int maxEntries) {
        this.id = id;
        segments = new MemorySegment[maxEntries];
        offsets = new long[maxEntries];
        lengths = new long[maxEntries];
    }

    void addEntry(MemorySegment segment, long offset, long entryLength) {
        segments[count] = segment;
        offsets[count] = offset;
        lengths[count] = entryLength;
        count++;
        length += entryLength;
    }

    /** Moves the cursor on by {@code n} bytes (never across an entry's end). */
    void advance(long n) {
        done += n;
        entryOffset += n;
        while (entry < count && entryOffset == lengths[entry]) {
            entry++;
            entryOffset = 0;
        }
    }

    /** Skips leading empty entries, so the cursor always points at data (or the end). */
    void startCursor() {
        done = 0;
        entry = 0;
        entryOffset = 0;
        advance(0);
    }

    void clear() {
        kind = 0;
        endpoint = null;
        Arrays.fill(segments, 0, count, null);
        count = 0;
        length = 0;
        done = 0;
        entry = 0;
        entryOffset = 0;
        sent = false;
        remoteAddress = 0;
        remoteKey = 0;
        wrId = 0;
        withImmediate = false;
        immediate = 0;
        arg = 0;
        arg2 = 0;
        operand = 0;
        operand2 = 0;
        peerOpId = 0;
        status = 0;
        next = null;
    }
}
