package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.RecordDescriptor.ANSWER_LENGTH;
import static org.verbatim.transport.shm.RecordDescriptor.ANSWER_STATUS_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.ANSWER_VALUE_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.ATOMIC_ID_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.ATOMIC_OPCODE_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.ATOMIC_OPERAND_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.ATOMIC_REQUEST_LENGTH;
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

    /** Initiator operations by id; a free stack of ids. */
    private final RdmaOp[] ops;
    private final int[] freeOpIds;
    private int freeOpCount;
    /** Pooled target-side operations. */
    private RdmaOp spareOps;

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
        this.ops = new RdmaOp[maxOps];
        this.freeOpIds = new int[maxOps];
        for (int i = maxOps - 1; i >= 0; i--) {
            ops[i] = new RdmaOp(i);
            freeOpIds[freeOpCount++] = i;
        }
        this.pumpList = new ShmEndpoint[worldSize];
        this.writeStatus = new int[worldSize];
    }

    boolean pumping() {
        return pumpCount > 0;
    }

    // ------------------------------------------------------------------ posting

    int write(ShmEndpoint endpoint, MemorySegment local, IoVector gather, long remoteAddress,
              long remoteKey, boolean withImmediate, int immediate, long wrId) {
        RdmaOp op = takeOp(endpoint);
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
        RdmaOp op = takeOp(endpoint);
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
        RdmaOp op = takeOp(endpoint);
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
        RdmaOp op = takeOp(endpoint);
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
        RdmaOp op = spareOp();
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

    private RdmaOp takeOp(ShmEndpoint endpoint) {
        if (freeOpCount == 0) {
            return null;
        }
        RdmaOp op = ops[freeOpIds[--freeOpCount]];
        op.endpoint = endpoint;
        endpoint.outstanding++;
        return op;
    }

    private void releaseOp(RdmaOp op) {
        if (op.id >= 0) {
            op.endpoint.outstanding--;
            op.clear();
            freeOpIds[freeOpCount++] = op.id;
        } else {
            op.clear();
            op.next = spareOps;
            spareOps = op;
        }
    }

    private RdmaOp spareOp() {
        RdmaOp op = spareOps;
        if (op == null) {
            return new RdmaOp(-1);
        }
        spareOps = op.next;
        op.next = null;
        return op;
    }

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
        RdmaOp error = spareOp();
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
                default -> releaseOp(op);
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
        final MpscRing ring = endpoint.ring;
        final MemorySegment buffer = ring.buffer();
        switch (op.kind) {
            case RdmaOp.WRITE, RdmaOp.READ_RESPONSE -> {
                final boolean write = op.kind == RdmaOp.WRITE;
                do {
                    final int n = (int) Math.min(op.length - op.offset, chunkLength);
                    final int recordLength = HEADER_LENGTH + OP_HEADER_LENGTH + n;
                    final long record = ring.claim(recordLength);
                    if (record == MpscRing.FULL) {
                        return false;
                    }
                    final long body = record + HEADER_LENGTH;
                    final boolean last = op.offset + n == op.length;
                    int flags = last ? FLAG_LAST : 0;
                    if (write) {
                        buffer.set(ValueLayout.JAVA_LONG, body + OP_REMOTE_ADDRESS_OFFSET,
                                op.remoteAddress + op.offset);
                        buffer.set(ValueLayout.JAVA_LONG, body + OP_REMOTE_KEY_OFFSET, op.remoteKey);
                        buffer.set(ValueLayout.JAVA_INT, body + OP_WRITE_ID_OFFSET, op.id);
                        if (last && op.withImmediate) {
                            flags |= FLAG_IMMEDIATE;
                            buffer.set(ValueLayout.JAVA_INT, record + AUX_OFFSET, op.immediate);
                        }
                        buffer.set(ValueLayout.JAVA_INT, body + OP_WRITE_FLAGS_OFFSET, flags);
                    } else {
                        buffer.set(ValueLayout.JAVA_LONG, body + OP_CHUNK_OFFSET_OFFSET, op.offset);
                        buffer.set(ValueLayout.JAVA_INT, body + OP_CHUNK_ID_OFFSET, op.peerOpId);
                        buffer.set(ValueLayout.JAVA_INT, body + OP_CHUNK_FLAGS_OFFSET, flags);
                    }
                    op.gather(op.offset, buffer, body + OP_HEADER_LENGTH, n);
                    ring.commit(record, write ? RecordDescriptor.TYPE_WRITE_CHUNK
                            : RecordDescriptor.TYPE_READ_CHUNK, rank, recordLength);
                    op.offset += n;
                } while (op.offset < op.length);
                return true;
            }
            case RdmaOp.READ -> {
                final int recordLength = HEADER_LENGTH + OP_HEADER_LENGTH;
                final long record = ring.claim(recordLength);
                if (record == MpscRing.FULL) {
                    return false;
                }
                final long body = record + HEADER_LENGTH;
                buffer.set(ValueLayout.JAVA_LONG, body + OP_REMOTE_ADDRESS_OFFSET, op.remoteAddress);
                buffer.set(ValueLayout.JAVA_LONG, body + OP_REMOTE_KEY_OFFSET, op.remoteKey);
                buffer.set(ValueLayout.JAVA_LONG, body + OP_READ_LENGTH_OFFSET, op.length);
                buffer.set(ValueLayout.JAVA_INT, body + OP_READ_ID_OFFSET, op.id);
                ring.commit(record, RecordDescriptor.TYPE_READ_REQUEST, rank, recordLength);
                return true;
            }
            case RdmaOp.ATOMIC -> {
                final int recordLength = HEADER_LENGTH + ATOMIC_REQUEST_LENGTH;
                final long record = ring.claim(recordLength);
                if (record == MpscRing.FULL) {
                    return false;
                }
                final long body = record + HEADER_LENGTH;
                buffer.set(ValueLayout.JAVA_LONG, body + OP_REMOTE_ADDRESS_OFFSET, op.remoteAddress);
                buffer.set(ValueLayout.JAVA_LONG, body + OP_REMOTE_KEY_OFFSET, op.remoteKey);
                buffer.set(ValueLayout.JAVA_LONG, body + ATOMIC_OPERAND_OFFSET, op.operand);
                buffer.set(ValueLayout.JAVA_LONG, body + ATOMIC_SWAP_OFFSET, op.swap);
                buffer.set(ValueLayout.JAVA_INT, body + ATOMIC_ID_OFFSET, op.id);
                buffer.set(ValueLayout.JAVA_INT, body + ATOMIC_OPCODE_OFFSET, op.opcode);
                ring.commit(record, RecordDescriptor.TYPE_ATOMIC_REQUEST, rank, recordLength);
                return true;
            }
            case RdmaOp.ATOMIC_RESPONSE, RdmaOp.OP_ERROR -> {
                final int recordLength = HEADER_LENGTH + ANSWER_LENGTH;
                final long record = ring.claim(recordLength);
                if (record == MpscRing.FULL) {
                    return false;
                }
                buffer.set(ValueLayout.JAVA_INT, record + AUX_OFFSET, op.peerOpId);
                final long body = record + HEADER_LENGTH;
                if (op.kind == RdmaOp.ATOMIC_RESPONSE) {
                    buffer.set(ValueLayout.JAVA_LONG, body + ANSWER_VALUE_OFFSET, op.operand);
                    ring.commit(record, RecordDescriptor.TYPE_ATOMIC_RESPONSE, rank, recordLength);
                } else {
                    buffer.set(ValueLayout.JAVA_INT, body + ANSWER_STATUS_OFFSET, op.status);
                    ring.commit(record, RecordDescriptor.TYPE_OP_ERROR, rank, recordLength);
                }
                return true;
            }
            case RdmaOp.WRITE_ACK, RdmaOp.FLUSH, RdmaOp.FLUSH_ACK -> {
                final long record = ring.claim(HEADER_LENGTH);
                if (record == MpscRing.FULL) {
                    return false;
                }
                final int type;
                if (op.kind == RdmaOp.FLUSH) {
                    buffer.set(ValueLayout.JAVA_INT, record + AUX_OFFSET, op.id);
                    type = RecordDescriptor.TYPE_FLUSH;
                } else {
                    buffer.set(ValueLayout.JAVA_INT, record + AUX_OFFSET, op.peerOpId);
                    type = op.kind == RdmaOp.WRITE_ACK ? RecordDescriptor.TYPE_WRITE_ACK
                            : RecordDescriptor.TYPE_FLUSH_ACK;
                }
                ring.commit(record, type, rank, HEADER_LENGTH);
                return true;
            }
            case RdmaOp.IMMEDIATE -> {
                if (!postImmediate(endpoint, op.immediate)) {
                    return false;
                }
                completions.complete(op.wrId, CompletionStatus.OK);
                return true;
            }
            default -> throw new IllegalStateException("unknown operation kind " + op.kind);
        }
    }

    /** Puts an IMMEDIATE record into the peer's inbox; false when it is full. */
    boolean postImmediate(ShmEndpoint endpoint, int immediate) {
        MpscRing ring = endpoint.ring;
        long offset = ring.claim(HEADER_LENGTH);
        if (offset == MpscRing.FULL) {
            return false;
        }
        ring.buffer().set(ValueLayout.JAVA_INT, offset + AUX_OFFSET, immediate);
        ring.commit(offset, RecordDescriptor.TYPE_IMMEDIATE, rank, HEADER_LENGTH);
        return true;
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
                    final MemorySegment target = registrations.resolve(key, address, dataLength,
                            Access.REMOTE_WRITE);
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
                    RdmaOp ack = spareOp();
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
                RdmaOp response = spareOp();
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
                RdmaOp response = spareOp();
                response.kind = RdmaOp.ATOMIC_RESPONSE;
                response.peerOpId = peerOpId;
                response.operand = ShmAtomics.apply(word, 0,
                        buffer.get(ValueLayout.JAVA_INT, body + ATOMIC_OPCODE_OFFSET),
                        buffer.get(ValueLayout.JAVA_LONG, body + ATOMIC_OPERAND_OFFSET),
                        buffer.get(ValueLayout.JAVA_LONG, body + ATOMIC_SWAP_OFFSET));
                answer(source, response);
            }
            case RecordDescriptor.TYPE_FLUSH -> {
                RdmaOp ack = spareOp();
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
        releaseOp(op);
        handler.onComplete(wrId, status);
    }

    /** The initiator operation {@code id} of kind {@code kind} (0: any kind). */
    private RdmaOp initiatorOp(int id, int kind, int source) {
        if (id < 0 || id >= ops.length || ops[id].kind == 0 || (kind != 0 && ops[id].kind != kind)) {
            throw new IllegalStateException("rank " + source + " answered unknown operation " + id);
        }
        return ops[id];
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
