package org.verbatim.transport.shm;

import java.lang.foreign.MemorySegment;

/**
 * One RDMA operation in flight, or one message the transport owes a peer and could not post yet
 * because the peer's inbox was full. Pooled: initiator operations live in the id table of
 * {@link EmulatedOps} (bounded, so a full table is RETRY), the others in a free list. Queued per
 * endpoint in posting order through {@link #next}.
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
    /** Emulated atomic: send the ATOMIC_REQUEST, then wait for the ATOMIC_RESPONSE. */
    static final int ATOMIC = 6;
    /** Target side of an atomic: send the ATOMIC_RESPONSE with the old value. */
    static final int ATOMIC_RESPONSE = 7;
    /** Flush: send the FLUSH, then wait for the FLUSH_ACK. */
    static final int FLUSH = 8;
    /** Target side of a flush: send the FLUSH_ACK. */
    static final int FLUSH_ACK = 9;
    /** Target side of a refused operation: send the OP_ERROR with {@link #status}. */
    static final int OP_ERROR = 10;

    /** Index in the id table, or -1 for a pooled target-side operation. */
    final int id;
    int kind;
    /** The local memory of a single-segment operation (null when {@link #ranges} is in use). */
    MemorySegment local;
    /** The local side of a gather write or scatter read; {@link #gathered} says it is in use. */
    final LocalRanges ranges = new LocalRanges();
    boolean gathered;
    long remoteAddress;
    long remoteKey;
    long length;
    /** Bytes posted (WRITE, READ_RESPONSE) or received (READ). */
    long offset;
    long wrId;
    boolean withImmediate;
    int immediate;
    /** The initiator's op id (answers). */
    int peerOpId;
    /** Atomic opcode ({@link ShmAtomics}), operands; the old value in an ATOMIC_RESPONSE. */
    int opcode;
    long operand;
    long swap;
    /** OP_ERROR: the completion status. */
    int status;
    /** The endpoint an initiator operation counts against (its outstanding operations). */
    ShmEndpoint endpoint;
    RdmaOp next;

    RdmaOp(int id) {
        this.id = id;
    }

    void clear() {
        kind = 0;
        local = null;
        if (gathered) {
            ranges.clear();
            gathered = false;
        }
        remoteAddress = 0;
        remoteKey = 0;
        length = 0;
        offset = 0;
        wrId = 0;
        withImmediate = false;
        immediate = 0;
        peerOpId = 0;
        opcode = 0;
        operand = 0;
        swap = 0;
        status = 0;
        endpoint = null;
        next = null;
    }

    /** Copies {@code n} bytes of the local side from {@code at} into {@code to}. */
    void gather(long at, MemorySegment to, long toOffset, int n) {
        if (gathered) {
            ranges.gather(at, to, toOffset, n);
        } else {
            MemorySegment.copy(local, at, to, toOffset, n);
        }
    }

    /** Copies {@code n} bytes from {@code from} into the local side at {@code at}. */
    void scatter(MemorySegment from, long fromOffset, long at, int n) {
        if (gathered) {
            ranges.scatter(from, fromOffset, at, n);
        } else {
            MemorySegment.copy(from, fromOffset, local, at, n);
        }
    }
}
