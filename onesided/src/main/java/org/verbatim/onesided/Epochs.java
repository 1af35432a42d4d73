package org.verbatim.onesided;

/**
 * The epoch state of one {@link Window} as its synchronisation calls ({@link FenceSync},
 * {@link Pscw}, {@link PassiveTarget}, free) leave it, and the rules that follow from it: to which
 * targets an operation may go now, when a fence, a PSCW or lock epoch or free may begin. Epoch
 * misuse is MPI_ERR_RMA_SYNC ({@link Window#syncError}) before anything is sent.
 *
 * <p>{@link #access} is this state condensed for the operations done at once: one byte per target,
 * {@link #DIRECT} and {@link #PASSIVE}, recomputed by {@link #changed} under the runtime's lock
 * by every call that opens or closes an epoch and read by {@link Window}'s "now" calls without the
 * lock (MPI orders the call that opens an epoch before that epoch's operations). Everything else
 * here is touched under the lock only.
 */
final class Epochs {
    /** {@link #access} bit: contiguous operations to the target are done at once (mapped). */
    static final byte DIRECT = 1;
    /** {@link #access} bit: a passive-target epoch on the target is open. */
    static final byte PASSIVE = 2;

    private final Window w;
    boolean fenceEpoch;
    /** Operations issued or held since the last fence. */
    boolean opsSinceFence;
    final boolean[] locked;
    boolean lockAll;
    boolean freed;
    /** Per target, {@link #DIRECT} and {@link #PASSIVE} as the epochs stand now. */
    final byte[] access;

    Epochs(Window w) {
        this.w = w;
        this.locked = new boolean[w.size];
        this.access = new byte[w.size];
    }

    /**
     * Recomputes {@link #access} from the epoch state: each epoch call that changes it calls this,
     * under the lock, before it returns.
     */
    void changed() {
        boolean now = w.mapped.active() && !freed
                && !(fenceEpoch && w.fenceDesign == FenceDesign.DEF);
        for (int r = 0; r < access.length; r++) {
            boolean passive = locked[r] || lockAll;
            access[r] = (byte) ((now && (passive || fenceEpoch || w.pscw.accessTo(r)) ? DIRECT : 0)
                    | (passive ? PASSIVE : 0));
        }
    }

    /** Whether an access epoch to {@code r} is open (fence, PSCW start, lock or lockAll). */
    boolean accessAllowed(int r) {
        return fenceEpoch || w.pscw.accessTo(r) || locked[r] || lockAll;
    }

    /** Whether a passive-target epoch on {@code r} is open (lock or lockAll). */
    boolean passive(int r) {
        return locked[r] || lockAll;
    }

    /** Throws unless a fence may be called now. */
    void checkFenceAllowed() {
        if (w.pscw.open() || lockAll || anyLocked()) {
            throw Window.syncError("fence inside a PSCW or lock epoch");
        }
    }

    boolean anyLocked() {
        for (boolean b : locked) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    /** Ends a fence epoch that had no operations, for a PSCW or lock epoch to begin. */
    void leaveIdleFence(String call) {
        if (fenceEpoch) {
            if (opsSinceFence || w.submitter.holdsAny()) {
                throw Window.syncError(call + " while the fence epoch has operations (close it "
                        + "with fence first)");
            }
            fenceEpoch = false;
            changed();
        }
    }

    /** Throws unless the window may be freed: no epoch open, nothing held. */
    void checkFreeable() {
        if (w.pscw.open() || lockAll || anyLocked() || w.submitter.holdsAny()
                || (fenceEpoch && opsSinceFence)) {
            throw Window.syncError("free while an epoch is open");
        }
    }

    /** Marks the window freed: no operation is done at once any more. */
    void free() {
        freed = true;
        changed();
    }
}
