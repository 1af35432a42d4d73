package org.verbatim.spi;

import static org.verbatim.spi.ReferenceFabric.COMPARE_AND_SWAP;
import static org.verbatim.spi.ReferenceFabric.FETCH_AND_ADD;
import static org.verbatim.spi.ReferenceFabric.FLUSH;
import static org.verbatim.spi.ReferenceFabric.MAX_EAGER;
import static org.verbatim.spi.ReferenceFabric.MAX_IOV;
import static org.verbatim.spi.ReferenceFabric.MAX_LIST;
import static org.verbatim.spi.ReferenceFabric.READ;
import static org.verbatim.spi.ReferenceFabric.WRITE;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.spi.ReferenceFabric.Defect;
import org.verbatim.spi.ReferenceFabric.Message;
import org.verbatim.spi.ReferenceFabric.Op;

/** The way from one {@link ReferenceNode} to a peer: every operation of the SPI. */
final class ReferenceEndpoint implements Endpoint, EagerClaim.Owner {
    private final ReferenceFabric fabric;
    private final ReferenceNode node;
    private final int peer;
    private MemorySegment claimed;

    ReferenceEndpoint(ReferenceFabric fabric, ReferenceNode node, int peer) {
        this.fabric = fabric;
        this.node = node;
        this.peer = peer;
    }

    @Override
    public int peer() {
        return peer;
    }

    @Override
    public int send(MemorySegment header, MemorySegment payload) {
        long n = header.byteSize() + payload.byteSize();
        if (n > MAX_EAGER) {
            throw new IllegalArgumentException(n + " bytes exceed maxEager " + MAX_EAGER);
        }
        if (!node.reserve(peer)) {
            return PostStatus.RETRY;
        }
        byte[] m = new byte[(int) n];
        MemorySegment.copy(header, 0, MemorySegment.ofArray(m), 0, header.byteSize());
        MemorySegment.copy(payload, 0, MemorySegment.ofArray(m), header.byteSize(), payload.byteSize());
        node.job.inboxes[peer].add(new Message(node.rank, m));
        return PostStatus.OK;
    }

    @Override
    public int claim(int length, EagerClaim claim) {
        if (length > MAX_EAGER) {
            throw new IllegalArgumentException(length + " bytes exceed maxEager " + MAX_EAGER);
        }
        if (!node.reserve(peer)) {
            return PostStatus.RETRY;
        }
        claimed = MemorySegment.ofArray(new byte[length + 13]);
        claim.wrap(this, claimed, 13, length, 0);
        return PostStatus.OK;
    }

    @Override
    public void commit(EagerClaim claim) {
        // the claim's own accessors refuse once it is no longer active: use what we handed out
        byte[] m = claimed.asSlice(13, claim.length()).toArray(ValueLayout.JAVA_BYTE);
        claimed = null;
        node.job.inboxes[peer].add(new Message(node.rank, m));
    }

    @Override
    public void abort(EagerClaim claim) {
        if (fabric.defects.contains(Defect.ABORT_DELIVERS)) {
            commit(claim);
        } else {
            claimed = null;
            node.job.messages[peer].decrementAndGet();
        }
    }

    private Op op(int kind, long remoteAddress, long remoteKey, long wrId, MemorySegment... local) {
        for (MemorySegment s : local) {
            if (!s.isNative()) {
                throw new IllegalArgumentException("RDMA needs native memory");
            }
        }
        Op op = new Op();
        op.kind = kind;
        op.local = local;
        op.remoteAddress = remoteAddress;
        op.remoteKey = remoteKey;
        op.wrId = wrId;
        return op;
    }

    @Override
    public int write(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        return node.post(peer, op(WRITE, remoteAddress, remoteKey, wrId, local));
    }

    @Override
    public int writeWithImmediate(MemorySegment local, long remoteAddress, long remoteKey, int immediate,
                                  long wrId) {
        Op op = op(WRITE, remoteAddress, remoteKey, wrId, local);
        op.withImmediate = true;
        op.immediate = immediate;
        return node.post(peer, op);
    }

    @Override
    public int read(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        return node.post(peer, op(READ, remoteAddress, remoteKey, wrId, local));
    }

    private MemorySegment[] entries(IoVector v) {
        if (v.count() > MAX_IOV) {
            throw new IllegalArgumentException(v.count() + " entries exceed maxIov " + MAX_IOV);
        }
        int n = fabric.defects.contains(Defect.GATHER_DROPS_LAST_ENTRY) && v.count() > 1 ? v.count() - 1 : v.count();
        MemorySegment[] entries = new MemorySegment[n];
        for (int i = 0; i < n; i++) {
            entries[i] = v.segment(i).asSlice(v.offset(i), v.length(i));
        }
        return entries;
    }

    @Override
    public int writeGather(IoVector local, long remoteAddress, long remoteKey, long wrId) {
        return node.post(peer, op(WRITE, remoteAddress, remoteKey, wrId, entries(local)));
    }

    @Override
    public int writeGatherWithImmediate(IoVector local, long remoteAddress, long remoteKey, int immediate,
                                        long wrId) {
        Op op = op(WRITE, remoteAddress, remoteKey, wrId, entries(local));
        op.withImmediate = true;
        op.immediate = immediate;
        return node.post(peer, op);
    }

    @Override
    public int readScatter(IoVector local, long remoteAddress, long remoteKey, long wrId) {
        return node.post(peer, op(READ, remoteAddress, remoteKey, wrId, entries(local)));
    }

    @Override
    public int postList(WorkList list, int from) {
        if (list.count() - from > MAX_LIST) {
            throw new IllegalArgumentException((list.count() - from) + " requests exceed maxListPost");
        }
        int posted = list.postEach(this, from);
        if (fabric.defects.contains(Defect.LIST_COMPLETES_TWICE)) {
            for (int i = from; i < from + posted; i++) {
                node.completeAgain(list.wrId(i));
            }
        }
        return posted;
    }

    @Override
    public int fetchAndAdd(MemorySegment result, long remoteAddress, long remoteKey, long add, long wrId) {
        Op op = op(FETCH_AND_ADD, remoteAddress, remoteKey, wrId, result);
        op.operand = add;
        return node.post(peer, op);
    }

    @Override
    public int compareAndSwap(MemorySegment result, long remoteAddress, long remoteKey, long expected,
                              long desired, long wrId) {
        Op op = op(COMPARE_AND_SWAP, remoteAddress, remoteKey, wrId, result);
        op.operand = expected;
        op.desired = desired;
        return node.post(peer, op);
    }

    @Override
    public int flush(long wrId) {
        return node.post(peer, op(FLUSH, 0, 0, wrId));
    }
}
