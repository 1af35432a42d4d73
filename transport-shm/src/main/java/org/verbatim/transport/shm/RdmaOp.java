package org.verbatim.transport.shm;

import java.lang.foreign.MemorySegment;

/**
 * One RDMA operation in flight, or one message the transport owes a peer and could not post yet
 * because the peer's inbox was full. Pooled: initiator operations live in the transport's id
 * table (bounded, so a full table is RETRY), the others in a free list. Queued per endpoint in
 * posting order through {@link #next}.
 */
final class RdmaOp {
    /** Emulated write: send WRITE_CHUNKs, then wait for the WRITE_ACK. */
    static final int WRITE = 1;
    /** Emulated read: send a READ_REQUEST, then collect READ_CHUNKs. */
    static final int READ = 2;
    /** Target side of an emulated read: send READ_CHUNKs. */
    static final int READ_RESPONSE = 3;
    /** Target side of an emulated write: send the WRITE_ACK. */
    static final int WRITE_ACK = 4;
    /** CMA write-with-immediate whose notification did not fit: send the IMMEDIATE, complete. */
    static final int IMMEDIATE = 5;

    /** Index in the id table, or -1 for a pooled target-side operation. */
    final int id;
    int kind;
    MemorySegment local;
    long remoteAddress;
    long remoteKey;
    long length;
    /** Bytes posted (WRITE, READ_RESPONSE) or received (READ). */
    long offset;
    long wrId;
    boolean withImmediate;
    int immediate;
    /** The initiator's op id (READ_RESPONSE, WRITE_ACK). */
    int peerOpId;
    RdmaOp next;

    RdmaOp(int id) {
        this.id = id;
    }

    void clear() {
        kind = 0;
        local = null;
        remoteAddress = 0;
        remoteKey = 0;
        length = 0;
        offset = 0;
        wrId = 0;
        withImmediate = false;
        immediate = 0;
        peerOpId = 0;
        next = null;
    }
}
