package org.verbatim.runtime;

import java.lang.foreign.MemorySegment;
import org.verbatim.spi.MemoryRegistration;

/** A point-to-point send in flight. */
public final class SendOp extends RequestState {
    /** Where it is in its protocol. */
    enum Phase { QUEUED, WAIT_ACK, WAIT_FIN, WAIT_CTS, WRITING, DONE }

    final PeerState peer;
    final int context;
    final int myCommRank;
    final int tag;
    final MemorySegment data;
    final Object keepAlive;
    final boolean synchronous;
    long id;
    Phase phase = Phase.QUEUED;
    boolean rendezvous;
    /** Native copy or registration of the data for the rendezvous (released at FIN). */
    MemorySegment staging;
    MemoryRegistration registration;
    /** RPUT (the receiver's CTS names its buffer; this side writes) instead of RGET. */
    boolean put;
    /** RPUT state, from the CTS: where to write, how much, and how to close. */
    long remoteAddress;
    long remoteKey;
    long bytesToWrite;
    long writeOffset;
    int chunksOutstanding;
    int immediate;
    long receiverRequest;
    boolean finByMessage;
    /** Next request queued behind this one for the same peer (send order). */
    SendOp nextQueued;
    /** Runs when the send completes (bsend releases its buffer space). */
    Runnable onDone;

    SendOp(PeerState peer, int context, int myCommRank, int tag, MemorySegment data,
           Object keepAlive, boolean synchronous) {
        this.peer = peer;
        this.context = context;
        this.myCommRank = myCommRank;
        this.tag = tag;
        this.data = data;
        this.keepAlive = keepAlive;
        this.synchronous = synchronous;
        this.statusBytes = data.byteSize();
    }

    void finish() {
        Runnable hook;
        synchronized (this) {
            phase = Phase.DONE;
            hook = onDone;
            onDone = null;
        }
        if (hook != null) {
            hook.run();
        }
        markComplete();
    }

    /** Runs {@code hook} when the send completes (at once if it already has). */
    public void whenDone(Runnable hook) {
        synchronized (this) {
            if (phase != Phase.DONE) {
                onDone = hook;
                return;
            }
        }
        hook.run();
    }
}
