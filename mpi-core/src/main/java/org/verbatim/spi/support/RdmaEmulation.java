package org.verbatim.spi.support;

import java.lang.foreign.MemorySegment;
import java.util.function.IntFunction;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;

/**
 * RDMA emulated by active messages over any endpoint that can send (after Open MPI's
 * {@code btl_base_am_rdma.c}): the engine a send-only transport wires in to offer write, read,
 * atomics, accumulate and flush, advertised honestly with the {@code *_EMULATED} flags
 * ({@link EmulatedCapabilities}). The transport
 * <ul>
 *   <li>gives its receive path {@link #handler()} instead of the runtime's handler: it takes the
 *       emulation's messages (first byte in {@link EmulationWire}'s reserved range) and passes
 *       every other call through untouched;</li>
 *   <li>returns {@link #endpoint(int)} from {@code Transport.endpoint}, delegates
 *       {@code register} to {@link #register} and calls {@link #progress()} from its own
 *       progress.</li>
 * </ul>
 *
 * <p>The target applies everything on its progressing thread in message order, so atomics and
 * accumulates are atomic with respect to each other; nothing completes while the target does not
 * progress. Access and bounds errors complete at the initiator with
 * {@link CompletionStatus#REMOTE_ACCESS_ERROR}. Operations live in a bounded table of pooled
 * objects (a full table is {@link PostStatus#RETRY}); no locks: the runtime serialises calls.
 */
public final class RdmaEmulation {
    /** Default size of the operation table (operations in flight over all peers). */
    public static final int DEFAULT_MAX_OPERATIONS = 1024;
    /** Default most entries of a gather or scatter list. */
    public static final int DEFAULT_MAX_IOV = 16;
    private static final int REPLY_POOL = 64;

    private final CompletionHandler downstream;
    private final IntFunction<Endpoint> rawEndpoints;
    private final int maxEager;
    private final int maxIov;
    private final RegistrationTable registrations = new RegistrationTable();
    private final EmulatedEndpoint[] endpoints;
    private final EmulationSender sender;
    private final EmulationHandler handler;

    private final EmulationOp[] ops;
    private final int[] freeIds;
    private int freeCount;
    private EmulationOp spareReplies;

    private final EmulatedEndpoint[] pumpList;
    private int pumpCount;
    private final long[] laterWrIds;
    private int laterCount;
    private final MemorySegment escapeBuffer;

    /** An engine with the default table sizes. */
    public RdmaEmulation(CompletionHandler downstream, int worldSize, int maxEager,
                         IntFunction<Endpoint> rawEndpoints) {
        this(downstream, worldSize, maxEager, rawEndpoints, DEFAULT_MAX_OPERATIONS, DEFAULT_MAX_IOV);
    }

    /**
     * @param downstream    the runtime's handler, which gets every completion and every message
     *                      that is not the emulation's
     * @param worldSize     number of ranks (endpoints are indexed by world rank)
     * @param maxEager      the underlying endpoints' largest message, header included
     * @param rawEndpoints  the underlying send-only endpoint of a peer (called once per peer, on
     *                      first use)
     * @param maxOperations size of the operation table
     * @param maxIov        most entries of a gather or scatter list
     */
    public RdmaEmulation(CompletionHandler downstream, int worldSize, int maxEager,
                         IntFunction<Endpoint> rawEndpoints, int maxOperations, int maxIov) {
        if (maxEager < 2 * EmulationWire.MAX_HEADER_LENGTH) {
            throw new IllegalArgumentException("maxEager " + maxEager + " is too small for the"
                    + " emulation (at least " + 2 * EmulationWire.MAX_HEADER_LENGTH + ")");
        }
        if (maxOperations <= 0 || maxIov <= 0) {
            throw new IllegalArgumentException("maxOperations and maxIov must be positive");
        }
        this.downstream = downstream;
        this.rawEndpoints = rawEndpoints;
        this.maxEager = maxEager;
        this.maxIov = maxIov;
        this.endpoints = new EmulatedEndpoint[worldSize];
        this.pumpList = new EmulatedEndpoint[worldSize];
        this.sender = new EmulationSender(maxEager);
        this.handler = new EmulationHandler(this, downstream, registrations, worldSize);
        this.ops = new EmulationOp[maxOperations];
        this.freeIds = new int[maxOperations];
        for (int i = maxOperations - 1; i >= 0; i--) {
            ops[i] = new EmulationOp(i, maxIov);
            freeIds[freeCount++] = i;
        }
        for (int i = 0; i < REPLY_POOL; i++) {
            releaseReply(new EmulationOp(-1, 1));
        }
        this.laterWrIds = new long[maxOperations];
        this.escapeBuffer = MemorySegment.ofArray(new byte[maxEager]);
    }

    /**
     * For a transport that reads a byte stream: the destination of the data of the emulation
     * message whose first {@code headLength} bytes are at {@code at} of {@code head} (the whole
     * message is {@code length} bytes), so that it can receive the data straight into place;
     * null when the message must be delivered whole through {@link #handler()}. The data starts
     * at {@link #dataOffset} bytes into the message. Once all of it is in place the transport
     * calls {@link #placed} with the header, before it delivers anything else from that peer.
     */
    public MemorySegment placement(int source, MemorySegment head, long at, long headLength,
                                   long length) {
        return handler.placement(source, head, at, headLength, length);
    }

    /** Where the data of the message starting at {@code at} of {@code head} begins. */
    public static int dataOffset(MemorySegment head, long at) {
        return EmulationWire.headerLength(head.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at));
    }

    /** Most header bytes {@link #placement} needs to decide. */
    public static final int PLACEMENT_HEAD = EmulationWire.CHUNK_HEADER_LENGTH;

    /**
     * The smallest runtime message (not emulated RDMA data) a stream transport is asked to read
     * straight into place ({@link CompletionHandler#placement}); smaller ones are read whole into
     * its receive buffer and copied out, as before placing (the buffer grows to hold such a
     * frame, at most twice the eager limit). Placing costs one more read system call per
     * message, which below this size costs more than the copy: tcp on loopback, 2 ranks,
     * alternated jobs without the AOT cache (2026-11-28), 16 and 32 KiB eager ping-pongs took
     * 1.2-2.4x as long placed from 2 KiB or 32 KiB; with 64 KiB every size up to 32 KiB is at the
     * unplaced figure again, and 64 KiB-1 MiB keep what placing gains.
     */
    public static final int MESSAGE_PLACEMENT_MIN = 64 << 10;

    /** The data of a message {@link #placement} placed has all arrived: finish the message. */
    public void placed(int source, MemorySegment head, long at, long length) {
        handler.placed(source, head, at, length);
    }

    /** The handler to give the underlying transport's receive path. */
    public CompletionHandler handler() {
        return handler;
    }

    /** The emulating endpoint to world rank {@code peer} (made on first use). */
    public EmulatedEndpoint endpoint(int peer) {
        EmulatedEndpoint e = endpoints[peer];
        if (e == null) {
            e = new EmulatedEndpoint(this, rawEndpoints.apply(peer));
            endpoints[peer] = e;
        }
        return e;
    }

    /** The registrations targets check accesses against. */
    public RegistrationTable registrations() {
        return registrations;
    }

    /** What {@code Transport.register(segment, access)} delegates to. */
    public MemoryRegistration register(MemorySegment segment, int access) {
        return registrations.register(segment, access);
    }

    /** The capability record of the wrapped transport ({@link EmulatedCapabilities#of}). */
    public Capabilities capabilities(Capabilities raw) {
        return EmulatedCapabilities.of(raw, maxOperations(), maxIov);
    }

    /**
     * Delivers deferred completions and pumps the backlogs. The transport calls it from its own
     * progress; returns the work done (0 when idle).
     */
    public int progress() {
        int work = 0;
        if (laterCount > 0) {
            work += laterCount;
            for (int i = 0; i < laterCount; i++) {
                downstream.onComplete(laterWrIds[i], CompletionStatus.OK);
            }
            laterCount = 0;
        }
        for (int i = 0; i < pumpCount; ) {
            EmulatedEndpoint e = pumpList[i];
            if (e.head != null) {
                pump(e);
            }
            if (e.head == null) {
                e.listed = false;
                pumpList[i] = pumpList[--pumpCount];
                pumpList[pumpCount] = null;
                work++;
            } else {
                i++;
            }
        }
        return work;
    }

    /** Operations posted and not yet completed, over all peers. */
    public int operationsInFlight() {
        return ops.length - freeCount;
    }

    /** True when no backlog waits and no completion is deferred (nothing to pump). */
    public boolean idle() {
        return pumpCount == 0 && laterCount == 0;
    }

    public int maxOperations() {
        return ops.length;
    }

    public int maxIov() {
        return maxIov;
    }

    public int maxEager() {
        return maxEager;
    }

    // ------------------------------------------------------------------ package

    CompletionHandler downstream() {
        return downstream;
    }

    EmulationOp takeOp() {
        return freeCount == 0 ? null : ops[freeIds[--freeCount]];
    }

    EmulationOp takeReply() {
        EmulationOp op = spareReplies;
        if (op == null) {
            return new EmulationOp(-1, 1); // only under back-pressure, beyond the pool
        }
        spareReplies = op.next;
        op.next = null;
        return op;
    }

    private void releaseReply(EmulationOp op) {
        op.clear();
        op.next = spareReplies;
        spareReplies = op;
    }

    /** The initiator operation a reply names, checked against the replying peer. */
    EmulationOp initiatorOp(int id, int source, byte kind) {
        EmulationOp op = id >= 0 && id < ops.length ? ops[id] : null;
        if (op == null || op.endpoint == null || op.endpoint.peer() != source || !op.sent
                || (kind != 0 && op.kind != kind)) {
            throw new IllegalStateException("rank " + source + " answered emulated operation "
                    + id + ", which is not one of its operations in flight");
        }
        return op;
    }

    /** {@link #initiatorOp}, or null where it would throw (placement leaves those to it). */
    EmulationOp initiatorOpOrNull(int id, int source, byte kind) {
        EmulationOp op = id >= 0 && id < ops.length ? ops[id] : null;
        if (op == null || op.endpoint == null || op.endpoint.peer() != source || !op.sent
                || (kind != 0 && op.kind != kind)) {
            return null;
        }
        return op;
    }

    /** Completes an initiator operation: frees its id first, so the callback may post again. */
    void complete(EmulationOp op, int status) {
        final long wrId = op.wrId;
        final EmulatedEndpoint endpoint = op.endpoint;
        op.clear();
        freeIds[freeCount++] = op.id;
        downstream.onComplete(wrId, status);
        endpoint.operationCompleted();
    }

    boolean completeLater(long wrId) {
        if (laterCount == laterWrIds.length) {
            return false;
        }
        laterWrIds[laterCount++] = wrId;
        return true;
    }

    /** Appends to the endpoint's backlog; posts at once when nothing waited before it. */
    void enqueue(EmulatedEndpoint endpoint, EmulationOp op) {
        if (endpoint.tail == null) {
            endpoint.head = op;
        } else {
            endpoint.tail.next = op;
        }
        endpoint.tail = op;
        if (endpoint.head == op) {
            pump(endpoint);
        }
        if (endpoint.head != null && !endpoint.listed) {
            endpoint.listed = true;
            pumpList[pumpCount++] = endpoint;
        }
    }

    /** Posts the endpoint's backlog in order while the underlying endpoint accepts; true when empty. */
    boolean pump(EmulatedEndpoint endpoint) {
        final Endpoint raw = endpoint.raw();
        EmulationOp op;
        while ((op = endpoint.head) != null) {
            if (!sender.advance(raw, op)) {
                return false;
            }
            endpoint.head = op.next;
            if (endpoint.head == null) {
                endpoint.tail = null;
            }
            op.next = null;
            if (op.id >= 0) {
                op.sent = true; // stays in the table until the target's answer
            } else {
                releaseReply(op);
            }
        }
        return true;
    }

    /** Sends an ACK to {@code peer} now if nothing waits before it, else through the backlog. */
    void reply(int peer, byte kind, int peerOpId, int status, long value) {
        EmulatedEndpoint endpoint = endpoint(peer);
        if (endpoint.head == null) {
            boolean sent = kind == EmulationOp.REPLY_ACK
                    ? sender.sendAck(endpoint.raw(), peerOpId, status)
                    : sender.sendAtomicResult(endpoint.raw(), peerOpId, value);
            if (sent) {
                return;
            }
        }
        EmulationOp op = takeReply();
        op.kind = kind;
        op.peerOpId = peerOpId;
        op.status = status;
        op.operand = value;
        enqueue(endpoint, op);
    }

    /** Answers a read with READ_DATA chunks of {@code length} bytes of {@code segment}. */
    void replyRead(int peer, int peerOpId, MemorySegment segment, long offset, long length) {
        EmulationOp op = takeReply();
        op.kind = EmulationOp.REPLY_READ_DATA;
        op.peerOpId = peerOpId;
        op.addEntry(segment, offset, length);
        enqueue(endpoint(peer), op);
    }

    /** A user message that begins with a reserved byte: sent behind an ESCAPE byte. */
    int sendEscaped(Endpoint raw, MemorySegment header, MemorySegment payload) {
        long headerLength = header.byteSize();
        if (headerLength + 1 > escapeBuffer.byteSize()) {
            throw new IllegalArgumentException("message of " + (headerLength + payload.byteSize())
                    + " bytes is longer than maxEager - 1 = " + (maxEager - 1));
        }
        escapeBuffer.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 0, EmulationWire.ESCAPE);
        MemorySegment.copy(header, 0, escapeBuffer, 1, headerLength);
        return raw.send(escapeBuffer.asSlice(0, headerLength + 1), payload);
    }

    /** The peer is gone: completes its operations with PEER_GONE, drops its backlog. */
    void peerFailed(int peer) {
        EmulatedEndpoint endpoint = endpoints[peer];
        if (endpoint == null) {
            return;
        }
        EmulationOp op = endpoint.head;
        while (op != null) {
            EmulationOp next = op.next;
            op.next = null;
            if (op.id < 0) {
                releaseReply(op);
            }
            op = next;
        }
        endpoint.head = null;
        endpoint.tail = null;
        long[] flushes = new long[EmulatedEndpoint.FLUSHES];
        int n = endpoint.drainFlushes(flushes);
        for (EmulationOp o : ops) {
            if (o.endpoint == endpoint) {
                complete(o, CompletionStatus.PEER_GONE);
            }
        }
        for (int i = 0; i < n; i++) {
            downstream.onComplete(flushes[i], CompletionStatus.PEER_GONE);
        }
    }
}
