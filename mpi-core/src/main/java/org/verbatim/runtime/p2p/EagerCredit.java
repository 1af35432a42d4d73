package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;

/**
 * Eager sends above the eager limit, bounded by the receiver's credit (a transport's
 * {@link org.verbatim.spi.Transport#eagerWindow()}, tcp's {@code verbatim.tcp.eager-window}).
 *
 * <p>A contiguous message too large for the eager limit but within the window goes eagerly, as
 * an {@link WireHeader#EAGER_CREDITED} message, when the sender still holds that much credit for
 * the peer; otherwise by rendezvous as before. The receiver counts the bytes its receives take
 * (on arrival into a posted receive, or later out of the unexpected queue) and gives them back
 * in a {@link WireHeader#CREDIT} message once a quarter of the window has gathered. So the
 * unexpected data one peer can leave at a receiver stays within the window, a sender out of
 * credit never waits (it falls back to the rendezvous), and matching order is untouched: a
 * credited message is an eager message (EAGER's layout and handling) in the peer's stream like
 * any other. Everything runs
 * under the runtime's lock.
 */
final class EagerCredit {
    private final ProtocolContext context;
    private final PointToPoint owner;

    EagerCredit(ProtocolContext context, PointToPoint owner) {
        this.context = context;
        this.owner = owner;
    }

    /** Sender: takes {@code size} bytes of {@code p}'s credit if the message qualifies. */
    static boolean take(PeerState p, long size) {
        if (size > p.creditedLimit || size > p.credit) {
            return false;
        }
        p.credit -= size;
        return true;
    }

    /** Receiver: a receive has taken a credited message of {@code length} bytes from {@code p}. */
    void taken(PeerState p, long length) {
        p.owed += length;
        if (p.owed >= p.creditWindow >> 2) {
            long back = p.owed;
            p.owed = 0;
            owner.sendControl(p, WireHeader.CREDIT, 0, 0, back);
        }
    }

    /** Sender: the peer gives back credit (LENGTH bytes). */
    void onCredit(int sourceWorld, MemorySegment m, long at, long size) {
        PeerState p = owner.peer(sourceWorld);
        long back = WireHeader.length(m, at);
        if (p == null || back <= 0) {
            throw context.fail("rank " + context.worldRank() + ": rank " + sourceWorld
                    + " sent a malformed CREDIT (" + back + " bytes)");
        }
        p.credit = Math.min(p.creditWindow, p.credit + back);
    }
}
