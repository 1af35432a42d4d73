package org.verbatim.spi.support;

import static org.verbatim.spi.support.EmulationWire.INT;
import static org.verbatim.spi.support.EmulationWire.LONG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.verbatim.spi.Access;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.CompletionStatus;

/**
 * The handler an emulating transport delivers to ({@link RdmaEmulation#handler()}): takes the
 * messages whose first byte is in the reserved range and passes every other call to the
 * runtime's handler untouched. As target it places writes, applies accumulates and atomics and
 * answers reads; as initiator it completes operations from the answers. Nothing a peer sends
 * makes the target throw: an access it refuses is answered with an error status. A malformed
 * answer (an op id that is not in flight) is a protocol bug and throws.
 */
final class EmulationHandler implements CompletionHandler {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final RdmaEmulation engine;
    private final CompletionHandler downstream;
    private final RegistrationTable registrations;
    /** Per source: the status of the chunked operation it is sending (chunks are contiguous). */
    private final int[] chunkStatus;

    EmulationHandler(RdmaEmulation engine, CompletionHandler downstream,
                     RegistrationTable registrations, int worldSize) {
        this.engine = engine;
        this.downstream = downstream;
        this.registrations = registrations;
        this.chunkStatus = new int[worldSize];
    }

    @Override
    public void onReceive(int source, MemorySegment message) {
        long length = message.byteSize();
        if (length > 0 && EmulationWire.reserved(message.get(ValueLayout.JAVA_BYTE, 0))) {
            dispatch(source, message, 0, length);
        } else {
            downstream.onReceive(source, message);
        }
    }

    @Override
    public void onReceive(int source, MemorySegment buffer, long offset, long length) {
        if (length > 0 && EmulationWire.reserved(buffer.get(ValueLayout.JAVA_BYTE, offset))) {
            dispatch(source, buffer, offset, length);
        } else {
            downstream.onReceive(source, buffer, offset, length);
        }
    }

    @Override
    public void onImmediate(int source, int immediate) {
        downstream.onImmediate(source, immediate);
    }

    @Override
    public void onComplete(long wrId, int status) {
        downstream.onComplete(wrId, status);
    }

    @Override
    public void onPeerFailure(int peer, String reason) {
        engine.peerFailed(peer);
        downstream.onPeerFailure(peer, reason);
    }

    private void dispatch(int source, MemorySegment m, long at, long length) {
        final byte kind = m.get(ValueLayout.JAVA_BYTE, at + EmulationWire.KIND);
        if (kind == EmulationWire.ESCAPE) {
            downstream.onReceive(source, m, at + 1, length - 1);
            return;
        }
        if (length < EmulationWire.headerLength(kind)) {
            throw new IllegalStateException(String.format("emulation message kind 0x%02x from rank"
                    + " %d has %d bytes, shorter than its header", kind & 0xFF, source, length));
        }
        final int opId = m.get(INT, at + EmulationWire.OP_ID);
        switch (kind) {
            case EmulationWire.WRITE_CHUNK, EmulationWire.ACCUMULATE_CHUNK ->
                    onChunk(source, kind, opId, m, at, length, false);
            case EmulationWire.READ_REQUEST -> {
                final long address = m.get(LONG, at + EmulationWire.ADDRESS);
                final long readLength = m.get(LONG, at + EmulationWire.READ_LENGTH);
                final int slot = registrations.resolve(m.get(LONG, at + EmulationWire.KEY),
                        address, readLength, Access.REMOTE_READ);
                if (slot < 0) {
                    engine.reply(source, EmulationOp.REPLY_ACK, opId, -slot, 0);
                } else {
                    engine.replyRead(source, opId, registrations.segment(slot),
                            registrations.offset(slot, address), readLength);
                }
            }
            case EmulationWire.ATOMIC_REQUEST -> onAtomic(source, opId, m, at);
            case EmulationWire.ACK -> engine.complete(engine.initiatorOp(opId, source, (byte) 0),
                    m.get(ValueLayout.JAVA_BYTE, at + EmulationWire.STATUS));
            case EmulationWire.READ_DATA -> onReadData(source, opId, m, at, length, false);
            case EmulationWire.ATOMIC_RESULT -> {
                EmulationOp op = engine.initiatorOp(opId, source, EmulationOp.ATOMIC);
                op.segments[0].set(ValueLayout.JAVA_LONG_UNALIGNED, op.offsets[0],
                        m.get(LONG, at + EmulationWire.VALUE));
                engine.complete(op, CompletionStatus.OK);
            }
            default -> throw new IllegalStateException(String.format(
                    "unknown emulation message kind 0x%02x from rank %d", kind & 0xFF, source));
        }
    }

    /** A write or accumulate chunk: placed or combined, or remembered as refused. */
    private void onChunk(int source, byte kind, int opId, MemorySegment m, long at, long length,
                         boolean placed) {
        final byte flags = m.get(ValueLayout.JAVA_BYTE, at + EmulationWire.FLAGS);
        final long address = m.get(LONG, at + EmulationWire.ADDRESS);
        final long n = length - EmulationWire.CHUNK_HEADER_LENGTH;
        final long data = at + EmulationWire.CHUNK_HEADER_LENGTH;
        final boolean write = kind == EmulationWire.WRITE_CHUNK;
        if (chunkStatus[source] == CompletionStatus.OK && !placed) {
            // The whole rest of the operation is checked, not only this chunk: a write that
            // runs past the registration is refused at its first chunk and places nothing.
            final long rest = Math.max(n, m.get(LONG, at + EmulationWire.REST));
            final int slot = registrations.resolve(m.get(LONG, at + EmulationWire.KEY), address,
                    rest, write ? Access.REMOTE_WRITE : Access.REMOTE_ATOMIC);
            if (slot < 0) {
                chunkStatus[source] = -slot;
            } else if (write) {
                MemorySegment.copy(m, data, registrations.segment(slot),
                        registrations.offset(slot, address), n);
            } else {
                ElementKind element = ElementKind.ofCode(m.get(ValueLayout.JAVA_BYTE, at + EmulationWire.ARG));
                ReduceOp op = ReduceOp.ofCode(m.get(ValueLayout.JAVA_BYTE, at + EmulationWire.ARG2));
                if (element == null || op == null || !op.supports(element) || n % element.size() != 0) {
                    chunkStatus[source] = CompletionStatus.REMOTE_OPERATION_ERROR;
                } else {
                    Accumulator.apply(element, op, m, data, registrations.segment(slot),
                            registrations.offset(slot, address), n / element.size());
                }
            }
        }
        if ((flags & EmulationWire.FLAG_LAST) != 0) {
            final int status = chunkStatus[source];
            chunkStatus[source] = CompletionStatus.OK;
            if (status == CompletionStatus.OK && (flags & EmulationWire.FLAG_IMMEDIATE) != 0) {
                downstream.onImmediate(source, m.get(INT, at + EmulationWire.IMMEDIATE));
            }
            engine.reply(source, EmulationOp.REPLY_ACK, opId, status, 0);
        }
    }

    /**
     * Where the data of an emulation message goes, for a transport that can receive it straight
     * into place instead of into its buffer: the destination of the data bytes of a WRITE_CHUNK
     * (registered memory the rest of the write may use) or of a READ_DATA (the read's current
     * scatter entry, when the chunk fits in it), or null when the message must take the normal
     * path (any other kind, an escaped message, an access the target refuses, a chunk across
     * entries). {@code m} holds at least the message's first {@code headLength} bytes at
     * {@code at}; {@code length} is the whole message's. The data starts at
     * {@link EmulationWire#headerLength} of its kind.
     */
    @Override
    public MemorySegment placement(int source, MemorySegment m, long at, long headLength, long length) {
        if (headLength < 1) {
            return null;
        }
        if (!EmulationWire.reserved(m.get(ValueLayout.JAVA_BYTE, at))) {
            return length < RdmaEmulation.MESSAGE_PLACEMENT_MIN ? null
                    : downstream.placement(source, m, at, headLength, length);
        }
        if (headLength < EmulationWire.READ_DATA_HEADER_LENGTH) {
            return null;
        }
        final byte kind = m.get(ValueLayout.JAVA_BYTE, at + EmulationWire.KIND);
        if (kind == EmulationWire.READ_DATA) {
            final EmulationOp op = engine.initiatorOpOrNull(m.get(INT, at + EmulationWire.OP_ID),
                    source, EmulationOp.READ);
            final long n = length - EmulationWire.READ_DATA_HEADER_LENGTH;
            if (op == null || m.get(LONG, at + EmulationWire.OFFSET) != op.done
                    || op.done + n > op.length || op.entry >= op.count
                    || op.lengths[op.entry] - op.entryOffset < n
                    || !op.segments[op.entry].isNative()) {
                return null;
            }
            return op.segments[op.entry].asSlice(op.offsets[op.entry] + op.entryOffset, n);
        }
        if (kind == EmulationWire.WRITE_CHUNK && headLength >= EmulationWire.CHUNK_HEADER_LENGTH
                && chunkStatus[source] == CompletionStatus.OK) {
            final long address = m.get(LONG, at + EmulationWire.ADDRESS);
            final long n = length - EmulationWire.CHUNK_HEADER_LENGTH;
            final long rest = Math.max(n, m.get(LONG, at + EmulationWire.REST));
            final int slot = registrations.resolve(m.get(LONG, at + EmulationWire.KEY), address,
                    rest, Access.REMOTE_WRITE);
            if (slot < 0 || !registrations.segment(slot).isNative()) {
                return null;
            }
            return registrations.segment(slot).asSlice(registrations.offset(slot, address), n);
        }
        return null;
    }

    /**
     * The rest of the work of a message whose data the transport has received into the place
     * {@link #placement} named: the read's cursor and completion, or the write's last-chunk
     * answer. {@code m} holds the message's header at {@code at}; {@code length} is the whole
     * message's.
     */
    @Override
    public void placed(int source, MemorySegment m, long at, long length) {
        if (!EmulationWire.reserved(m.get(ValueLayout.JAVA_BYTE, at))) {
            downstream.placed(source, m, at, length);
            return;
        }
        final byte kind = m.get(ValueLayout.JAVA_BYTE, at + EmulationWire.KIND);
        final int opId = m.get(INT, at + EmulationWire.OP_ID);
        if (kind == EmulationWire.READ_DATA) {
            onReadData(source, opId, m, at, length, true);
        } else {
            onChunk(source, kind, opId, m, at, length, true);
        }
    }

    /** Fetch-and-add or compare-and-swap, applied with the word's atomic access modes. */
    private void onAtomic(int source, int opId, MemorySegment m, long at) {
        final long address = m.get(LONG, at + EmulationWire.ADDRESS);
        final int slot = registrations.resolve(m.get(LONG, at + EmulationWire.KEY), address,
                Long.BYTES, Access.REMOTE_ATOMIC);
        if (slot < 0) {
            engine.reply(source, EmulationOp.REPLY_ACK, opId, -slot, 0);
            return;
        }
        final byte op = m.get(ValueLayout.JAVA_BYTE, at + EmulationWire.ARG);
        if ((address & (Long.BYTES - 1)) != 0
                || (op != EmulationWire.ATOMIC_FETCH_AND_ADD && op != EmulationWire.ATOMIC_COMPARE_AND_SWAP)) {
            engine.reply(source, EmulationOp.REPLY_ACK, opId, CompletionStatus.REMOTE_OPERATION_ERROR, 0);
            return;
        }
        final MemorySegment segment = registrations.segment(slot);
        final long offset = registrations.offset(slot, address);
        final long operand = m.get(LONG, at + EmulationWire.OPERAND);
        final long old = op == EmulationWire.ATOMIC_FETCH_AND_ADD
                ? (long) WORD.getAndAdd(segment, offset, operand)
                : (long) WORD.compareAndExchange(segment, offset, operand,
                        m.get(LONG, at + EmulationWire.OPERAND2));
        engine.reply(source, EmulationOp.REPLY_ATOMIC, opId, CompletionStatus.OK, old);
    }

    /** A chunk of read data: scattered into the op's entries at the cursor. */
    private void onReadData(int source, int opId, MemorySegment m, long at, long length,
                            boolean placed) {
        final EmulationOp op = engine.initiatorOp(opId, source, EmulationOp.READ);
        final long offset = m.get(LONG, at + EmulationWire.OFFSET);
        long n = length - EmulationWire.READ_DATA_HEADER_LENGTH;
        if (offset != op.done || op.done + n > op.length) {
            throw new IllegalStateException("rank " + source + " sent read data at " + offset
                    + " (+" + n + ") for a read of " + op.length + " bytes at " + op.done);
        }
        long from = at + EmulationWire.READ_DATA_HEADER_LENGTH;
        if (placed) {
            op.advance(n); // the transport received the data into place (see placement)
            n = 0;
        }
        while (n > 0) {
            final long piece = Math.min(n, op.lengths[op.entry] - op.entryOffset);
            MemorySegment.copy(m, from, op.segments[op.entry], op.offsets[op.entry] + op.entryOffset,
                    piece);
            op.advance(piece);
            from += piece;
            n -= piece;
        }
        if ((m.get(ValueLayout.JAVA_BYTE, at + EmulationWire.FLAGS) & EmulationWire.FLAG_LAST) != 0) {
            if (op.done != op.length) {
                throw new IllegalStateException("emulated read from rank " + source + " delivered "
                        + op.done + " of " + op.length + " bytes");
            }
            engine.complete(op, CompletionStatus.OK);
        }
    }
}
