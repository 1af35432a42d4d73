package org.verbatim.transport.tcp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The byte stream of one connection. It opens with a handshake: the connecting side sends HELLO
 * (magic "VBTMTCP1", a hash of the job's id, its world rank), the accepting side answers REPLY
 * (magic, its own rank, ACCEPT or REJECT: see {@link TcpTransport} for the tie-break). Then
 * frames follow in both directions, each a 4-byte length (native byte order, as the runtime's
 * wire header) and that many bytes of message: the runtime's header and payload. A length of
 * {@link #BYE} says the sender is finalizing: the end of the stream that follows is not a
 * failure. A frame is handed up only when all of it has arrived.
 *
 * <pre>
 *  HELLO:  | magic (8) | job hash (8) | rank (4) | 0 (4) |
 *  REPLY:  | magic (8) | rank (4) | ACCEPT 1 / REJECT 0 (4) |
 *  frame:  | length (4) | message (length bytes) |       BYE: | -1 (4) |
 * </pre>
 */
final class Frames {
    static final int LENGTH_SIZE = 4;
    static final int BYE = -1;
    /** Bytes a frame may hold beyond {@code verbatim.tcp.eager-size}: the headers (the runtime's,
     *  the RDMA emulation's, its escape byte), so that a message or an RDMA piece of exactly
     *  eager-size bytes goes in one frame. */
    static final int HEADROOM = 64;
    static final long MAGIC = 0x3150_4354_4D54_4256L;
    static final int HELLO_SIZE = 24;
    static final int REPLY_SIZE = 16;
    static final int ACCEPT = 1;
    static final int REJECT = 0;

    private Frames() {
    }

    static ByteBuffer hello(long jobHash, int rank) {
        ByteBuffer b = ByteBuffer.allocate(HELLO_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(MAGIC).putLong(jobHash).putInt(rank).putInt(0).flip();
        return b;
    }

    static ByteBuffer reply(int rank, int status) {
        ByteBuffer b = ByteBuffer.allocate(REPLY_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(MAGIC).putInt(rank).putInt(status).flip();
        return b;
    }

    /** A 64-bit hash of the job's id (FNV-1a), so that a stray connection is told apart. */
    static long jobHash(String jobId) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < jobId.length(); i++) {
            h ^= jobId.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }
}
