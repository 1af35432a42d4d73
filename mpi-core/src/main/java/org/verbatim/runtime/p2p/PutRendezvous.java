package org.verbatim.runtime.p2p;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.RequestTable;
import org.verbatim.runtime.base.StagingPool;
import org.verbatim.spi.Access;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.PostStatus;

/**
 * The RPUT rendezvous: the receiver, once matched, registers its buffer and answers the RTS
 * with a CTS carrying address, key, the accepted length and a 32-bit token; the sender
 * RDMA-writes the data in chunks ({@code verbatim.core.reads-in-flight} in flight) and closes
 * with a write-with-immediate carrying the token, or, when its transport lacks
 * WRITE_WITH_IMMEDIATE (or the token does not fit), with a PUT_FIN message once every write has
 * completed locally. The send completes when its writes have completed locally; the receive
 * when the immediate or PUT_FIN arrives (the transport delivers it after the data).
 *
 * <pre>
 *  sender                         receiver
 *    RTS (FLAG_RPUT) ───────────>  match, register buffer
 *                    <─────────── CTS (address, key, length, token, receiver id)
 *    write ... write+imm(token) ─> onImmediate: data in place, receive complete
 *    (or write ... PUT_FIN(receiver id))
 * </pre>
 *
 * Runs under the engine lock, like the rest of the engine.
 */
final class PutRendezvous implements AutoCloseable {
    /** Bit 31 marks the immediates of RPUT; the others are left to other protocols. */
    static final int IMMEDIATE_MARK = 0x8000_0000;
    private static final int SLOT_BITS = 20;
    private static final int SLOT_MASK = (1 << SLOT_BITS) - 1;
    private static final int GENERATION_MASK = 0x7FF;

    private final ProtocolContext context;
    private final PointToPoint owner;
    private final RequestTable table;
    private final StagingPool pool;
    private final int maxInFlight;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment cts = arena.allocate(WireHeader.CTS_SIZE, 8);
    private final MemorySegment empty = MemorySegment.ofArray(new byte[0]);
    private final BlockWrites blockWrites;
    private final CtsLayouts layouts = new CtsLayouts();

    PutRendezvous(ProtocolContext context, PointToPoint owner, int maxInFlight) {
        this.context = context;
        this.owner = owner;
        this.table = context.table();
        this.pool = context.pool();
        this.maxInFlight = Math.max(1, maxInFlight);
        this.blockWrites = new BlockWrites(owner);
    }

    /** The immediate that closes the RPUT of receive {@code id}, or 0 when it does not fit. */
    static int immediateFor(long id) {
        int slot = (int) id;
        if ((slot & ~SLOT_MASK) != 0) {
            return 0;
        }
        int generation = (int) (id >>> 32) & GENERATION_MASK;
        return IMMEDIATE_MARK | generation << SLOT_BITS | slot;
    }

    // ------------------------------------------------------------------ receiver

    /** A matched RTS asking for RPUT: register the buffer and send the CTS. */
    void start(RecvOp r, PeerState p, int src, int tag, long length, long senderRequest) {
        if (!p.transport.capabilities().has(Capability.RDMA_WRITE)) {
            throw context.fail("rank " + context.worldRank() + ": transport "
                    + p.transport.name() + " offers no RDMA write for the RPUT rendezvous from rank "
                    + p.world);
        }
        long n = r.matchRendezvous(p, src, tag, length, senderRequest);
        if (n == 0) {
            owner.sendControl(p, WireHeader.FIN, 0, senderRequest);
            r.finish(src, tag, 0, r.error());
            return;
        }
        MemorySegment target;
        long maxBody = p.transport.capabilities().maxEager() - WireHeader.CTS_SIZE;
        boolean reference = false;
        boolean blocks = false;
        if (r.layout != null && p.selection.blocksInCts(r.layout, r.data.isNative())) {
            reference = CtsLayouts.byReference(r.layout, maxBody);
            blocks = reference || r.layout.blockCount() <= maxBody / BlockWrites.PAIR_SIZE;
        }
        if (blocks) {
            // multi-w: the sender writes into the blocks themselves; the CTS lists them
            target = r.data.asSlice(0, r.layout.extent());
        } else if (!r.needsStaging()) {
            target = r.data.asSlice(0, n);
        } else {
            r.staging = pool.acquire(n);
            target = r.staging;
        }
        r.registration = p.transport.register(target, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        if (blocks && !reference) {
            r.ctsBlocks = BlockWrites.encode(r.layout, n, r.registration.address(), pool::acquire);
        }
        r.ctsReference = reference;
        r.id = table.add(r);
        r.ctsPending = true;
        retryCts(r);
    }

    /** Posts the CTS of {@code r}; false (and queued as pending) when refused for now. */
    boolean retryCts(RecvOp r) {
        if (postCts(r)) {
            r.ctsPending = false;
            if (r.ctsBlocks != null) {
                pool.release(r.ctsBlocks);
                r.ctsBlocks = null;
            }
            return true;
        }
        owner.makePending(r);
        return false;
    }

    private boolean postCts(RecvOp r) {
        int immediate = immediateFor(r.id);
        int flags = (immediate == 0 ? WireHeader.FLAG_PUT_FIN : 0)
                | (r.ctsBlocks != null ? WireHeader.FLAG_LAYOUT : 0)
                | (r.ctsReference ? WireHeader.FLAG_LAYOUT | WireHeader.FLAG_LAYOUT_REF : 0);
        WireHeader.write(cts, WireHeader.CTS, (byte) flags, 0, 0, immediate, r.bytesToRead,
                r.senderRequest);
        WireHeader.writeRemote(cts, r.registration.address(), r.registration.remoteKey());
        WireHeader.writeReceiverRequest(cts, r.id);
        if (!r.ctsReference) {
            return r.peer.endpoint.send(cts, r.ctsBlocks != null ? r.ctsBlocks : empty)
                    == PostStatus.OK;
        }
        // multi-w by reference: the layout itself only if this sender does not hold it yet,
        // decided at the post that goes out (posts to one peer arrive in order)
        TypeLayout layout = (TypeLayout) r.layout;
        int peer = r.peer.world;
        long body = layouts.bodySize(peer, layout);
        MemorySegment out = pool.acquire(body);
        try {
            layouts.encode(peer, layout, r.registration.address(), out);
            if (r.peer.endpoint.send(cts, out) != PostStatus.OK) {
                return false;
            }
            layouts.posted(peer, layout, body > CtsLayouts.REF_SIZE);
            return true;
        } finally {
            pool.release(out);
        }
    }

    /** A write-with-immediate landed; true if it closed an RPUT. */
    boolean onImmediate(int source, int immediate) {
        if ((immediate & IMMEDIATE_MARK) == 0) {
            return false;
        }
        long id = table.currentId(immediate & SLOT_MASK);
        if (id < 0 || ((int) (id >>> 32) & GENERATION_MASK) != (immediate >>> SLOT_BITS & GENERATION_MASK)
                || !(table.get(id) instanceof RecvOp r) || r.registration == null) {
            throw context.fail("rank " + context.worldRank() + ": RPUT immediate 0x"
                    + Integer.toHexString(immediate) + " from rank " + source
                    + " names no receive in progress");
        }
        land(r, 0);
        return true;
    }

    /** A PUT_FIN arrived: the data of receive {@code id} is in place (or, flagged, failed). */
    void onPutFin(int source, long id, int flags) {
        if (!(table.get(id) instanceof RecvOp r) || r.registration == null) {
            throw context.fail("rank " + context.worldRank() + ": PUT_FIN from rank " + source
                    + " names no receive in progress");
        }
        land(r, flags);
    }

    private void land(RecvOp r, int flags) {
        table.remove(r.id);
        r.registration.close();
        r.registration = null;
        boolean failed = (flags & WireHeader.FLAG_ERROR) != 0;
        if (r.staging != null) {
            if (!failed) {
                r.deliver(r.staging, 0, r.bytesToRead);
            }
            pool.release(r.staging);
            r.staging = null;
        }
        r.finish(r.source(), r.tag(), failed ? 0 : r.bytesToRead,
                failed ? ErrorClass.ERR_OTHER : r.error());
    }

    // ------------------------------------------------------------------ sender

    /** The receiver's CTS: write the data into its buffer. */
    void onCts(int source, MemorySegment m, long at, long length) {
        long senderRequest = WireHeader.request(m, at);
        if (!(table.get(senderRequest) instanceof SendOp s) || s.phase != SendOp.Phase.WAIT_CTS) {
            throw context.fail("rank " + context.worldRank() + ": CTS from rank " + source
                    + " names no RPUT send in progress");
        }
        s.remoteAddress = WireHeader.address(m, at);
        s.remoteKey = WireHeader.remoteKey(m, at);
        long accepted = WireHeader.length(m, at);
        s.bytesToWrite = Math.min(accepted, s.messageBytes);
        s.writeOffset = 0;
        s.chunksOutstanding = 0;
        s.immediate = WireHeader.tag(m, at);
        s.receiverRequest = WireHeader.receiverRequest(m, at);
        s.finByMessage = (WireHeader.flags(m, at) & WireHeader.FLAG_PUT_FIN) != 0
                || !s.peer.transport.capabilities().has(Capability.WRITE_WITH_IMMEDIATE);
        int ctsFlags = WireHeader.flags(m, at);
        if ((ctsFlags & WireHeader.FLAG_LAYOUT_REF) != 0) {
            BlockCursor remote = layouts.decode(source, m, at + WireHeader.CTS_SIZE,
                    length - WireHeader.CTS_SIZE, s.bytesToWrite);
            if (remote == null) {
                throw context.fail("rank " + context.worldRank() + ": CTS from rank " + source
                        + " names a layout that is malformed, too small or not held here");
            }
            BlockWrites.begin(s, remote);
        } else if ((ctsFlags & WireHeader.FLAG_LAYOUT) != 0) {
            BlockList blocks = BlockWrites.decode(m, at, length, accepted);
            if (blocks == null) {
                throw context.fail("rank " + context.worldRank() + ": CTS from rank " + source
                        + " carries a malformed block list");
            }
            BlockWrites.begin(s, new BlockCursor(blocks, 0));
        } else if (s.layout != null) {
            BlockWrites.begin(s, new BlockCursor(null, s.remoteAddress));
        }
        s.phase = SendOp.Phase.WRITING;
        if (s.bytesToWrite == 0) {
            finishSend(s);
            return;
        }
        postWrites(s);
    }

    /** Posts as many writes as the window allows; false (and pending) when one was refused. */
    boolean postWrites(SendOp s) {
        if (s.work != null) {
            return blockWrites.post(s);
        }
        MemorySegment source = s.registration.segment();
        PeerState p = s.peer;
        while (s.writeOffset < s.bytesToWrite && s.chunksOutstanding < maxInFlight) {
            long len = Math.min(p.maxRdma, s.bytesToWrite - s.writeOffset);
            boolean last = s.writeOffset + len == s.bytesToWrite;
            MemorySegment chunk = source.asSlice(s.writeOffset, len);
            long to = s.remoteAddress + s.writeOffset;
            int st = last && !s.finByMessage
                    ? p.endpoint.writeWithImmediate(chunk, to, s.remoteKey, s.immediate, s.id)
                    : p.endpoint.write(chunk, to, s.remoteKey, s.id);
            if (st != PostStatus.OK) {
                owner.makePending(s);
                return false;
            }
            s.writeOffset += len;
            s.chunksOutstanding++;
        }
        return true;
    }

    /** One write of send {@code s} completed locally with {@code status}. */
    void onWriteComplete(SendOp s, int status) {
        s.chunksOutstanding--;
        if (status != CompletionStatus.OK && s.writeError == 0) {
            s.writeError = status;
            if (s.work != null) {
                BlockWrites.abandon(s);
            }
            s.bytesToWrite = s.writeOffset; // post nothing more
        }
        if (s.work != null ? BlockWrites.morePending(s) : s.writeOffset < s.bytesToWrite) {
            postWrites(s);
            return;
        }
        if (s.chunksOutstanding == 0) {
            finishSend(s);
        }
    }

    private void finishSend(SendOp s) {
        table.remove(s.id);
        boolean failed = s.writeError != 0;
        if (s.finByMessage || failed) {
            owner.sendControl(s.peer, WireHeader.PUT_FIN, failed ? WireHeader.FLAG_ERROR : 0,
                    s.receiverRequest);
        }
        owner.releaseRendezvous(s);
        if (failed) {
            s.fail(ErrorClass.ERR_OTHER);
        } else {
            s.finish();
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
