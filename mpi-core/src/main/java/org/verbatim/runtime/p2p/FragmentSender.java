package org.verbatim.runtime.p2p;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.Profiler;
import org.verbatim.spi.EagerClaim;
import org.verbatim.spi.PostStatus;

/**
 * The sending half of the fragmented eager protocol for layouts
 * ({@link SelectionTable.Protocol#EAGER_FRAGMENTS}): a message above the eager limit is packed
 * fragment by fragment straight into eager records claimed from the transport (over shm: the
 * receiver's inbox ring), each fragment through the message's resumable {@link LayoutCursor}.
 * No staging copy, no RTS/FIN round trip, no system call; the receiver unpacks fragment k while
 * this side packs fragment k+1 (as MPICH's shared-memory cells carry noncontiguous data).
 *
 * <p>Order: the send is an ordered item of the pending queue while fragments remain
 * ({@link SendOp#orderedPeer}), so no later point-to-point message to the same peer goes out
 * between two of its fragments; the receiver therefore keeps one message in progress per sender
 * ({@link FragmentReceiver}). The send completes when its last fragment is committed (buffered,
 * like eager), so synchronous sends never take this protocol.
 */
final class FragmentSender implements AutoCloseable {
    private final ProtocolContext context;
    private final Profiler profiler;
    private final Arena arena = Arena.ofShared();
    /** Header scratch, used under the lock only. */
    private final MemorySegment header = arena.allocate(WireHeader.BASE_SIZE, 8);
    private final EagerClaim claim = new EagerClaim();

    FragmentSender(ProtocolContext context) {
        this.context = context;
        this.profiler = context.profiler();
    }

    /**
     * Data bytes per fragment to {@code p}: the transport's largest eager record less the header
     * and the alignment slack, rounded down to a cache line (so that fragments after the first
     * start on the same offsets within the packed message as the sender's and receiver's lines,
     * and pack in whole lines).
     */
    static long fragmentBytes(PeerState p) {
        return fragmentBytes(p.transport.capabilities().maxEager());
    }

    static long fragmentBytes(int maxEager) {
        return Math.max(64, (maxEager - WireHeader.BASE_SIZE - WireHeader.FRAG_SLACK) & ~63L);
    }

    /**
     * Padding between a fragment's header at {@code headerAddress} and its data that puts the
     * data on a cache line (a copy into a misaligned record splits every 64-byte store over two
     * lines: 4 KiB blocks packed 30-35% slower, measured); 0 where more than the slack would be
     * needed (a transport whose records are not 16-byte aligned), which is correct, only slower.
     */
    static int padding(long headerAddress) {
        int pad = (int) (-(headerAddress + WireHeader.BASE_SIZE) & 63);
        return pad <= WireHeader.FRAG_MAX_PADDING ? pad : 0;
    }

    /**
     * The data bytes per fragment of a {@code total}-byte message when a fragment may hold
     * {@code room}: as few fragments as {@code room} allows, of equal size (rounded up to a cache
     * line), so that no message ends with a sliver (32 KiB in 16,320-byte records went as
     * 16,320 + 16,320 + 128: a third record and its hand-over for 128 bytes).
     */
    static long evenFragments(long total, long room) {
        long fragments = Math.max(1, (total + room - 1) / room);
        return Math.min(room, ((total + fragments - 1) / fragments + 63) & ~63L);
    }

    /**
     * Posts as many of {@code s}'s remaining fragments as the transport takes now; true when the
     * last one is out (the send is then complete), false when it must be retried.
     */
    boolean post(SendOp s) {
        PeerState p = s.peer;
        long total = s.messageBytes;
        long room = evenFragments(total, fragmentBytes(p));
        while (s.fragmentSent < total) {
            long offset = s.fragmentSent;
            int n = (int) Math.min(room, total - offset);
            if (p.endpoint.claim(WireHeader.BASE_SIZE + WireHeader.FRAG_SLACK + n, claim)
                    != PostStatus.OK) {
                return false;
            }
            MemorySegment slot = claim.buffer();
            long at = claim.offset();
            int pad = padding(slot.address() + at);
            if (offset == 0) {
                WireHeader.write(header, WireHeader.FRAG_FIRST, (byte) pad, s.context,
                        s.myCommRank, s.tag, total, 0);
                WireHeader.writeSignature(header, s.signature);
            } else {
                WireHeader.write(header, WireHeader.FRAG, (byte) pad, 0, 0, 0, offset, total);
            }
            MemorySegment.copy(header, 0, slot, at, WireHeader.BASE_SIZE);
            try {
                s.fragmentCursor.pack(s.data, slot, at + WireHeader.BASE_SIZE + pad, n);
            } catch (RuntimeException e) {
                claim.abort(); // the checks ran before the first fragment; nothing half-sent
                throw e;
            }
            claim.commit();
            s.fragmentSent = offset + n;
        }
        s.fragmentCursor = null;
        s.finish();
        return true;
    }

    @Override
    public void close() {
        arena.close();
    }
}
