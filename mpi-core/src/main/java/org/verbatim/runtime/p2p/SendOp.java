package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.ext.CompletionCallback;
import org.verbatim.runtime.ext.Retryable;
import org.verbatim.spi.MemoryRegistration;

/**
 * A point-to-point send in flight. It is its own entry in the pending queue (a post the
 * transport refused) and its own completion callback (the RPUT writes).
 */
public final class SendOp extends RequestState implements Retryable, CompletionCallback {
    /** Where it is in its protocol. */
    enum Phase { QUEUED, WAIT_ACK, WAIT_FIN, WAIT_CTS, WRITING, DONE }

    final PointToPoint owner;
    final PeerState peer;
    final int context;
    final int myCommRank;
    final int tag;
    final MemorySegment data;
    final Object keepAlive;
    final boolean synchronous;
    long id;
    /** verbatim.core.check-types: the code of the send's type signature (0: unchecked). */
    short signature;
    Phase phase = Phase.QUEUED;
    boolean rendezvous;
    /** Sent eagerly above the eager limit against the peer's credit ({@link EagerCredit}). */
    boolean credited;
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
    /** The first error status of an RPUT write (0: none). */
    int writeError;
    /** The sender's blocks over {@link #data} when it writes without packing (multi-w), else null. */
    Layout layout;
    /** Bytes of the message ({@code data}'s size, or the layout's). */
    long messageBytes;
    /** Block writes (multi-w): the pieces listed for posting, the next to post, and where the
     *  next piece starts on each side. Null for a contiguous write into a contiguous buffer. */
    org.verbatim.spi.WorkList work;
    int workFrom;
    BlockCursor localCursor;
    BlockCursor remoteCursor;
    /** Segments (bc-spup, rwg-up): the receiver's slots and progress; null otherwise. */
    SegmentSend segments;
    /** Eager fragments ({@link FragmentSender}): where the next fragment is packed from, and
     *  the message bytes already committed. */
    LayoutCursor fragmentCursor;
    long fragmentSent;
    /** The protocol chosen from the peer's selection table. */
    SelectionTable.Protocol protocol;
    /** True while the send is in the pending queue. */
    boolean pending;
    /** Runs when the send completes (bsend releases its buffer space). */
    Runnable onDone;

    SendOp(PointToPoint owner, PeerState peer, int context, int myCommRank, int tag, MemorySegment data,
           Object keepAlive, boolean synchronous) {
        this.owner = owner;
        this.peer = peer;
        this.context = context;
        this.myCommRank = myCommRank;
        this.tag = tag;
        this.data = data;
        this.keepAlive = keepAlive;
        this.synchronous = synchronous;
        this.statusBytes = data.byteSize();
        this.messageBytes = data.byteSize();
    }

    @Override
    public boolean retry() {
        return owner.retrySend(this);
    }

    @Override
    public int orderedPeer() {
        return phase == Phase.QUEUED ? peer.world : -1;
    }

    @Override
    public void onComplete(long wrId, int status) {
        if (segments != null) {
            owner.segmentSender().onWriteComplete(this, status);
        } else {
            owner.puts().onWriteComplete(this, status);
        }
    }

    /** True when the send goes by RPUT (the receiver's CTS names where to write). */
    public boolean usesPut() {
        return put;
    }

    /** The protocol the peer's selection table chose. */
    public SelectionTable.Protocol protocol() {
        return protocol;
    }

    /** Sets the byte count the status reports (a send packed in place has no data segment). */
    void statusBytesOverride(long bytes) {
        statusBytes = bytes;
    }

    /** Ends the send with an error class (a failed rendezvous transfer). */
    void fail(int errorClass) {
        statusError = errorClass;
        finish();
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
