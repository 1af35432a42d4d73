package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.RequestTable;
import org.verbatim.runtime.base.StagingPool;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.IoVector;
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
    /** Scatter list of one read (p-rrs); filled and posted under the lock, read during the post. */
    private final IoVector scatter = new IoVector(SCATTER_ENTRIES);
    /**
     * Most entries of one scatter read (the transport's own limit may be lower): Linux's IOV_MAX,
     * so that over cross-memory attach a vector of up to a thousand blocks is one system call.
     */
    private static final int SCATTER_ENTRIES = 1024;

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
        if (r.layout != null && p.selection.scatterReads(r.layout, r.data.isNative())) {
            r.cursor = new BlockCursor(r.layout, 0); // p-rrs: read straight into the blocks
        } else if (r.needsStaging()) {
            r.staging = pool.acquire(n);
        }
        r.id = table.add(r);
        postReads(r);
    }

    /** Posts as many chunks as the window allows; false (and pending) when one was refused. */
    boolean postReads(RecvOp r) {
        if (r.cursor != null) {
            return postScatterReads(r);
        }
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

    /**
     * p-rrs: each read takes one contiguous range of the sender's data into as many of the
     * receive buffer's blocks as one scatter list holds.
     */
    private boolean postScatterReads(RecvOp r) {
        PeerState p = r.peer;
        var caps = p.transport.capabilities();
        int entries = caps.has(Capability.READ_SCATTER)
                ? Math.max(1, Math.min(SCATTER_ENTRIES, caps.get().maxIov())) : 1;
        BlockCursor cursor = r.cursor;
        while (r.readOffset < r.bytesToRead && r.chunksOutstanding < p.readWindow) {
            long limit = Math.min(p.maxRdma, r.bytesToRead - r.readOffset);
            cursor.mark();
            scatter.clear();
            long len = 0;
            while (len < limit && scatter.count() < entries) {
                long piece = Math.min(cursor.leftInBlock(), limit - len);
                scatter.add(r.data, cursor.position(), piece);
                cursor.advance(piece);
                len += piece;
            }
            long from = r.remoteAddress + r.readOffset;
            int st = scatter.count() == 1
                    ? p.endpoint.read(r.data.asSlice(scatter.offset(0), len), from, r.remoteKey, r.id)
                    : p.endpoint.readScatter(scatter, from, r.remoteKey, r.id);
            scatter.clear();
            if (st != PostStatus.OK) {
                cursor.reset();
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
