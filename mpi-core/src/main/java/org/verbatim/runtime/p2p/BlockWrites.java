package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.spi.WorkList;

/**
 * The sender's side of the multi-w scheme: an RPUT whose data is not one contiguous range on both
 * sides. The message is cut into pieces contiguous on both sides (the sender's blocks walked
 * against the receiver's blocks from its CTS, or against its contiguous buffer), each piece one
 * RDMA write, listed in a {@link WorkList} and posted with one {@code postList} per batch (one
 * chain of work requests on verbs, one {@code process_vm_writev} per run over shared memory).
 * The last piece carries the closing immediate unless the RPUT closes with PUT_FIN. A list the
 * transport takes only in part is resumed where it stopped from the pending queue.
 *
 * <p>Also the CTS's block list: the receiver's blocks that take the first {@code n} bytes,
 * as (address, length) pairs of longs after the CTS header.
 */
final class BlockWrites {
    /** Pieces listed per post. */
    static final int BATCH = 64;
    /** Pieces in flight per send. */
    static final int WINDOW = 256;
    /** Bytes of one (address, length) pair in a CTS. */
    static final int PAIR_SIZE = 16;

    private final PointToPoint owner;
    /** Pieces listed per post: {@link #BATCH}, or 1 for single posts. */
    private final int batch;

    /** {@code listPost} false: one post per piece (the paper's single post, for comparison). */
    BlockWrites(PointToPoint owner, boolean listPost) {
        this.owner = owner;
        this.batch = listPost ? BATCH : 1;
    }

    /** Sets {@code s} up for block writes after its CTS: cursors on both sides, a work list. */
    static void begin(SendOp s, BlockCursor remote) {
        s.localCursor = new BlockCursor(s.layout, 0);
        s.remoteCursor = remote;
        s.work = new WorkList(BATCH);
        s.workFrom = 0;
    }

    /** The receiver's blocks of a CTS that carries them; null if the list is malformed. */
    static BlockList decode(MemorySegment m, long at, long length, long expectedBytes) {
        long body = length - WireHeader.CTS_SIZE;
        if (body <= 0 || body % PAIR_SIZE != 0) {
            return null;
        }
        int k = (int) (body / PAIR_SIZE);
        long[] addresses = new long[k];
        long[] lengths = new long[k];
        long total = 0;
        for (int i = 0; i < k; i++) {
            long p = at + WireHeader.CTS_SIZE + (long) i * PAIR_SIZE;
            addresses[i] = m.get(WireHeader.LONG, p);
            lengths[i] = m.get(WireHeader.LONG, p + 8);
            if (addresses[i] < 0 || lengths[i] < 0) {
                return null;
            }
            total += lengths[i];
        }
        return total == expectedBytes ? new BlockList(addresses, lengths) : null;
    }

    /**
     * The (address, length) pairs of the blocks of {@code layout} that take the first {@code n}
     * bytes of a message, the base registered at {@code address}, into a segment from
     * {@code alloc} (the last block cut short where the message ends).
     */
    static MemorySegment encode(Layout layout, long n, long address,
                                java.util.function.LongFunction<MemorySegment> alloc) {
        int k = 0;
        long left = n;
        for (int i = 0, c = layout.blockCount(); i < c && left > 0; i++) {
            long len = layout.blockLength(i);
            if (len > 0) {
                k++;
                left -= Math.min(len, left);
            }
        }
        MemorySegment out = alloc.apply((long) k * PAIR_SIZE).asSlice(0, (long) k * PAIR_SIZE);
        left = n;
        long at = 0;
        for (int i = 0, c = layout.blockCount(); i < c && left > 0; i++) {
            long len = Math.min(layout.blockLength(i), left);
            if (len > 0) {
                out.set(ValueLayout.JAVA_LONG_UNALIGNED, at, address + layout.blockOffset(i));
                out.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 8, len);
                at += PAIR_SIZE;
                left -= len;
            }
        }
        return out;
    }

    /** True while pieces of {@code s} remain to be listed or posted. */
    static boolean morePending(SendOp s) {
        return s.workFrom < s.work.count() || s.writeOffset < s.bytesToWrite;
    }

    /** Stops listing pieces of {@code s} (a write failed): only those in flight complete. */
    static void abandon(SendOp s) {
        s.workFrom = s.work.count();
        s.bytesToWrite = s.writeOffset;
    }

    /**
     * Posts what the window allows: the rest of the current list, then new lists. False (and
     * pending) when the transport took a list only in part.
     */
    boolean post(SendOp s) {
        PeerState p = s.peer;
        while (true) {
            WorkList w = s.work;
            if (s.workFrom < w.count()) {
                int posted = p.endpoint.postList(w, s.workFrom);
                s.workFrom += posted;
                s.chunksOutstanding += posted;
                if (s.workFrom < w.count()) {
                    owner.makePending(s);
                    return false;
                }
            }
            if (s.writeOffset >= s.bytesToWrite || s.chunksOutstanding >= WINDOW) {
                return true;
            }
            list(s, p);
        }
    }

    /** Lists the next pieces of {@code s}, as many as fit the window and the batch. */
    private void list(SendOp s, PeerState p) {
        WorkList w = s.work.clear();
        s.workFrom = 0;
        MemorySegment source = s.registration.segment();
        int room = Math.min(batch, WINDOW - s.chunksOutstanding);
        BlockCursor local = s.localCursor;
        BlockCursor remote = s.remoteCursor;
        while (room-- > 0 && s.writeOffset < s.bytesToWrite) {
            long len = Math.min(Math.min(local.leftInBlock(), remote.leftInBlock()),
                    Math.min(p.maxRdma, s.bytesToWrite - s.writeOffset));
            MemorySegment piece = source.asSlice(local.position(), len);
            long to = remote.position();
            s.writeOffset += len;
            if (s.writeOffset == s.bytesToWrite && !s.finByMessage) {
                w.writeWithImmediate(piece, to, s.remoteKey, s.immediate, s.id);
            } else {
                w.write(piece, to, s.remoteKey, s.id);
            }
            local.advance(len);
            remote.advance(len);
        }
    }
}
