package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;
import org.verbatim.verbs.QueuePair;
import org.verbatim.verbs.SendRequest;

/**
 * The way to one peer: its RC queue pair, the pre-built send work request patched per post, the
 * ring of outstanding send work requests (so a moderated, signalled completion frees everything
 * posted before it: RC completes in order), the send/receive credits (ardma-sr) and the RDMA
 * fast-path state in both directions.
 */
public final class VerbsEndpoint implements Endpoint {
    static final byte KIND_NONE = 0;
    static final byte KIND_BUFFER = 1;
    static final byte KIND_USER = 2;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    final int peer;
    final QueuePair qp;
    private final VerbsEngine t;
    private final SendRequest wr;
    private final int depth;
    private final long[] userIds;
    private final int[] buffers;
    private final byte[] kinds;
    private final MemoryRegistration[] holds;
    private long head;
    private long tail;
    private int unsignalled;
    boolean failed;
    /** Posts are refused (RETRY): the connection is not set up yet, or it failed. */
    boolean blocked = true;
    /** The connection is still being set up (by the transport's connection management). */
    boolean connecting = true;
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
        this.depth = depth;
        this.wr = new SendRequest(arena, 1);
        this.userIds = new long[depth];
        this.buffers = new int[depth];
        this.kinds = new byte[depth];
        this.holds = new MemoryRegistration[depth];
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
        if (length > t.options.eagerSize()) {
            throw new IllegalArgumentException("eager message of " + length + " bytes exceeds maxEager "
                    + t.options.eagerSize());
        }
        if (blocked || head - tail >= depth - 1) {
            return retry();
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
        int status = post(IBV_WR_SEND, 0, header, payload, length, 0, 0, 0, -1);
        if (status != PostStatus.OK && sr != null) {
            sr.grant(1);
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
        if (blocked || head - tail >= depth - 1) {
            return PostStatus.RETRY;
        }
        MemorySegment body = payload == null ? MemorySegment.NULL : payload;
        int status = post(IBV_WR_SEND_WITH_IMM, (type << EagerControl.SHIFT) | value, body,
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
        int total = length + (footer ? FastPathDescriptor.FOOTER : 0);
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
        long h = header.byteSize();
        MemorySegment.copy(header, 0, target, 0, h);
        MemorySegment.copy(payload, 0, target, h, payload.byteSize());
        if (footer) {
            target.set(INT, length, footerCredits);
            target.set(INT, length + 4, length);
            target.set(INT, length + 8, footerTag);
        }
        boolean signal = !inline || unsignalled >= t.options.signalInterval() - 1;
        int flags = (signal ? IBV_SEND_SIGNALED : 0) | (inline ? IBV_SEND_INLINE : 0);
        int lkey = inline ? 0 : t.sendBuffers.lkey();
        long seq = head;
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
        record(seq, KIND_BUFFER, buffer, 0, signal);
        return PostStatus.OK;
    }

    // ------------------------------------------------------------------ RDMA

    @Override
    public int write(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        return rdma(IBV_WR_RDMA_WRITE, local, remoteAddress, remoteKey, 0, wrId);
    }

    @Override
    public int writeWithImmediate(MemorySegment local, long remoteAddress, long remoteKey, int immediate,
                                  long wrId) {
        if (sr != null && !sr.tryConsume()) {
            t.control.flush(this);
            return retry();
        }
        int status = rdma(IBV_WR_RDMA_WRITE_WITH_IMM, local, remoteAddress, remoteKey, immediate, wrId);
        if (status != PostStatus.OK && sr != null) {
            sr.grant(1);
        }
        return status;
    }

    @Override
    public int read(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        return rdma(IBV_WR_RDMA_READ, local, remoteAddress, remoteKey, 0, wrId);
    }

    private int rdma(int opcode, MemorySegment local, long remoteAddress, long remoteKey, int immediate,
                     long wrId) {
        if (blocked || head - tail >= depth - 1) {
            return retry();
        }
        long length = local.byteSize();
        if (length > t.capabilities().maxRdma()) {
            throw new IllegalArgumentException("RDMA of " + length + " bytes exceeds maxRdma");
        }
        int lkey = 0;
        MemoryRegistration held = null;
        boolean inline = opcode != IBV_WR_RDMA_READ && length <= t.maxInline;
        if (length > 0 && !inline) {
            lkey = t.lkeyOrMinusOne(local);
            if (lkey == -1) {
                // The runtime may hand unregistered native memory (a receive buffer as RDMA read
                // target): register it through the cache for the operation's lifetime.
                held = t.register(local, org.verbatim.spi.Access.ALL);
                lkey = t.lkeyOrMinusOne(local);
            }
        }
        long seq = head;
        int flags = IBV_SEND_SIGNALED | (inline ? IBV_SEND_INLINE : 0);
        wr.operation(seq, opcode, flags).entry(0, local.address(), (int) length, lkey)
                .entries(length == 0 ? 0 : 1).remote(remoteAddress, (int) remoteKey);
        if (opcode == IBV_WR_RDMA_WRITE_WITH_IMM) {
            wr.immediate(immediate);
        }
        int rc = qp.post(wr);
        if (rc != 0) {
            if (held != null) {
                held.close();
            }
            return t.postFailed(this, rc);
        }
        record(seq, KIND_USER, -1, wrId, true);
        holds[(int) (seq & (depth - 1))] = held;
        return PostStatus.OK;
    }

    // ------------------------------------------------------------------ completions

    private void record(long seq, byte kind, int buffer, long userId, boolean signalled) {
        int i = (int) (seq & (depth - 1));
        kinds[i] = buffer < 0 && kind == KIND_BUFFER ? KIND_NONE : kind;
        buffers[i] = buffer;
        userIds[i] = userId;
        head = seq + 1;
        unsignalled = signalled ? 0 : unsignalled + 1;
        if (signalled) {
            t.signalledOutstanding++;
        }
    }

    /** A signalled send work request {@code seq} completed: everything up to it is done. */
    int completed(long seq) {
        int work = 0;
        while (tail <= seq && tail < head) {
            int i = (int) (tail & (depth - 1));
            tail++;
            byte kind = kinds[i];
            if (kind == KIND_BUFFER) {
                t.sendBuffers.give(buffers[i]);
            } else if (kind == KIND_USER) {
                if (holds[i] != null) {
                    holds[i].close();
                    holds[i] = null;
                }
                t.handler.onComplete(userIds[i]);
            }
            work++;
        }
        return work;
    }

    /** Send work requests not yet known complete. */
    long outstanding() {
        return head - tail;
    }

    private int retry() {
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
