package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.IoVector;
import org.verbatim.spi.WorkList;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;
import org.verbatim.verbs.QueuePair;
import org.verbatim.verbs.SendRequest;

/**
 * The way to one peer: its RC queue pair, the pre-built send work request patched per post, the
 * outstanding send work requests ({@link OutstandingRequests}: a moderated, signalled completion
 * frees everything posted before it), the send/receive credits (ardma-sr) and the RDMA fast-path
 * state in both directions. The one-sided operations (RDMA, gather and scatter lists, chained
 * lists, atomics, flush) are posted by its {@link RdmaOperations}.
 */
public final class VerbsEndpoint implements Endpoint {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    final int peer;
    /** Replaced only while the connection is not up ({@link VerbsEngine#replaceQueuePair}). */
    QueuePair qp;
    final OutstandingRequests requests;
    private final VerbsEngine t;
    private final SendRequest wr;
    private final RdmaOperations rdma;
    /** Posts one-sided requests again after the connection was re-established. */
    private final SendRequest replayWr;
    private int unsignalled;
    boolean failed;
    /** Posts are refused (RETRY): the connection is not set up yet, it failed, or it is in error. */
    boolean blocked = true;
    /** The connection is still being set up (by the transport's connection management). */
    boolean connecting = true;
    /**
     * The connection is being re-established after its queue pair went to error (an error
     * completion that did not mean the peer is gone): posts are refused with RETRY until
     * {@link VerbsEngine#ready}.
     */
    boolean recovering;
    /** Recovering, and waiting for every posted request to come back flushed. */
    boolean draining;
    long drainGrace;
    /** The drain's marker request is posted (see {@link #postMarker}). */
    boolean markerPosted;
    long drainDeadline;
    /** Why the queue pair went to error last (for messages). */
    String error;
    /** Per-connection receive buffers (ardma-sr): their slab and how many are posted now. */
    int slab = -1;
    int receivesPosted;
    /** The peer's RC queue pair number, once known. */
    int remoteQpn;

    /** ardma-sr: credits for this side's data, and counting of the peer's consumed data. */
    final CreditAccount sr;

    // fast path, sending side (the peer offered us a ring)
    private long ringAddress;
    private int ringKey;
    private int ringSlots;
    private int ringSlotSize;
    private long ringWrites;
    private CreditAccount ringCredits;
    boolean startPending;

    // fast path, receiving side (we offered the peer a ring)
    long messagesIn;
    FastPathRing inbound;
    boolean inboundStarted;
    boolean offerPending;

    VerbsEndpoint(VerbsEngine transport, int peer, QueuePair qp, Arena arena, int depth) {
        this.t = transport;
        this.peer = peer;
        this.qp = qp;
        this.requests = new OutstandingRequests(depth, transport.readsCompleteOutOfOrder);
        this.wr = new SendRequest(arena, 1);
        this.rdma = new RdmaOperations(transport, this, arena);
        this.replayWr = new SendRequest(arena, 1);
        this.sr = transport.options.channel().sharedReceiveQueue() ? null
                : new CreditAccount(transport.options.srBuffers() - CreditAccount.CONTROL_RESERVE);
    }

    @Override
    public int peer() {
        return peer;
    }

    /** The RC queue pair of this connection. */
    public QueuePair queuePair() {
        return qp;
    }

    /** The peer's queue pair number, once the connection is set up (0 before). */
    public int remoteQpn() {
        return remoteQpn;
    }

    /** Records the peer's queue pair number (the transport's connection management). */
    public void remoteQpn(int qpn) {
        this.remoteQpn = qpn;
    }

    /** True until {@link VerbsEngine#ready} (both sides can receive). */
    public boolean connecting() {
        return connecting;
    }

    // ------------------------------------------------------------------ eager

    @Override
    public int send(MemorySegment header, MemorySegment payload) {
        int length = (int) (header.byteSize() + payload.byteSize());
        if (length > t.maxEager) {
            throw new IllegalArgumentException("eager message of " + length + " bytes exceeds maxEager "
                    + t.maxEager);
        }
        if (blocked || !requests.room(1)) {
            return refused();
        }
        if (startPending && sendControl(EagerControl.RING_START, 0, null) != PostStatus.OK) {
            return retry();
        }
        if (ringCredits != null && !startPending) {
            return sendOnRing(header, payload, length);
        }
        if (sr != null && !sr.tryConsume()) {
            t.control.flush(this);
            return retry();
        }
        // in band, the word returns the credits owed to the peer (InBandControl)
        int returned = sr != null && t.inBand ? sr.takeReturn() : 0;
        int word = returned > 0 ? EagerControl.DATA_CREDIT << EagerControl.SHIFT | returned : InBandControl.DATA;
        int status = post(IBV_WR_SEND, word, header, payload, length, 0, 0, 0, -1);
        if (status != PostStatus.OK && sr != null) {
            sr.grant(1);
            if (returned > 0) {
                sr.untake(returned);
            }
        }
        if (status == PostStatus.OK) {
            t.counters.messagesSent++;
        }
        return status;
    }

    private int sendOnRing(MemorySegment header, MemorySegment payload, int length) {
        if (!ringCredits.tryConsume()) {
            return retry();
        }
        int slot = FastPathDescriptor.slot(ringWrites, ringSlots);
        int total = length + FastPathDescriptor.FOOTER;
        long remote = ringAddress + (long) slot * ringSlotSize + ringSlotSize - total;
        int tag = FastPathDescriptor.tag(ringWrites, ringSlots);
        // piggyback the credits of the reverse direction: our ring's consumed slots
        int returned = inbound != null ? inbound.credits.takeReturn() : 0;
        int status = post(IBV_WR_RDMA_WRITE, 0, header, payload, length, remote, ringKey, tag, returned);
        if (status != PostStatus.OK) {
            ringCredits.grant(1);
            if (returned > 0) {
                inbound.credits.untake(returned);
            }
            return status;
        }
        ringWrites++;
        t.counters.messagesSent++;
        return PostStatus.OK;
    }

    /**
     * A transport control message: send with immediate {@code type << 28 | value}, with an
     * optional small payload (the ring offer). Not charged to credits (the receiver's reserve).
     */
    int sendControl(int type, int value, MemorySegment payload) {
        if (blocked || !requests.room(1)) {
            return PostStatus.RETRY;
        }
        MemorySegment body = payload == null ? MemorySegment.NULL : payload;
        int status = post(t.inBand ? IBV_WR_SEND : IBV_WR_SEND_WITH_IMM, (type << EagerControl.SHIFT) | value, body,
                MemorySegment.NULL, (int) body.byteSize(), 0, 0, 0, -1);
        if (status == PostStatus.OK && type == EagerControl.RING_START) {
            startPending = false;
        }
        return status;
    }

    /**
     * Copies header and payload (plus the fast-path footer when {@code footerCredits >= 0}: the
     * credits it returns, the length and {@code footerTag}) inline or into a send buffer and
     * posts. Small sends go inline and are signalled one in {@code signal-interval}; buffered ones
     * are signalled so their buffer comes back.
     */
    private int post(int opcode, int immediate, MemorySegment header, MemorySegment payload, int length,
                     long remote, int rkey, int footerTag, int footerCredits) {
        boolean footer = footerCredits >= 0;
        // without immediate data a send starts with the control word (0: data), see InBandControl
        int word = t.inBand && opcode == IBV_WR_SEND ? InBandControl.WORD : 0;
        int total = word + length + (footer ? FastPathDescriptor.FOOTER : 0);
        boolean inline = total <= t.maxInline;
        MemorySegment target;
        int buffer = -1;
        if (inline) {
            target = t.inlineScratch;
        } else {
            buffer = t.sendBuffers.take();
            if (buffer < 0) {
                return retry();
            }
            target = t.sendBuffers.segment(buffer);
        }
        if (word > 0) {
            target.set(INT, 0, immediate);
        }
        long h = header.byteSize();
        MemorySegment.copy(header, 0, target, word, h);
        MemorySegment.copy(payload, 0, target, word + h, payload.byteSize());
        if (footer) {
            target.set(INT, length, footerCredits);
            target.set(INT, length + 4, length);
            target.set(INT, length + 8, footerTag);
        }
        boolean signal = !inline || unsignalled >= t.options.signalInterval() - 1;
        int flags = (signal ? IBV_SEND_SIGNALED : 0) | (inline ? IBV_SEND_INLINE : 0);
        int lkey = inline ? 0 : t.sendBuffers.lkey();
        long seq = requests.next();
        wr.operation(seq, opcode, flags).entry(0, target.address(), total, lkey).entries(total == 0 ? 0 : 1);
        if (opcode == IBV_WR_RDMA_WRITE) {
            wr.remote(remote, rkey);
        } else if (opcode == IBV_WR_SEND_WITH_IMM) {
            wr.immediate(immediate);
        }
        int rc = qp.post(wr);
        if (rc != 0) {
            if (buffer >= 0) {
                t.sendBuffers.give(buffer);
            }
            return t.postFailed(this, rc);
        }
        record(seq, OutstandingRequests.BUFFER, buffer, 0, null, signal);
        return PostStatus.OK;
    }

    // ------------------------------------------------------------------ one-sided

    @Override
    public int write(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        return rdma.single(IBV_WR_RDMA_WRITE, local, remoteAddress, remoteKey, 0, wrId);
    }

    @Override
    public int writeWithImmediate(MemorySegment local, long remoteAddress, long remoteKey, int immediate,
                                  long wrId) {
        return rdma.single(IBV_WR_RDMA_WRITE_WITH_IMM, local, remoteAddress, remoteKey, immediate, wrId);
    }

    @Override
    public int read(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        return rdma.single(IBV_WR_RDMA_READ, local, remoteAddress, remoteKey, 0, wrId);
    }

    @Override
    public int writeGather(IoVector local, long remoteAddress, long remoteKey, long wrId) {
        return rdma.vector(IBV_WR_RDMA_WRITE, local, remoteAddress, remoteKey, 0, wrId);
    }

    @Override
    public int writeGatherWithImmediate(IoVector local, long remoteAddress, long remoteKey, int immediate,
                                        long wrId) {
        return rdma.vector(IBV_WR_RDMA_WRITE_WITH_IMM, local, remoteAddress, remoteKey, immediate, wrId);
    }

    @Override
    public int readScatter(IoVector local, long remoteAddress, long remoteKey, long wrId) {
        return rdma.vector(IBV_WR_RDMA_READ, local, remoteAddress, remoteKey, 0, wrId);
    }

    @Override
    public int postList(WorkList list, int from) {
        return rdma.list(list, from);
    }

    @Override
    public int fetchAndAdd(MemorySegment result, long remoteAddress, long remoteKey, long add, long wrId) {
        return rdma.atomic(IBV_WR_ATOMIC_FETCH_AND_ADD, result, remoteAddress, remoteKey, add, 0, wrId);
    }

    @Override
    public int compareAndSwap(MemorySegment result, long remoteAddress, long remoteKey, long expected,
                              long desired, long wrId) {
        return rdma.atomic(IBV_WR_ATOMIC_CMP_AND_SWP, result, remoteAddress, remoteKey, expected, desired, wrId);
    }

    @Override
    public int flush(long wrId) {
        return rdma.flush(wrId);
    }

    // ------------------------------------------------------------------ completions

    /**
     * Records posted request {@code seq} in {@link #requests} and counts its signal: an
     * unsignalled request waits for a later signalled one.
     */
    void record(long seq, byte kind, int buffer, long userId, MemoryRegistration hold, boolean signalled) {
        record(seq, kind, buffer, userId, hold, signalled, false);
    }

    /** {@link #record} of an RDMA read, atomic or flush ({@code read}), which takes a read slot. */
    void record(long seq, byte kind, int buffer, long userId, MemoryRegistration hold, boolean signalled,
                boolean read) {
        requests.record(seq, kind, buffer, userId, hold, read);
        unsignalled = signalled ? 0 : unsignalled + 1;
        if (signalled) {
            t.signalledOutstanding++;
        }
    }

    /** A signalled send work request {@code seq} completed: everything up to it is done. */
    int completed(long seq) {
        return requests.retire(seq, CompletionStatus.OK, t.sendBuffers, t.handler);
    }

    /**
     * Send work request {@code seq} completed with {@code status} ({@link CompletionStatus}, not
     * OK): the queue pair is in error. One-sided operations get their status; returns true when
     * an eager or control message was lost with it.
     */
    boolean failedRequest(long seq, int status) {
        int r = requests.retire(seq, status, t.sendBuffers, t.handler);
        int refunds = requests.takeRefunds();
        if (refunds > 0 && sr != null) {
            sr.grant(refunds);
        }
        return (r & OutstandingRequests.LOST) != 0;
    }

    /**
     * Posts again, in order, the one-sided requests the queue pair flushed when it went to error
     * ({@link ReplayLog}); the connection is back (RTS). Returns false if the device refused one.
     */
    boolean postReplays() {
        ReplayLog log = requests.replays;
        while (log.pending() > 0 && requests.room(1)) {
            long seq = requests.next();
            int length = log.length();
            // a zero-length read keeps one empty sink entry where the device needs it (oneReadSink)
            boolean entry = length >= 0 || (log.read() && t.oneReadSink);
            replayWr.operation(seq, log.opcode(), log.flags())
                    .entry(0, length < 0 ? 0 : log.local(), Math.max(0, length), length < 0 ? 0 : log.lkey())
                    .entries(entry ? 1 : 0).remote(log.remote(), log.rkey());
            if (length < 0 && log.read() && t.readTargets != null) {
                // or goes as a one-byte read where empty reads are answered wrongly (ReadTargets)
                t.readTargets.zeroLengthRead(replayWr, peer, log.remote(), log.rkey());
            }
            if (qp.post(replayWr) != 0) {
                return false;
            }
            record(seq, OutstandingRequests.USER, -1, log.userId(), log.hold(), true, log.read());
            requests.replays.log(seq, log.opcode(), log.flags(), log.local(), length, log.lkey(), log.remote(),
                    log.rkey());
            log.pop();
        }
        return log.pending() == 0;
    }

    /** Send work requests not yet known complete. */
    long outstanding() {
        return requests.outstanding();
    }

    /**
     * A post found the endpoint blocked (connecting, recovering or failed) or its send queue
     * full: RETRY.
     */
    int refused() {
        return retry();
    }

    /**
     * Posts a signalled zero-length request behind everything outstanding on the queue pair, which
     * is in error: its flushed completion comes after every other one, so when it is back, every
     * earlier request is known done (an unsignalled one that completed before the error leaves no
     * completion of its own). Returns false if the device refused it.
     */
    boolean postMarker() {
        long seq = requests.next();
        wr.operation(seq, IBV_WR_RDMA_WRITE, IBV_SEND_SIGNALED).entries(0).remote(0, 0);
        if (qp.post(wr) != 0) {
            return false;
        }
        record(seq, OutstandingRequests.MARKER, -1, 0, null, true);
        return true;
    }

    /** Whether a one-sided post may go out now ({@code n} requests). */
    boolean mayPost(int n) {
        return !blocked && requests.room(n);
    }

    /**
     * Whether one more RDMA read, atomic or flush may be outstanding: the advertised
     * {@code readsInFlight} is a bound the endpoint keeps (a protocol may rely on a short post),
     * not a hint the device's queue would absorb.
     */
    boolean mayRead() {
        return requests.readsOutstanding() < t.capabilities().readsInFlight();
    }

    /** The send/receive credits (ardma-sr) for a write with immediate, which consumes a receive. */
    boolean takeReceiveCredit() {
        if (sr != null && !sr.tryConsume()) {
            t.control.flush(this);
            return false;
        }
        return true;
    }

    void returnReceiveCredit() {
        if (sr != null) {
            sr.grant(1);
        }
    }

    int retry() {
        t.counters.retries++;
        return PostStatus.RETRY;
    }

    // ------------------------------------------------------------------ fast path set-up

    /** The peer offered us its ring: switch to it after one RING_START on the old channel. */
    void ringOffered(long address, int key, int slots, int slotSize) {
        ringAddress = address;
        ringKey = key;
        ringSlots = slots;
        ringSlotSize = slotSize;
        ringCredits = new CreditAccount(slots);
        startPending = true;
    }

    void ringCredit(int n) {
        ringCredits.grant(n);
    }

    boolean usesFastPath() {
        return ringCredits != null;
    }

    /** The offer message body: ring address, key, slots, slot size. */
    static void encodeOffer(MemorySegment into, FastPathRing ring) {
        into.set(LONG, 0, ring.address());
        into.set(INT, 8, ring.rkey());
        into.set(INT, 12, ring.slots());
        into.set(INT, 16, ring.slotSize());
    }

    static final int OFFER_LENGTH = 20;

    void decodeOffer(MemorySegment from, long offset) {
        ringOffered(from.get(LONG, offset), from.get(INT, offset + 8), from.get(INT, offset + 12),
                from.get(INT, offset + 16));
    }
}
