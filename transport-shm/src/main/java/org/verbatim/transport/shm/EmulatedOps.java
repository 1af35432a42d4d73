package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.RecordDescriptor.ANSWER_STATUS_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.ANSWER_VALUE_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.ATOMIC_ID_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.ATOMIC_OPCODE_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.ATOMIC_OPERAND_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.ATOMIC_SWAP_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.AUX_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.FLAG_IMMEDIATE;
import static org.verbatim.transport.shm.RecordDescriptor.FLAG_LAST;
import static org.verbatim.transport.shm.RecordDescriptor.HEADER_LENGTH;
import static org.verbatim.transport.shm.RecordDescriptor.OP_CHUNK_FLAGS_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_CHUNK_ID_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_CHUNK_OFFSET_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_HEADER_LENGTH;
import static org.verbatim.transport.shm.RecordDescriptor.OP_READ_ID_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_READ_LENGTH_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_REMOTE_ADDRESS_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_REMOTE_KEY_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_WRITE_FLAGS_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_WRITE_ID_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_WRITE_LEFT_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.IntFunction;
import org.verbatim.spi.Access;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.IoVector;

/**
 * Operations carried by active messages through the inboxes, both sides of them: emulated writes
 * (WRITE_CHUNKs, then a WRITE_ACK), reads (a READ_REQUEST answered by READ_CHUNKs), atomics (an
 * ATOMIC_REQUEST answered by an ATOMIC_RESPONSE), flushes (FLUSH, FLUSH_ACK), the OP_ERROR that
 * replaces the answer to a refused operation, and a CMA write's IMMEDIATE that did not fit at once.
 * See {@link RecordDescriptor} for the records.
 *
 * <p>Each endpoint has a backlog of what it owes its peer, posted in order as the peer's inbox
 * makes room ({@link #pump}); while it is not empty, eager sends return RETRY so that nothing
 * overtakes it. The target applies records in ring order and queues its answers in order, which
 * is what makes a FLUSH_ACK mean "everything before it is placed" and the atomics atomic with
 * respect to each other (the owning rank alone applies them, one after the other).
 */
final class EmulatedOps {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();

    private final int rank;
    private final CompletionHandler handler;
    private final RegistrationTable registrations;
    private final LocalCompletions completions;
    private final IntFunction<ShmEndpoint> endpoints;
    private final int chunkLength;

    private final OpPool pool;

    /** Endpoints with a backlog. */
    private final ShmEndpoint[] pumpList;
    private int pumpCount;
    /** Target side: the status of the write whose chunks a source is sending now. */
    private final int[] writeStatus;

    EmulatedOps(int rank, int worldSize, CompletionHandler handler, RegistrationTable registrations,
                LocalCompletions completions, IntFunction<ShmEndpoint> endpoints, int maxOps,
                int chunkLength) {
        this.rank = rank;
        this.handler = handler;
        this.registrations = registrations;
        this.completions = completions;
        this.endpoints = endpoints;
        this.chunkLength = chunkLength;
        this.pool = new OpPool(maxOps);
        this.pumpList = new ShmEndpoint[worldSize];
        this.writeStatus = new int[worldSize];
    }

    boolean pumping() {
        return pumpCount > 0;
    }

    // ------------------------------------------------------------------ posting

    int write(ShmEndpoint endpoint, MemorySegment local, IoVector gather, long remoteAddress,
              long remoteKey, boolean withImmediate, int immediate, long wrId) {
        RdmaOp op = pool.take(endpoint);
        if (op == null) {
            return endpoint.retry();
        }
        op.kind = RdmaOp.WRITE;
        setLocal(op, local, gather);
        op.remoteAddress = remoteAddress;
        op.remoteKey = remoteKey;
        op.withImmediate = withImmediate;
        op.immediate = immediate;
        op.wrId = wrId;
        enqueue(endpoint, op);
        pump(endpoint);
        return org.verbatim.spi.PostStatus.OK;
    }

    int read(ShmEndpoint endpoint, MemorySegment local, IoVector scatter, long remoteAddress,
             long remoteKey, long wrId) {
        RdmaOp op = pool.take(endpoint);
        if (op == null) {
            return endpoint.retry();
        }
        op.kind = RdmaOp.READ;
        setLocal(op, local, scatter);
        op.remoteAddress = remoteAddress;
        op.remoteKey = remoteKey;
        op.wrId = wrId;
        enqueue(endpoint, op);
        pump(endpoint);
        return org.verbatim.spi.PostStatus.OK;
    }

    int atomic(ShmEndpoint endpoint, MemorySegment result, int opcode, long remoteAddress,
               long remoteKey, long operand, long swap, long wrId) {
        RdmaOp op = pool.take(endpoint);
        if (op == null) {
            return endpoint.retry();
        }
        op.kind = RdmaOp.ATOMIC;
        op.local = result;
        op.opcode = opcode;
        op.remoteAddress = remoteAddress;
        op.remoteKey = remoteKey;
        op.operand = operand;
        op.swap = swap;
        op.wrId = wrId;
        enqueue(endpoint, op);
        pump(endpoint);
        return org.verbatim.spi.PostStatus.OK;
    }

    /**
     * A flush: completes locally when nothing is outstanding towards the peer, else travels as a
     * FLUSH record behind everything owed to it.
     */
    int flush(ShmEndpoint endpoint, long wrId) {
        if (endpoint.outstanding == 0 && endpoint.backlogHead == null) {
            if (!completions.reserve(1)) {
                return endpoint.retry();
            }
            completions.complete(wrId, CompletionStatus.OK);
            return org.verbatim.spi.PostStatus.OK;
        }
        RdmaOp op = pool.take(endpoint);
        if (op == null) {
            return endpoint.retry();
        }
        op.kind = RdmaOp.FLUSH;
        op.wrId = wrId;
        enqueue(endpoint, op);
        pump(endpoint);
        return org.verbatim.spi.PostStatus.OK;
    }

    /** A CMA write-with-immediate whose IMMEDIATE must wait behind the backlog. */
    void immediateLater(ShmEndpoint endpoint, int immediate, long wrId) {
        RdmaOp op = pool.spare();
        op.kind = RdmaOp.IMMEDIATE;
        op.immediate = immediate;
        op.wrId = wrId;
        enqueue(endpoint, op);
    }

    private static void setLocal(RdmaOp op, MemorySegment local, IoVector list) {
        if (list != null) {
            op.ranges.copyOf(list);
            op.gathered = true;
            op.length = op.ranges.total();
        } else {
            op.local = local;
            op.length = local.byteSize();
        }
    }

    // ------------------------------------------------------------------ backlog

    private void enqueue(ShmEndpoint endpoint, RdmaOp op) {
        endpoint.enqueue(op);
        if (!endpoint.pumping) {
            endpoint.pumping = true;
            pumpList[pumpCount++] = endpoint;
        }
    }

    /** Queues an answer to {@code source} and posts what fits. */
    private void answer(int source, RdmaOp op) {
        ShmEndpoint endpoint = endpoints.apply(source);
        enqueue(endpoint, op);
        pump(endpoint);
    }

    private void answerError(int source, int peerOpId, int status) {
        RdmaOp error = pool.spare();
        error.kind = RdmaOp.OP_ERROR;
        error.peerOpId = peerOpId;
        error.status = status;
        answer(source, error);
    }

    /** Posts what the endpoint owes its peer, in order, while the peer's inbox has room. */
    boolean pump(ShmEndpoint endpoint) {
        while (endpoint.backlogHead != null) {
            RdmaOp op = endpoint.backlogHead;
            if (!advance(endpoint, op)) {
                return false;
            }
            endpoint.dequeue();
            switch (op.kind) {
                case RdmaOp.WRITE, RdmaOp.READ, RdmaOp.ATOMIC, RdmaOp.FLUSH -> {
                    // stays in the id table until its answer arrives
                }
                default -> pool.release(op);
            }
        }
        return true;
    }

    int pumpAll() {
        int work = 0;
        for (int i = 0; i < pumpCount; ) {
            ShmEndpoint endpoint = pumpList[i];
            if (endpoint.backlogHead != null) {
                pump(endpoint);
            }
            if (endpoint.backlogHead == null) {
                endpoint.pumping = false;
                pumpList[i] = pumpList[--pumpCount];
                pumpList[pumpCount] = null;
                work++;
            } else {
                i++;
            }
        }
        return work;
    }

    /** Posts as much of {@code op} as fits; true when all of it went out. */
    private boolean advance(ShmEndpoint endpoint, RdmaOp op) {
        if (op.kind != RdmaOp.IMMEDIATE) {
            return OpRecordWriter.post(endpoint.ring, op, endpoint.source, chunkLength);
        }
        if (!postImmediate(endpoint, op.immediate)) {
            return false;
        }
        completions.complete(op.wrId, CompletionStatus.OK);
        return true;
    }

    /** Puts an IMMEDIATE record into the peer's inbox; false when it is full. */
    boolean postImmediate(ShmEndpoint endpoint, int immediate) {
        MpscRing ring = endpoint.ring;
        long offset = ring.claim(HEADER_LENGTH);
        if (offset == MpscRing.FULL) {
            return false;
        }
        ring.buffer().set(ValueLayout.JAVA_INT, offset + AUX_OFFSET, immediate);
        ring.commit(offset, RecordDescriptor.TYPE_IMMEDIATE, endpoint.source, HEADER_LENGTH);
        return true;
    }

    /**
     * The peer is gone: completes every operation still waiting for it with PEER_GONE, and drops
     * what is owed to it. Returns how many operations completed.
     */
    int failPeer(ShmEndpoint endpoint) {
        int n = 0;
        while (endpoint.backlogHead != null) {
            RdmaOp op = endpoint.dequeue();
            if (op.id < 0) {
                if (op.kind == RdmaOp.IMMEDIATE) {
                    completions.complete(op.wrId, CompletionStatus.PEER_GONE);
                }
                pool.release(op);
            }
        }
        for (int i = 0; i < pool.capacity(); i++) {
            RdmaOp op = pool.initiator(i);
            if (op.kind != 0 && op.endpoint == endpoint) {
                complete(op, CompletionStatus.PEER_GONE);
                n++;
            }
        }
        return n;
    }

    // ------------------------------------------------------------------ records

    /** Handles one operation record from {@code source} (any type but MESSAGE and IMMEDIATE). */
    void onRecord(int type, int source, MemorySegment buffer, long record, int length) {
        final long body = record + HEADER_LENGTH;
        final long data = body + OP_HEADER_LENGTH;
        final int dataLength = length - HEADER_LENGTH - OP_HEADER_LENGTH;
        switch (type) {
            case RecordDescriptor.TYPE_WRITE_CHUNK -> {
                final long address = buffer.get(ValueLayout.JAVA_LONG, body + OP_REMOTE_ADDRESS_OFFSET);
                final long key = buffer.get(ValueLayout.JAVA_LONG, body + OP_REMOTE_KEY_OFFSET);
                final int flags = buffer.get(ValueLayout.JAVA_INT, body + OP_WRITE_FLAGS_OFFSET);
                if (writeStatus[source] == CompletionStatus.OK) {
                    // the whole rest of the write, so that one running past the end places nothing
                    final long left = buffer.get(ValueLayout.JAVA_LONG, body + OP_WRITE_LEFT_OFFSET);
                    final MemorySegment target = left < dataLength ? null
                            : registrations.resolve(key, address, left, Access.REMOTE_WRITE);
                    if (target == null) {
                        writeStatus[source] = CompletionStatus.REMOTE_ACCESS_ERROR;
                    } else {
                        copyInOrder(buffer, data, target, dataLength);
                    }
                }
                if ((flags & FLAG_LAST) != 0) {
                    final int peerOpId = buffer.get(ValueLayout.JAVA_INT, body + OP_WRITE_ID_OFFSET);
                    final int status = writeStatus[source];
                    writeStatus[source] = CompletionStatus.OK;
                    if (status != CompletionStatus.OK) {
                        answerError(source, peerOpId, status);
                        return;
                    }
                    if ((flags & FLAG_IMMEDIATE) != 0) {
                        handler.onImmediate(source, buffer.get(ValueLayout.JAVA_INT, record + AUX_OFFSET));
                    }
                    RdmaOp ack = pool.spare();
                    ack.kind = RdmaOp.WRITE_ACK;
                    ack.peerOpId = peerOpId;
                    answer(source, ack);
                }
            }
            case RecordDescriptor.TYPE_READ_REQUEST -> {
                final long address = buffer.get(ValueLayout.JAVA_LONG, body + OP_REMOTE_ADDRESS_OFFSET);
                final long key = buffer.get(ValueLayout.JAVA_LONG, body + OP_REMOTE_KEY_OFFSET);
                final long readLength = buffer.get(ValueLayout.JAVA_LONG, body + OP_READ_LENGTH_OFFSET);
                final int peerOpId = buffer.get(ValueLayout.JAVA_INT, body + OP_READ_ID_OFFSET);
                final MemorySegment source0 = registrations.resolve(key, address, readLength,
                        Access.REMOTE_READ);
                if (source0 == null) {
                    answerError(source, peerOpId, CompletionStatus.REMOTE_ACCESS_ERROR);
                    return;
                }
                RdmaOp response = pool.spare();
                response.kind = RdmaOp.READ_RESPONSE;
                response.local = source0;
                response.length = readLength;
                response.peerOpId = peerOpId;
                answer(source, response);
            }
            case RecordDescriptor.TYPE_ATOMIC_REQUEST -> {
                final long address = buffer.get(ValueLayout.JAVA_LONG, body + OP_REMOTE_ADDRESS_OFFSET);
                final long key = buffer.get(ValueLayout.JAVA_LONG, body + OP_REMOTE_KEY_OFFSET);
                final int peerOpId = buffer.get(ValueLayout.JAVA_INT, body + ATOMIC_ID_OFFSET);
                final MemorySegment word = registrations.resolve(key, address, 8,
                        Access.REMOTE_ATOMIC);
                if (word == null) {
                    answerError(source, peerOpId, CompletionStatus.REMOTE_ACCESS_ERROR);
                    return;
                }
                final int status = ShmAtomics.checkAlignment(address);
                if (status != CompletionStatus.OK) {
                    answerError(source, peerOpId, status);
                    return;
                }
                RdmaOp response = pool.spare();
                response.kind = RdmaOp.ATOMIC_RESPONSE;
                response.peerOpId = peerOpId;
                response.operand = ShmAtomics.apply(word, 0,
                        buffer.get(ValueLayout.JAVA_INT, body + ATOMIC_OPCODE_OFFSET),
                        buffer.get(ValueLayout.JAVA_LONG, body + ATOMIC_OPERAND_OFFSET),
                        buffer.get(ValueLayout.JAVA_LONG, body + ATOMIC_SWAP_OFFSET));
                answer(source, response);
            }
            case RecordDescriptor.TYPE_FLUSH -> {
                RdmaOp ack = pool.spare();
                ack.kind = RdmaOp.FLUSH_ACK;
                ack.peerOpId = buffer.get(ValueLayout.JAVA_INT, record + AUX_OFFSET);
                answer(source, ack);
            }
            case RecordDescriptor.TYPE_WRITE_ACK -> complete(initiatorOp(
                    buffer.get(ValueLayout.JAVA_INT, record + AUX_OFFSET), RdmaOp.WRITE, source),
                    CompletionStatus.OK);
            case RecordDescriptor.TYPE_FLUSH_ACK -> complete(initiatorOp(
                    buffer.get(ValueLayout.JAVA_INT, record + AUX_OFFSET), RdmaOp.FLUSH, source),
                    CompletionStatus.OK);
            case RecordDescriptor.TYPE_ATOMIC_RESPONSE -> {
                final RdmaOp op = initiatorOp(buffer.get(ValueLayout.JAVA_INT, record + AUX_OFFSET),
                        RdmaOp.ATOMIC, source);
                ShmAtomics.deliver(op.local, buffer.get(ValueLayout.JAVA_LONG, body + ANSWER_VALUE_OFFSET));
                complete(op, CompletionStatus.OK);
            }
            case RecordDescriptor.TYPE_OP_ERROR -> complete(initiatorOp(
                    buffer.get(ValueLayout.JAVA_INT, record + AUX_OFFSET), 0, source),
                    buffer.get(ValueLayout.JAVA_INT, body + ANSWER_STATUS_OFFSET));
            case RecordDescriptor.TYPE_READ_CHUNK -> {
                final RdmaOp op = initiatorOp(buffer.get(ValueLayout.JAVA_INT, body + OP_CHUNK_ID_OFFSET),
                        RdmaOp.READ, source);
                final long offset = buffer.get(ValueLayout.JAVA_LONG, body + OP_CHUNK_OFFSET_OFFSET);
                final int flags = buffer.get(ValueLayout.JAVA_INT, body + OP_CHUNK_FLAGS_OFFSET);
                op.scatter(buffer, data, offset, dataLength);
                op.offset += dataLength;
                if ((flags & FLAG_LAST) != 0) {
                    if (op.offset != op.length) {
                        throw new IllegalStateException("emulated read from rank " + source
                                + " delivered " + op.offset + " of " + op.length + " bytes");
                    }
                    complete(op, CompletionStatus.OK);
                }
            }
            default -> throw new IllegalStateException("unknown record type " + type + " from rank "
                    + source + " in the inbox of rank " + rank);
        }
    }

    private void complete(RdmaOp op, int status) {
        final long wrId = op.wrId;
        pool.release(op);
        handler.onComplete(wrId, status);
    }

    private RdmaOp initiatorOp(int id, int kind, int source) {
        RdmaOp op = id >= 0 && id < pool.capacity() ? pool.initiator(id) : null;
        if (op == null || op.kind == 0 || (kind != 0 && op.kind != kind)) {
            throw new IllegalStateException("rank " + source + " answered unknown operation " + id);
        }
        return op;
    }

    /** Copies all but the last byte, then the last byte with release: IN_ORDER_PLACEMENT. */
    private static void copyInOrder(MemorySegment from, long fromOffset, MemorySegment to, int length) {
        if (length == 0) {
            return;
        }
        MemorySegment.copy(from, fromOffset, to, 0, length - 1);
        BYTE.setRelease(to, (long) length - 1, from.get(ValueLayout.JAVA_BYTE, fromOffset + length - 1));
    }
}
