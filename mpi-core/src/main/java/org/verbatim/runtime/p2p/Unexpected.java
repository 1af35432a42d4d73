package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;

/**
 * A message that arrived before a matching receive was posted: eager data copied out of the
 * transport's buffer, or a rendezvous RTS waiting to be answered.
 */
public final class Unexpected {
    final int context;
    final int source;
    final int tag;
    final long length;
    final boolean rendezvous;
    final boolean sync;
    final long senderRequest;
    final long remoteAddress;
    final long remoteKey;
    final PeerState peer;
    /** A rendezvous whose sender asked for RPUT (the receiver answers with a CTS). */
    boolean put;
    /** With {@link #put}: the sender moves the data in segments (bc-spup, rwg-up). */
    boolean segments;
    /** Eager fragments ({@link FragmentReceiver}): {@link #payload} holds the first
     *  {@link #arrived} bytes; the rest is still arriving. */
    boolean fragmented;
    /** Eager above the eager limit, against this side's credit: give it back when taken. */
    boolean credited;
    long arrived;
    /** The sender's type-signature code from the header (0: unchecked). */
    short signature;
    /** Eager payload (from the pool), or null for a rendezvous. */
    MemorySegment payload;
    Unexpected prev;
    Unexpected next;

    Unexpected(int context, int source, int tag, long length, boolean rendezvous, boolean sync,
               long senderRequest, long remoteAddress, long remoteKey, PeerState peer) {
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.length = length;
        this.rendezvous = rendezvous;
        this.sync = sync;
        this.senderRequest = senderRequest;
        this.remoteAddress = remoteAddress;
        this.remoteKey = remoteKey;
        this.peer = peer;
    }

    public int source() {
        return source;
    }

    public int tag() {
        return tag;
    }

    public long length() {
        return length;
    }
}
