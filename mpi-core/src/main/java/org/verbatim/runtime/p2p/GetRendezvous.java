package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.RequestTable;
import org.verbatim.runtime.base.StagingPool;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.PostStatus;

/**
 * RGET, the receiver's side: a matched RTS names the sender's registered data; the receiver reads
 * it in chunks of the transport's largest RDMA size, up to the peer's read window at once, into
 * the receive buffer (or a native staging buffer when the receive buffer is heap memory or a
 * layout, unpacked at the end), then answers FIN. A read that completes with an error ends the
 * receive with MPI_ERR_OTHER and tells the sender with a flagged FIN.
 */
final class GetRendezvous {
    private final ProtocolContext context;
    private final PointToPoint owner;
    private final RequestTable table;
    private final StagingPool pool;

    GetRendezvous(ProtocolContext context, PointToPoint owner) {
        this.context = context;
        this.owner = owner;
        this.table = context.table();
        this.pool = context.pool();
    }

    /** Starts reading the data of a matched RTS into {@code r}. */
    void start(RecvOp r, PeerState p, int src, int tag, long length, long address, long key,
               long senderRequest) {
        if (!p.transport.capabilities().has(org.verbatim.spi.Capability.RDMA_READ)) {
            throw context.fail("rank " + context.worldRank() + ": transport " + p.transport.name()
                    + " offers no RDMA read for the rendezvous from rank " + p.world);
        }
        long n = r.matchRendezvous(p, src, tag, length, senderRequest);
        r.remoteAddress = address;
        r.remoteKey = key;
        r.readOffset = 0;
        r.transferError = 0;
        if (n == 0) {
            owner.sendControl(p, WireHeader.FIN, 0, senderRequest);
            r.finish(src, tag, 0, r.error());
            return;
        }
        if (r.needsStaging()) {
            r.staging = pool.acquire(n);
        }
        r.id = table.add(r);
        postReads(r);
    }

    /** Posts as many chunks as the window allows; false (and pending) when one was refused. */
    boolean postReads(RecvOp r) {
        MemorySegment target = r.staging != null ? r.staging : r.data;
        PeerState p = r.peer;
        while (r.readOffset < r.bytesToRead && r.chunksOutstanding < p.readWindow) {
            long len = Math.min(p.maxRdma, r.bytesToRead - r.readOffset);
            int st = p.endpoint.read(target.asSlice(r.readOffset, len),
                    r.remoteAddress + r.readOffset, r.remoteKey, r.id);
            if (st != PostStatus.OK) {
                owner.makePending(r);
                return false;
            }
            r.readOffset += len;
            r.chunksOutstanding++;
        }
        return true;
    }

    /** One chunk of {@code r} completed with {@code status}. */
    void onReadComplete(RecvOp r, int status) {
        r.chunksOutstanding--;
        if (status != CompletionStatus.OK && r.transferError == 0) {
            r.transferError = status;
            r.bytesToRead = r.readOffset; // read nothing more
        }
        if (r.readOffset < r.bytesToRead) {
            postReads(r);
            return;
        }
        if (r.chunksOutstanding > 0) {
            return;
        }
        table.remove(r.id);
        boolean failed = r.transferError != 0;
        if (r.staging != null) {
            if (!failed) {
                r.deliver(r.staging, 0, r.bytesToRead);
            }
            pool.release(r.staging);
            r.staging = null;
        }
        owner.sendControl(r.peer, WireHeader.FIN, failed ? WireHeader.FLAG_ERROR : 0,
                r.senderRequest);
        r.finish(r.source(), r.tag(), r.bytesToRead, failed ? ErrorClass.ERR_OTHER : r.error());
    }
}
