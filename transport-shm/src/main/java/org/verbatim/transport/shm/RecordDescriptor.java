package org.verbatim.transport.shm;

/**
 * Layout of one record in an inbox ring. Records start on {@link #ALIGNMENT}-byte boundaries; the
 * length field is written last, with release ordering, and read first, with acquire ordering. A
 * zero length means "not yet published": the consumer zeroes every record it has consumed before
 * it moves HEAD on, so stale bytes never look like a record.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+  0
 *  |          LENGTH (header included, unaligned; written last)    |
 *  +---------------------------------------------------------------+  4
 *  |                            TYPE                               |
 *  +---------------------------------------------------------------+  8
 *  |                   SOURCE (world rank of the sender)           |
 *  +---------------------------------------------------------------+ 12
 *  |           AUX (immediate value, or an operation id)           |
 *  +---------------------------------------------------------------+ 16
 *  |                            BODY ...                           |
 *  ...                                                           ...
 * </pre>
 *
 * The body of a {@link #TYPE_MESSAGE} is the caller's header followed by its payload. The bodies
 * of the emulated-RDMA records start with a 32-byte operation header (offsets below, relative to
 * the body), followed by data.
 *
 * <pre>
 *  WRITE_CHUNK: | remote address (8) | remote key (8) | op id (4) | flags (4) | left (8) | data
 *  READ_REQUEST:| remote address (8) | remote key (8) | length (8)| op id (4) | pad (4) |
 *  READ_CHUNK:  | offset (8)         | op id (4) | flags (4)      | pad (16)            | data
 *  WRITE_ACK, IMMEDIATE, FLUSH, FLUSH_ACK: no body; AUX carries the op id or the immediate.
 *  ATOMIC_REQUEST: | remote address (8) | remote key (8) | operand (8) | swap (8) |
 *                  | op id (4) | opcode (4) |
 *  ATOMIC_RESPONSE:| old value (8) | pad (8) |          AUX: op id
 *  OP_ERROR:       | status (4) | pad (12) |             AUX: op id
 * </pre>
 *
 * Every WRITE_CHUNK carries what is left of its write, this chunk included, and the target
 * checks that whole range: a write that runs past its registration is refused at its first chunk
 * and places nothing.
 *
 * <p>A FLUSH is answered by a FLUSH_ACK once the target has applied every record the initiator put
 * in its inbox before it: the target handles its inbox in ring order and queues its answers in
 * order, so the FLUSH_ACK also arrives after every earlier answer. An OP_ERROR replaces the
 * answer (WRITE_ACK, READ_CHUNKs, ATOMIC_RESPONSE) of an operation the target refused, with a
 * {@link org.verbatim.spi.CompletionStatus}.
 */
final class RecordDescriptor {
    static final int LENGTH_OFFSET = 0;
    static final int TYPE_OFFSET = 4;
    static final int SOURCE_OFFSET = 8;
    static final int AUX_OFFSET = 12;
    static final int HEADER_LENGTH = 16;
    static final int ALIGNMENT = 16;

    static final int TYPE_PADDING = 1;
    static final int TYPE_MESSAGE = 2;
    static final int TYPE_IMMEDIATE = 3;
    static final int TYPE_WRITE_CHUNK = 4;
    static final int TYPE_WRITE_ACK = 5;
    static final int TYPE_READ_REQUEST = 6;
    static final int TYPE_READ_CHUNK = 7;
    static final int TYPE_ATOMIC_REQUEST = 8;
    static final int TYPE_ATOMIC_RESPONSE = 9;
    static final int TYPE_FLUSH = 10;
    static final int TYPE_FLUSH_ACK = 11;
    static final int TYPE_OP_ERROR = 12;

    /** Length of the operation header at the start of an emulated-RDMA record body. */
    static final int OP_HEADER_LENGTH = 32;
    static final int OP_REMOTE_ADDRESS_OFFSET = 0;
    static final int OP_REMOTE_KEY_OFFSET = 8;
    static final int OP_WRITE_ID_OFFSET = 16;
    static final int OP_WRITE_FLAGS_OFFSET = 20;
    /** Bytes of the write from this chunk's address to its end: the target checks them all. */
    static final int OP_WRITE_LEFT_OFFSET = 24;
    static final int OP_READ_LENGTH_OFFSET = 16;
    static final int OP_READ_ID_OFFSET = 24;
    static final int OP_CHUNK_OFFSET_OFFSET = 0;
    static final int OP_CHUNK_ID_OFFSET = 8;
    static final int OP_CHUNK_FLAGS_OFFSET = 12;

    /** Length of an ATOMIC_REQUEST body. */
    static final int ATOMIC_REQUEST_LENGTH = 48;
    static final int ATOMIC_OPERAND_OFFSET = 16;
    static final int ATOMIC_SWAP_OFFSET = 24;
    static final int ATOMIC_ID_OFFSET = 32;
    static final int ATOMIC_OPCODE_OFFSET = 36;
    /** Length of an ATOMIC_RESPONSE or OP_ERROR body. */
    static final int ANSWER_LENGTH = 16;
    static final int ANSWER_VALUE_OFFSET = 0;
    static final int ANSWER_STATUS_OFFSET = 0;

    /** Flag: the last chunk of an operation. */
    static final int FLAG_LAST = 1;
    /** Flag: the last chunk of a write carries an immediate in AUX. */
    static final int FLAG_IMMEDIATE = 2;

    private RecordDescriptor() {
    }

    static int align(int length) {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }
}
