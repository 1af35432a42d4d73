package org.verbatim.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.verbatim.spi.Capability;
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

    private final Engine engine;
    private final RequestTable table;
    private final StagingPool pool;
    private final int maxInFlight;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment cts = arena.allocate(WireHeader.CTS_SIZE, 8);
    private final MemorySegment empty = MemorySegment.ofArray(new byte[0]);
    /** Receives whose CTS the transport refused for now. */
    private RecvOp[] ctsRetry = new RecvOp[8];
    private int ctsRetryCount;
    /** Sends with writes the transport refused for now. */
    private SendOp[] writeRetry = new SendOp[8];
    private int writeRetryCount;

    PutRendezvous(Engine engine, RequestTable table, StagingPool pool, int maxInFlight) {
        this.engine = engine;
        this.table = table;
        this.pool = pool;
        this.maxInFlight = Math.max(1, maxInFlight);
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
            engine.fail("rank " + engine.worldRank() + ": transport " + p.transport.name()
                    + " offers no RDMA write for the RPUT rendezvous from rank " + p.world);
        }
        long n = r.matchRendezvous(p, src, tag, length, senderRequest);
        if (n == 0) {
            engine.sendControl(p, WireHeader.FIN, senderRequest);
            r.finish(src, tag, 0, r.statusError);
            return;
        }
        MemorySegment target;
        if (r.data.isNative()) {
            target = r.data.asSlice(0, n);
        } else {
            r.staging = pool.acquire(n);
            target = r.staging;
        }
        r.registration = p.transport.register(target);
        r.id = table.add(r);
        if (!postCts(r)) {
            addCtsRetry(r);
        }
    }

    private boolean postCts(RecvOp r) {
        int immediate = immediateFor(r.id);
        WireHeader.write(cts, WireHeader.CTS, immediate == 0 ? WireHeader.FLAG_PUT_FIN : 0, 0, 0,
                immediate, r.bytesToRead, r.senderRequest);
        WireHeader.writeRemote(cts, r.registration.address(), r.registration.remoteKey());
        WireHeader.writeReceiverRequest(cts, r.id);
        return r.peer.endpoint.send(cts, empty) == PostStatus.OK;
    }

    /** A write-with-immediate landed; true if it closed an RPUT. */
    boolean onImmediate(int source, int immediate) {
        if ((immediate & IMMEDIATE_MARK) == 0) {
            return false;
        }
        long id = table.currentId(immediate & SLOT_MASK);
        if (id < 0 || ((int) (id >>> 32) & GENERATION_MASK) != (immediate >>> SLOT_BITS & GENERATION_MASK)
                || !(table.get(id) instanceof RecvOp r) || r.registration == null) {
            engine.fail("rank " + engine.worldRank() + ": RPUT immediate 0x"
                    + Integer.toHexString(immediate) + " from rank " + source
                    + " names no receive in progress");
            return true;
        }
        land(r);
        return true;
    }

    /** A PUT_FIN arrived: the data of receive {@code id} is in place. */
    void onPutFin(int source, long id) {
        if (!(table.get(id) instanceof RecvOp r) || r.registration == null) {
            engine.fail("rank " + engine.worldRank() + ": PUT_FIN from rank " + source
                    + " names no receive in progress");
            return;
        }
        land(r);
    }

    private void land(RecvOp r) {
        table.remove(r.id);
        r.registration.close();
        r.registration = null;
        if (r.staging != null) {
            MemorySegment.copy(r.staging, 0, r.data, 0, r.bytesToRead);
            pool.release(r.staging);
            r.staging = null;
        }
        r.finish(r.statusSource, r.statusTag, r.bytesToRead, r.statusError);
    }

    // ------------------------------------------------------------------ sender

    /** The receiver's CTS: write the data into its buffer. */
    void onCts(int source, MemorySegment m, long at) {
        long senderRequest = WireHeader.request(m, at);
        if (!(table.get(senderRequest) instanceof SendOp s) || s.phase != SendOp.Phase.WAIT_CTS) {
            engine.fail("rank " + engine.worldRank() + ": CTS from rank " + source
                    + " names no RPUT send in progress");
            return;
        }
        s.remoteAddress = WireHeader.address(m, at);
        s.remoteKey = WireHeader.remoteKey(m, at);
        s.bytesToWrite = Math.min(WireHeader.length(m, at), s.data.byteSize());
        s.writeOffset = 0;
        s.chunksOutstanding = 0;
        s.immediate = WireHeader.tag(m, at);
        s.receiverRequest = WireHeader.receiverRequest(m, at);
        s.finByMessage = (WireHeader.flags(m, at) & WireHeader.FLAG_PUT_FIN) != 0
                || !s.peer.transport.capabilities().has(Capability.WRITE_WITH_IMMEDIATE);
        s.phase = SendOp.Phase.WRITING;
        if (s.bytesToWrite == 0) {
            finishSend(s);
            return;
        }
        postWrites(s);
    }

    private void postWrites(SendOp s) {
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
                addWriteRetry(s);
                return;
            }
            s.writeOffset += len;
            s.chunksOutstanding++;
        }
    }

    /** One write of send {@code s} completed locally. */
    void onWriteComplete(SendOp s) {
        s.chunksOutstanding--;
        if (s.writeOffset < s.bytesToWrite) {
            postWrites(s);
            return;
        }
        if (s.chunksOutstanding == 0) {
            finishSend(s);
        }
    }

    private void finishSend(SendOp s) {
        table.remove(s.id);
        if (s.finByMessage) {
            engine.sendControl(s.peer, WireHeader.PUT_FIN, s.receiverRequest);
        }
        engine.releaseRendezvous(s);
        s.finish();
    }

    // ------------------------------------------------------------------ retries

    /** Re-posts refused CTS messages and writes; returns the work done. */
    int retry() {
        int work = 0;
        if (ctsRetryCount > 0) {
            int n = ctsRetryCount;
            int kept = 0;
            for (int i = 0; i < n; i++) {
                RecvOp r = ctsRetry[i];
                if (postCts(r)) {
                    work++;
                } else {
                    ctsRetry[kept++] = r;
                }
            }
            Arrays.fill(ctsRetry, kept, n, null);
            ctsRetryCount = kept;
        }
        if (writeRetryCount > 0) {
            int n = writeRetryCount;
            SendOp[] batch = Arrays.copyOf(writeRetry, n);
            Arrays.fill(writeRetry, 0, n, null);
            writeRetryCount = 0;
            for (SendOp s : batch) {
                postWrites(s);
            }
            work += n - writeRetryCount;
        }
        return work;
    }

    private void addCtsRetry(RecvOp r) {
        if (ctsRetryCount == ctsRetry.length) {
            ctsRetry = Arrays.copyOf(ctsRetry, ctsRetryCount * 2);
        }
        ctsRetry[ctsRetryCount++] = r;
    }

    private void addWriteRetry(SendOp s) {
        for (int i = 0; i < writeRetryCount; i++) {
            if (writeRetry[i] == s) {
                return;
            }
        }
        if (writeRetryCount == writeRetry.length) {
            writeRetry = Arrays.copyOf(writeRetry, writeRetryCount * 2);
        }
        writeRetry[writeRetryCount++] = s;
    }

    @Override
    public void close() {
        arena.close();
    }
}
