package org.verbatim.transport.tcp;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.PostStatus;

/**
 * The way to one peer over TCP: the raw, send-only endpoint under the RDMA emulation. A send
 * goes straight to the socket when nothing is queued (the length prefix and header copied into
 * a scratch buffer, a small payload too, a large one written from its own memory in the same
 * gathering write); what the socket does not take, and every send while the connection is not
 * up yet or bytes are queued, is copied into the send queue, which progress flushes. A full
 * queue is RETRY. Once connected, a send while bytes wait in the queue is RETRY too (the
 * caller retries after progress), so only the unwritten rest of one frame is ever copied and
 * a stream of large frames goes out from the caller's memory. Emulated RDMA data
 * ({@link #sendRetained}) is not copied even then: its unwritten rest stays in the caller's
 * memory ({@code held}) and progress writes it from there after the queue. Incoming bytes collect
 * in the receive buffer until a whole frame is there.
 */
final class PeerLink implements Endpoint {
    /** Payloads up to this size are copied next to the header: one buffer, no view object. */
    private static final int COPY_LIMIT = 2048;
    /** Size of the scratch buffer a direct send writes from: length, header and a small payload. */
    static final int SCRATCH_SIZE = Frames.LENGTH_SIZE + 508 + COPY_LIMIT;
    /** First size of the send queue (it grows to the configured limit while needed). */
    private static final int INITIAL_QUEUE = 16 << 10;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private final TcpTransport transport;
    final int peer;
    private final int maxMessage;
    /** Established channel, or null; its key's attachment is this link. */
    SocketChannel channel;
    SelectionKey key;
    InetSocketAddress remote;
    /** Our own connection attempt while there is no channel. */
    Connection outgoing;
    /** The addresses the peer offers, and the next one to try. */
    java.util.List<InetSocketAddress> addresses;
    int addressIndex;
    long connectDeadline;
    String connectErrors = "";
    /** Queued outgoing bytes, in write mode ([0, position) waits); grows up to queueLimit. */
    ByteBuffer queue;
    private MemorySegment queueSegment;
    private final int queueLimit;
    private final int initialQueue;
    /** The arena of a queue grown beyond its first size (freed when it is replaced), or null. */
    private Arena queueArena;
    /** Bytes entered the queue since the last {@link #shrinkIfIdle} sweep. */
    private boolean queueUsed;
    /** When a sweep first found the grown queue empty and unused (System.nanoTime), or 0. */
    private long queueIdleSince;
    /** Received bytes, in write mode ([0, position) not yet handed up). */
    ByteBuffer in;
    MemorySegment inSegment;
    boolean byeReceived;
    boolean failed;
    /** A frame whose data is being received straight into place: the destination, the bytes
     *  of it already there, the frame's whole length and its header (see TcpTransport). */
    MemorySegment placing;
    long placeDone;
    int placeLength;
    final MemorySegment placeHead = MemorySegment.ofArray(new long[8]);
    private final ByteBuffer scratch;
    private final MemorySegment scratchSegment;
    private final ByteBuffer[] pair = new ByteBuffer[2];
    /** The unwritten rest of a retained payload, written after the queue; null when none. */
    private ByteBuffer held;
    /** End of the partial frame at the start of the receive buffer when more than a burst of it
     *  must be read into the buffer (0: read a burst; see TcpTransport.read). */
    int frameEnd;

    PeerLink(TcpTransport transport, int peer, int maxMessage, int queueBytes,
             ByteBuffer scratch) {
        this.transport = transport;
        this.peer = peer;
        this.maxMessage = maxMessage;
        this.queueLimit = queueBytes;
        this.initialQueue = Math.min(queueBytes, INITIAL_QUEUE);
        this.queue = ByteBuffer.allocateDirect(initialQueue).order(ByteOrder.nativeOrder());
        this.queueSegment = MemorySegment.ofBuffer(queue);
        this.scratch = scratch;
        this.scratchSegment = MemorySegment.ofBuffer(scratch);
    }

    @Override
    public int peer() {
        return peer;
    }

    @Override
    public int send(MemorySegment header, MemorySegment payload) {
        return send(header, payload, false);
    }

    @Override
    public int sendRetained(MemorySegment header, MemorySegment payload) {
        return send(header, payload, payload.isNative());
    }

    private int send(MemorySegment header, MemorySegment payload, boolean retained) {
        final long h = header.byteSize();
        final long p = payload.byteSize();
        final long total = h + p;
        if (total > maxMessage) {
            throw new IllegalArgumentException("message of " + total + " bytes exceeds the tcp "
                    + "transport's largest message " + maxMessage);
        }
        if (failed) {
            return PostStatus.OK; // the job is ending (the failure has been reported)
        }
        final int frame = (int) (Frames.LENGTH_SIZE + total);
        transport.framesSent++;
        if (channel == null) {
            if (retained) {
                // emulated RDMA data waits where it is until the connection is up
                transport.framesSent--;
                transport.connect(this);
                return PostStatus.RETRY;
            }
            // not connected yet: the queue holds the messages until the connection is up
            if (queue.remaining() < frame) {
                grow(frame);
            }
            if (queue.remaining() < frame) {
                transport.framesSent--;
                return PostStatus.RETRY;
            }
            append(header, payload, (int) total);
            transport.connect(this);
            return PostStatus.OK;
        }
        if ((queue.position() > 0 || held != null) && !flush()) {
            // the socket is behind: RETRY rather than copy whole frames into the queue
            transport.framesSent--;
            if (transport.trace != null) {
                transport.trace.retries++;
            }
            return PostStatus.RETRY;
        }
        final boolean copy = p <= COPY_LIMIT || !payload.isNative();
        if (Frames.LENGTH_SIZE + h + (copy ? p : 0) > scratch.capacity()) {
            // a header too long for the scratch, or a large heap payload: through the queue
            grow(frame);
            append(header, payload, (int) total);
            flush();
            return PostStatus.OK;
        }
        scratchSegment.set(INT, 0, (int) total);
        MemorySegment.copy(header, 0, scratchSegment, Frames.LENGTH_SIZE, h);
        try {
            if (copy) {
                MemorySegment.copy(payload, 0, scratchSegment, Frames.LENGTH_SIZE + h, p);
                scratch.limit(frame).position(0);
                count(channel.write(scratch), scratch.hasRemaining());
                if (scratch.hasRemaining()) {
                    grow(scratch.remaining());
                    queueUsed = true;
                    queue.put(scratch);
                    transport.wantWrite(this);
                }
            } else {
                scratch.limit((int) (Frames.LENGTH_SIZE + h)).position(0);
                ByteBuffer body = payload.asByteBuffer();
                pair[0] = scratch;
                pair[1] = body;
                count(channel.write(pair), body.hasRemaining() || scratch.hasRemaining());
                pair[1] = null;
                if (retained && body.hasRemaining()) {
                    // the rest stays where it is; only the header's rest is copied
                    queueUsed = true;
                    queue.put(scratch);
                    held = body;
                    transport.wantWrite(this);
                } else if (scratch.hasRemaining() || body.hasRemaining()) {
                    grow(scratch.remaining() + body.remaining());
                    queueUsed = true;
                    queue.put(scratch);
                    queue.put(body);
                    transport.wantWrite(this);
                }
            }
        } catch (IOException e) {
            transport.fail(this, "sending to rank " + peer + " failed: " + e.getMessage());
        } finally {
            scratch.clear();
        }
        return PostStatus.OK;
    }

    /** Counts one write system call in the trace (when on). */
    private void count(long written, boolean partial) {
        TcpTrace t = transport.trace;
        if (t != null) {
            t.writes++;
            if (written > 0) {
                t.writeBytes += written;
                if (partial) {
                    t.writesPartial++;
                }
            } else {
                t.writesEmpty++;
            }
        }
    }

    /** Makes room for {@code bytes} more by doubling the queue, within its limit. */
    private void grow(int bytes) {
        int needed = queue.position() + bytes;
        if (needed > queueLimit) {
            return;
        }
        int capacity = queue.capacity();
        while (capacity < needed) {
            capacity = (int) Math.min(queueLimit, 2L * capacity);
        }
        Arena arena = Arena.ofShared();
        MemorySegment biggerSegment = arena.allocate(capacity, 64);
        ByteBuffer bigger = biggerSegment.asByteBuffer().order(ByteOrder.nativeOrder());
        queue.flip();
        bigger.put(queue);
        replaceQueue(bigger, biggerSegment, arena);
        queueUsed = true;
    }

    /** Makes {@code next} the queue and frees the grown queue it replaces (its own arena). */
    private void replaceQueue(ByteBuffer next, MemorySegment nextSegment, Arena arena) {
        Arena old = queueArena;
        if ((old == null) != (arena == null)) {
            transport.queueSweep.grown(arena != null ? 1 : -1); // progress sweeps only while some are
        }
        queue = next;
        queueSegment = nextSegment;
        queueArena = arena;
        if (old != null) {
            old.close();
        }
    }

    /** Frees a grown queue at the transport's close (a small one takes its place). */
    void releaseQueue() {
        if (queueArena != null) {
            ByteBuffer small = ByteBuffer.allocateDirect(initialQueue).order(ByteOrder.nativeOrder());
            replaceQueue(small, MemorySegment.ofBuffer(small), null);
        }
    }

    /**
     * One sweep of the send queue's hysteresis: a queue grown beyond its first size (a burst of
     * frames the socket did not take at once, such as credited eager sends) goes back to that
     * size once no byte has entered it, and it has stayed empty, for {@code idleNanos}: a burst
     * regrows it (one allocation per burst), steady traffic keeps it. True when it shrank.
     */
    boolean shrinkIfIdle(long now, long idleNanos) {
        if (queue.capacity() <= initialQueue || pending() || queueUsed) {
            queueUsed = false;
            queueIdleSince = 0;
            return false;
        }
        if (queueIdleSince == 0) {
            queueIdleSince = now;
            return false;
        }
        if (now - queueIdleSince < idleNanos) {
            return false;
        }
        ByteBuffer small = ByteBuffer.allocateDirect(initialQueue).order(ByteOrder.nativeOrder());
        replaceQueue(small, MemorySegment.ofBuffer(small), null);
        queueIdleSince = 0;
        return true;
    }

    private void append(MemorySegment header, MemorySegment payload, int total) {
        queueUsed = true;
        int at = queue.position();
        queueSegment.set(INT, at, total);
        MemorySegment.copy(header, 0, queueSegment, at + Frames.LENGTH_SIZE, header.byteSize());
        MemorySegment.copy(payload, 0, queueSegment, at + Frames.LENGTH_SIZE + header.byteSize(),
                payload.byteSize());
        queue.position(at + Frames.LENGTH_SIZE + total);
    }

    @Override
    public int write(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        throw rawOnly();
    }

    @Override
    public int writeWithImmediate(MemorySegment local, long remoteAddress, long remoteKey,
                                  int immediate, long wrId) {
        throw rawOnly();
    }

    @Override
    public int read(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        throw rawOnly();
    }

    private static UnsupportedOperationException rawOnly() {
        return new UnsupportedOperationException("the raw tcp endpoint only sends: RDMA goes "
                + "through the transport's emulation endpoint");
    }

    /** Queues the BYE that tells the peer the end of the stream is no failure. */
    boolean queueBye() {
        if (held != null) {
            // closing: the held rest goes into the queue so that BYE follows it
            grow(held.remaining() + Frames.LENGTH_SIZE);
            if (queue.remaining() < held.remaining() + Frames.LENGTH_SIZE) {
                return false;
            }
            queue.put(held);
            held = null;
        }
        if (queue.remaining() < Frames.LENGTH_SIZE) {
            return false;
        }
        queue.putInt(Frames.BYE);
        return true;
    }

    /** True while bytes wait to be written: in the queue or a retained payload's rest. */
    boolean pending() {
        return queue.position() > 0 || held != null;
    }

    /** Writes what the socket takes of the queue, then of a held payload; true when both are empty. */
    boolean flush() {
        if (channel == null || failed) {
            return !pending();
        }
        if (!pending()) {
            return true;
        }
        queue.flip();
        try {
            if (held == null) {
                count(channel.write(queue), queue.hasRemaining());
            } else {
                pair[0] = queue;
                pair[1] = held;
                count(channel.write(pair), queue.hasRemaining() || held.hasRemaining());
                pair[1] = null;
                if (!held.hasRemaining()) {
                    held = null;
                }
            }
        } catch (IOException e) {
            queue.clear();
            held = null;
            pair[1] = null;
            transport.fail(this, "sending to rank " + peer + " failed: " + e.getMessage());
            return true;
        } finally {
            if (!failed) {
                queue.compact();
            }
        }
        boolean empty = !pending();
        if (!empty) {
            transport.wantWrite(this);
        }
        return empty;
    }

    @Override
    public String toString() {
        return "PeerLink[rank " + peer + (remote != null ? ", " + remote : "") + "]";
    }
}
