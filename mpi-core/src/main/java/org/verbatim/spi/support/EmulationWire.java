package org.verbatim.spi.support;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Layout of the messages of the RDMA emulation ({@link RdmaEmulation}), carried by the underlying
 * {@link org.verbatim.spi.Endpoint#send} like any other eager message. The first byte of every
 * emulation message is a kind in the reserved range {@code 0xF0..0xFF}; the runtime's own message
 * kinds ({@code WireHeader}) are small numbers, so the two never meet. A message from a sender
 * that does begin with a reserved byte is carried behind one {@link #ESCAPE} byte, which the
 * receiving side strips, so the layer stays transparent to any sender.
 *
 * <pre>
 * Requests (initiator to target):
 *
 *  0       1       2       3       4               8
 *  +-------+-------+-------+-------+---------------+
 *  | kind  | flags |  arg  | arg2  |     op id     |   common prefix of every message
 *  +-------+-------+-------+-------+---------------+
 *  8                                              16
 *  |  remote address (of this chunk's first byte)  |
 * 16                                              24
 *  |  remote key                                   |
 *  +-----------------------------------------------+
 * 24              28              32                              40
 *  |  immediate    |   reserved    |  rest: bytes of the operation   |  data ...
 *  +---------------+---------------+  from this chunk's first byte   +  WRITE_CHUNK,
 *                                                                        ACCUMULATE_CHUNK
 *                                     (arg: element kind, arg2: reduce op)
 * 24                                              32
 *  |  length of the read                           |  READ_REQUEST
 *  +-----------------------------------------------+
 * 24                                              32
 *  |  operand: addend, or expected value           |  ATOMIC_REQUEST (arg: atomic op)
 * 32                                              40
 *  |  operand 2: desired value (compare-and-swap)  |
 *  +-----------------------------------------------+
 *
 * Replies (target to initiator); byte 1 is the completion status of an ACK and the flags
 * (FLAG_LAST) of a READ_DATA:
 *
 *  0       1       2               4               8
 *  +-------+-------+---------------+---------------+
 *  | kind  |st/flag|   reserved    |  op id        |   ACK (end at 8)
 *  +-------+-------+---------------+---------------+
 *  8                                              16
 *  |  offset of this chunk in the read             |  READ_DATA: data from 16
 *  |  or: the old value of the word                |  ATOMIC_RESULT (end at 16)
 *  +-----------------------------------------------+
 * </pre>
 *
 * A write or accumulate is a run of chunks, the last flagged {@link #FLAG_LAST}; chunks of one
 * operation are contiguous in the stream of one sender (an operation leaves the sender's backlog
 * only when all its chunks are out). The target answers the last chunk with one ACK whose status
 * says whether every chunk was placed. A read is answered by READ_DATA chunks in order, the last
 * flagged {@code FLAG_LAST}, or by an ACK with an error status. Op ids index the initiator's
 * operation table. Fields are in native byte order, like the runtime's own headers (the peers of
 * one job share the byte order).
 */
public final class EmulationWire {
    /** The reserved range: a first byte {@code b} with {@code (b & RESERVED_MASK) == RESERVED_MASK}. */
    public static final int RESERVED_MASK = 0xF0;

    /** Write data: placed at the address, acknowledged after the last chunk. */
    public static final byte WRITE_CHUNK = (byte) 0xF0;
    /** Accumulate data: combined elementwise into the target memory. */
    public static final byte ACCUMULATE_CHUNK = (byte) 0xF1;
    /** A read: the target answers with READ_DATA chunks. */
    public static final byte READ_REQUEST = (byte) 0xF2;
    /** Fetch-and-add or compare-and-swap on one 64-bit word. */
    public static final byte ATOMIC_REQUEST = (byte) 0xF3;
    /** Completion of a write or accumulate, or the error answer to any request. */
    public static final byte ACK = (byte) 0xF8;
    /** A chunk of read data. */
    public static final byte READ_DATA = (byte) 0xF9;
    /** The old value of an atomic's word. */
    public static final byte ATOMIC_RESULT = (byte) 0xFA;
    /** A sender's own message that begins with a reserved byte follows. */
    public static final byte ESCAPE = (byte) 0xFF;

    public static final int KIND = 0;
    public static final int FLAGS = 1;
    public static final int STATUS = 1;
    public static final int ARG = 2;
    public static final int ARG2 = 3;
    public static final int OP_ID = 4;
    public static final int ADDRESS = 8;
    public static final int KEY = 16;
    public static final int IMMEDIATE = 24;
    public static final int READ_LENGTH = 24;
    public static final int OPERAND = 24;
    public static final int OPERAND2 = 32;
    public static final int OFFSET = 8;
    /** Of a chunk: the operation's bytes from this chunk on, so the target checks the whole
     *  remaining range at the first chunk and a write that runs past a registration places
     *  nothing. */
    public static final int REST = 32;
    public static final int VALUE = 8;

    /** Header lengths; data follows the chunk headers. */
    public static final int CHUNK_HEADER_LENGTH = 40;
    public static final int READ_REQUEST_LENGTH = 32;
    public static final int ATOMIC_REQUEST_LENGTH = 40;
    public static final int ACK_LENGTH = 8;
    public static final int READ_DATA_HEADER_LENGTH = 16;
    public static final int ATOMIC_RESULT_LENGTH = 16;
    /** The longest header: the smallest maxEager the emulation can work with is more than this. */
    public static final int MAX_HEADER_LENGTH = 40;

    /** Flag of a chunk: the operation's last. */
    public static final byte FLAG_LAST = 1;
    /** Flag of a write's last chunk: deliver the immediate once the data is placed. */
    public static final byte FLAG_IMMEDIATE = 2;

    /** Atomic op codes (ARG of ATOMIC_REQUEST). */
    public static final byte ATOMIC_FETCH_AND_ADD = 0;
    public static final byte ATOMIC_COMPARE_AND_SWAP = 1;

    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private EmulationWire() {
    }

    /** True when {@code firstByte} is in the reserved range (an emulation kind or ESCAPE). */
    public static boolean reserved(byte firstByte) {
        return (firstByte & RESERVED_MASK) == RESERVED_MASK;
    }

    /** Header length of a message kind (ACK_LENGTH for an unknown kind: its prefix). */
    public static int headerLength(byte kind) {
        return switch (kind) {
            case WRITE_CHUNK, ACCUMULATE_CHUNK -> CHUNK_HEADER_LENGTH;
            case READ_REQUEST -> READ_REQUEST_LENGTH;
            case ATOMIC_REQUEST -> ATOMIC_REQUEST_LENGTH;
            case READ_DATA -> READ_DATA_HEADER_LENGTH;
            case ATOMIC_RESULT -> ATOMIC_RESULT_LENGTH;
            case ESCAPE -> 1;
            default -> ACK_LENGTH;
        };
    }

    static void prefix(MemorySegment m, byte kind, byte flags, byte arg, byte arg2, int opId) {
        m.set(ValueLayout.JAVA_BYTE, KIND, kind);
        m.set(ValueLayout.JAVA_BYTE, FLAGS, flags);
        m.set(ValueLayout.JAVA_BYTE, ARG, arg);
        m.set(ValueLayout.JAVA_BYTE, ARG2, arg2);
        m.set(INT, OP_ID, opId);
    }
}
