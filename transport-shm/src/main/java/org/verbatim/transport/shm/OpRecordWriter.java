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
import static org.verbatim.transport.shm.RecordDescriptor.OP_WRITE_LEFT_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Packs the records of an operation owed to a peer ({@link RecordDescriptor}) straight into the
 * peer's inbox: the chunks of a write or of a read's answer (copied from the local side, a
 * gather list included), a read request, an atomic request, and the answers (acks, atomic
 * results, errors).
 */
final class OpRecordWriter {
    private OpRecordWriter() {
    }

    /**
     * Writes as much of {@code op} into {@code ring} as fits, as records from {@code rank}; true
     * when all of it went out. Chunked operations remember how far they got in {@code op.offset}.
     */
    static boolean post(MpscRing ring, RdmaOp op, int rank, int chunkLength) {
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
                        buffer.set(ValueLayout.JAVA_LONG, body + OP_WRITE_LEFT_OFFSET,
                                op.length - op.offset);
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
            default -> throw new IllegalStateException("unknown operation kind " + op.kind);
        }
    }

}
