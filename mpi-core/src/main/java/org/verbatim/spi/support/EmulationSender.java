package org.verbatim.spi.support;

import static org.verbatim.spi.support.EmulationWire.LONG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.PostStatus;

/**
 * Turns the operation at the head of an endpoint's backlog into messages on the underlying
 * endpoint, as many as it accepts: chunks of at most maxEager bytes (header included), the cursor
 * kept in the operation so that a RETRY resumes where it stopped. Headers are written into one
 * reused scratch buffer (the underlying send copies them out before it returns OK).
 */
final class EmulationSender {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private final MemorySegment scratch = MemorySegment.ofArray(new byte[EmulationWire.MAX_HEADER_LENGTH]);
    private final MemorySegment ack = scratch.asSlice(0, EmulationWire.ACK_LENGTH);
    private final MemorySegment shortReply = scratch.asSlice(0, EmulationWire.READ_DATA_HEADER_LENGTH);
    private final MemorySegment request = scratch.asSlice(0, EmulationWire.CHUNK_HEADER_LENGTH);
    private final MemorySegment readRequest = scratch.asSlice(0, EmulationWire.READ_REQUEST_LENGTH);
    private final MemorySegment atomic = scratch.asSlice(0, EmulationWire.ATOMIC_REQUEST_LENGTH);
    private final long writeChunk;
    private final long readChunk;

    EmulationSender(int maxEager) {
        this.writeChunk = maxEager - EmulationWire.CHUNK_HEADER_LENGTH;
        this.readChunk = maxEager - EmulationWire.READ_DATA_HEADER_LENGTH;
    }

    /** Largest data of one write or accumulate chunk. */
    long writeChunk() {
        return writeChunk;
    }

    /** Posts as much of {@code op} as {@code raw} accepts; true when all of it went out. */
    boolean advance(Endpoint raw, EmulationOp op) {
        return switch (op.kind) {
            case EmulationOp.WRITE, EmulationOp.ACCUMULATE -> sendChunks(raw, op);
            case EmulationOp.REPLY_READ_DATA -> sendReadData(raw, op);
            case EmulationOp.READ -> {
                EmulationWire.prefix(readRequest, EmulationWire.READ_REQUEST, (byte) 0, (byte) 0,
                        (byte) 0, op.id);
                readRequest.set(LONG, EmulationWire.ADDRESS, op.remoteAddress);
                readRequest.set(LONG, EmulationWire.KEY, op.remoteKey);
                readRequest.set(LONG, EmulationWire.READ_LENGTH, op.length);
                yield raw.send(readRequest, EMPTY) == PostStatus.OK;
            }
            case EmulationOp.ATOMIC -> {
                EmulationWire.prefix(atomic, EmulationWire.ATOMIC_REQUEST, (byte) 0, op.arg,
                        (byte) 0, op.id);
                atomic.set(LONG, EmulationWire.ADDRESS, op.remoteAddress);
                atomic.set(LONG, EmulationWire.KEY, op.remoteKey);
                atomic.set(LONG, EmulationWire.OPERAND, op.operand);
                atomic.set(LONG, EmulationWire.OPERAND2, op.operand2);
                yield raw.send(atomic, EMPTY) == PostStatus.OK;
            }
            case EmulationOp.REPLY_ACK -> sendAck(raw, op.peerOpId, op.status);
            case EmulationOp.REPLY_ATOMIC -> sendAtomicResult(raw, op.peerOpId, op.operand);
            default -> throw new IllegalStateException("unknown emulation operation kind " + op.kind);
        };
    }

    /** An ACK (completion of a write or accumulate, or an error answer). */
    boolean sendAck(Endpoint raw, int peerOpId, int status) {
        EmulationWire.prefix(ack, EmulationWire.ACK, (byte) status, (byte) 0, (byte) 0, peerOpId);
        return raw.send(ack, EMPTY) == PostStatus.OK;
    }

    /** The old value of an atomic's word. */
    boolean sendAtomicResult(Endpoint raw, int peerOpId, long oldValue) {
        EmulationWire.prefix(shortReply, EmulationWire.ATOMIC_RESULT, (byte) 0, (byte) 0,
                (byte) 0, peerOpId);
        shortReply.set(LONG, EmulationWire.VALUE, oldValue);
        return raw.send(shortReply, EMPTY) == PostStatus.OK;
    }

    private boolean sendChunks(Endpoint raw, EmulationOp op) {
        final boolean write = op.kind == EmulationOp.WRITE;
        final byte kind = write ? EmulationWire.WRITE_CHUNK : EmulationWire.ACCUMULATE_CHUNK;
        final long unit = write ? 1 : ElementKind.ofCode(op.arg).size();
        final long chunk = writeChunk - writeChunk % unit;
        do {
            long n = Math.min(op.length - op.done, chunk);
            if (op.entry < op.count) {
                // a chunk never spans two gather entries: the underlying send has one payload
                n = Math.min(n, op.lengths[op.entry] - op.entryOffset);
            }
            final boolean last = op.done + n == op.length;
            byte flags = last ? EmulationWire.FLAG_LAST : 0;
            if (last && op.withImmediate) {
                flags |= EmulationWire.FLAG_IMMEDIATE;
            }
            EmulationWire.prefix(request, kind, flags, op.arg, op.arg2, op.id);
            request.set(LONG, EmulationWire.ADDRESS, op.remoteAddress + op.done);
            request.set(LONG, EmulationWire.KEY, op.remoteKey);
            request.set(EmulationWire.INT, EmulationWire.IMMEDIATE, op.immediate);
            request.set(EmulationWire.INT, EmulationWire.IMMEDIATE + 4, 0);
            request.set(LONG, EmulationWire.REST, op.length - op.done);
            final MemorySegment payload = n == 0 ? EMPTY
                    : op.segments[op.entry].asSlice(op.offsets[op.entry] + op.entryOffset, n);
            if (raw.sendRetained(request, payload) != PostStatus.OK) {
                return false;
            }
            op.advance(n);
        } while (op.done < op.length);
        return true;
    }

    private boolean sendReadData(Endpoint raw, EmulationOp op) {
        do {
            final long n = Math.min(op.length - op.done, readChunk);
            final boolean last = op.done + n == op.length;
            EmulationWire.prefix(shortReply, EmulationWire.READ_DATA,
                    last ? EmulationWire.FLAG_LAST : 0, (byte) 0, (byte) 0, op.peerOpId);
            shortReply.set(LONG, EmulationWire.OFFSET, op.done);
            final MemorySegment payload = n == 0 ? EMPTY
                    : op.segments[0].asSlice(op.offsets[0] + op.done, n);
            if (raw.sendRetained(shortReply, payload) != PostStatus.OK) {
                return false;
            }
            op.done += n;
        } while (op.done < op.length);
        return true;
    }

    static byte firstByte(MemorySegment header, MemorySegment payload) {
        return header.byteSize() > 0 ? header.get(ValueLayout.JAVA_BYTE, 0)
                : payload.byteSize() > 0 ? payload.get(ValueLayout.JAVA_BYTE, 0) : 0;
    }
}
