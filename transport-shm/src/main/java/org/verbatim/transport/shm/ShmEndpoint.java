package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.RecordDescriptor.HEADER_LENGTH;

import java.lang.foreign.MemorySegment;
import org.verbatim.spi.EagerClaim;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.IoVector;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.WorkList;
import org.verbatim.spi.support.SmallCopy;

/**
 * The way to one same-host peer: its inbox ring (mapped at open) and the queue of operations
 * owed to it that did not fit yet. While that queue is not empty, eager sends and claims return
 * RETRY so that nothing overtakes what was posted before.
 */
final class ShmEndpoint implements Endpoint {
    /** Consecutive RETRYs after which a send checks that the peer is still alive. */
    private static final int RETRY_STREAK_CHECK = 1024;

    private final ShmTransport transport;
    private final int peer;
    final int pid;
    final MpscRing ring;
    /** The peer's key table, to check CMA operations against its registrations. */
    final KeyTable keys;
    /** The source this process writes into the peer's inbox: its world rank, or its pid-based source there. */
    final int source;
    private final int maxEager;
    private final InboxClaim claimOwner;

    RdmaOp backlogHead;
    RdmaOp backlogTail;
    /** True while this endpoint is on the list of endpoints with a backlog. */
    boolean pumping;
    /** Initiator operations towards this peer still waiting for their answer. */
    int outstanding;
    private int retryStreak;

    ShmEndpoint(ShmTransport transport, int peer, int pid, MpscRing ring, KeyTable keys, int source,
                int maxEager) {
        this.transport = transport;
        this.peer = peer;
        this.pid = pid;
        this.ring = ring;
        this.keys = keys;
        this.source = source;
        this.maxEager = maxEager;
        this.claimOwner = new InboxClaim(ring, source);
    }

    @Override
    public int peer() {
        return peer;
    }

    @Override
    public int send(MemorySegment header, MemorySegment payload) {
        final long headerLength = header.byteSize();
        final long total = headerLength + payload.byteSize();
        if (total > maxEager) {
            throw new IllegalArgumentException("eager message of " + total
                    + " bytes exceeds maxEager " + maxEager);
        }
        if (backlogHead != null && !transport.pump(this)) {
            return retry();
        }
        final int recordLength = HEADER_LENGTH + (int) total;
        final long offset = ring.claim(recordLength);
        if (offset == MpscRing.FULL) {
            return retry();
        }
        final MemorySegment buffer = ring.buffer();
        if (total <= SmallCopy.MAX && header.isNative() && payload.isNative()
                && payload.scope().isAlive()) {
            // the record [offset, offset + recordLength) is ours; the header is the runtime's,
            // the payload the caller's, native memory of these lengths, alive (checked)
            final long to = buffer.address() + offset + HEADER_LENGTH;
            SmallCopy.copy(header.address(), to, (int) headerLength);
            SmallCopy.copy(payload.address(), to + headerLength, (int) (total - headerLength));
        } else {
            MemorySegment.copy(header, 0, buffer, offset + HEADER_LENGTH, headerLength);
            MemorySegment.copy(payload, 0, buffer, offset + HEADER_LENGTH + headerLength,
                    payload.byteSize());
        }
        ring.commit(offset, RecordDescriptor.TYPE_MESSAGE, source, recordLength);
        retryStreak = 0;
        return PostStatus.OK;
    }

    @Override
    public int claim(int length, EagerClaim claim) {
        if (length < 0 || length > maxEager) {
            throw new IllegalArgumentException("eager claim of " + length
                    + " bytes outside [0, maxEager " + maxEager + "]");
        }
        if (backlogHead != null && !transport.pump(this)) {
            return retry();
        }
        final long record = ring.claim(HEADER_LENGTH + length);
        if (record == MpscRing.FULL) {
            return retry();
        }
        claim.wrap(claimOwner, ring.buffer(), record + HEADER_LENGTH, length, record);
        retryStreak = 0;
        return PostStatus.OK;
    }

    @Override
    public int write(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        return transport.write(this, local, null, remoteAddress, remoteKey, false, 0, wrId);
    }

    @Override
    public int writeWithImmediate(MemorySegment local, long remoteAddress, long remoteKey,
                                  int immediate, long wrId) {
        return transport.write(this, local, null, remoteAddress, remoteKey, true, immediate, wrId);
    }

    @Override
    public int read(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        return transport.read(this, local, null, remoteAddress, remoteKey, wrId);
    }

    @Override
    public int writeGather(IoVector local, long remoteAddress, long remoteKey, long wrId) {
        return transport.write(this, null, local, remoteAddress, remoteKey, false, 0, wrId);
    }

    @Override
    public int writeGatherWithImmediate(IoVector local, long remoteAddress, long remoteKey,
                                        int immediate, long wrId) {
        return transport.write(this, null, local, remoteAddress, remoteKey, true, immediate, wrId);
    }

    @Override
    public int readScatter(IoVector local, long remoteAddress, long remoteKey, long wrId) {
        return transport.read(this, null, local, remoteAddress, remoteKey, wrId);
    }

    @Override
    public int postList(WorkList list, int from) {
        return transport.postList(this, list, from);
    }

    @Override
    public int fetchAndAdd(MemorySegment result, long remoteAddress, long remoteKey, long add,
                           long wrId) {
        return transport.atomic(this, result, ShmAtomics.FETCH_AND_ADD, remoteAddress, remoteKey,
                add, 0, wrId);
    }

    @Override
    public int compareAndSwap(MemorySegment result, long remoteAddress, long remoteKey,
                              long expected, long desired, long wrId) {
        return transport.atomic(this, result, ShmAtomics.COMPARE_AND_SWAP, remoteAddress,
                remoteKey, expected, desired, wrId);
    }

    @Override
    public int flush(long wrId) {
        return transport.flush(this, wrId);
    }

    /** A post could not go out: count it, and now and then make sure the peer still lives. */
    int retry() {
        if (++retryStreak % RETRY_STREAK_CHECK == 0) {
            transport.checkPeerIfDue(peer);
        }
        return PostStatus.RETRY;
    }

    void enqueue(RdmaOp op) {
        op.next = null;
        if (backlogTail == null) {
            backlogHead = op;
        } else {
            backlogTail.next = op;
        }
        backlogTail = op;
    }

    RdmaOp dequeue() {
        RdmaOp op = backlogHead;
        backlogHead = op.next;
        if (backlogHead == null) {
            backlogTail = null;
        }
        op.next = null;
        return op;
    }

    @Override
    public String toString() {
        return "ShmEndpoint[peer=" + peer + ", pid=" + pid + "]";
    }
}
