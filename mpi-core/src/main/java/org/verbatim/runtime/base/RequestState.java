package org.verbatim.runtime.base;

/**
 * The runtime side of an MPI request: completion flag and the status fields. Completion is
 * published with a release write after the status fields and read with an acquire read, so a
 * thread that sees {@link #isComplete()} sees the status. (Not volatile: on x86 a volatile write
 * is followed by a full fence, which made every blocking receive wait, at its start and at its
 * end, until the stores of the message just sent had reached the peer's core.)
 */
public abstract class RequestState {
    private static final java.lang.invoke.VarHandle COMPLETE;

    static {
        try {
            COMPLETE = java.lang.invoke.MethodHandles.lookup()
                    .findVarHandle(RequestState.class, "complete", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Status source (communicator rank), tag and error class. */
    protected int statusSource;
    protected int statusTag;
    protected int statusError;
    /** Bytes received (or sent). */
    protected long statusBytes;
    protected boolean cancelled;
    private boolean complete;

    public final boolean isComplete() {
        return (boolean) COMPLETE.getAcquire(this);
    }

    protected final void markComplete() {
        COMPLETE.setRelease(this, true);
    }

    /** Clears the completion so a persistent request can start again. */
    protected final void reset() {
        COMPLETE.setRelease(this, false);
        statusSource = 0;
        statusTag = 0;
        statusError = 0;
        statusBytes = 0;
        cancelled = false;
    }

    public int source() {
        return statusSource;
    }

    public int tag() {
        return statusTag;
    }

    public int error() {
        return statusError;
    }

    public long bytes() {
        return statusBytes;
    }

    public boolean cancelled() {
        return cancelled;
    }

    /** Tries to cancel; true if it was cancelled (then it is also complete). */
    public boolean cancel() {
        return false;
    }

    /** A request that is already complete, with the given status (PROC_NULL, empty sends). */
    public static RequestState completed(int source, int tag, long bytes) {
        RequestState r = new RequestState() {
        };
        r.statusSource = source;
        r.statusTag = tag;
        r.statusBytes = bytes;
        r.markComplete();
        return r;
    }
}
