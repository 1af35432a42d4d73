package org.verbatim.transport.shm;

import java.lang.invoke.VarHandle;
import java.lang.foreign.ValueLayout;
import org.verbatim.spi.CompletionHandler;

/**
 * Whether the peers on this host are still there: every liveness interval, while progress finds
 * nothing to do, and for a peer whose posts keep getting RETRY, each peer's process is checked
 * ({@link CrossMemoryAttach#alive}); a peer found gone, or reported by a failed cross-memory copy,
 * is failed once, and the failures are handed to the runtime (after its emulated operations are
 * failed) at the next progress pass. Runs on the progressing thread.
 */
final class PeerLiveness {
    /**
     * Idle passes between two readings of the clock: reading it on every idle pass was most of a
     * pass (18% of a waiting rank's time in a 2-rank barrier), and a longer pass is a later look
     * at the inbox.
     */
    private static final int IDLE_PASSES_PER_CLOCK = 64;
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final int worldSize;
    /** The peers' process ids and inboxes (shared with the transport, which adds foreign peers). */
    private final int[] pids;
    private final MpscRing[] peerRings;
    private final CrossMemoryAttach cma;
    private final long intervalNanos;
    private final boolean[] failed;
    private final String[] failureReasons;
    private boolean failuresPending;
    private final long[] nextPeerCheck;
    private long nextCheck;
    private int idlePassesBeforeClock;

    PeerLiveness(int worldSize, int capacity, int[] pids, MpscRing[] peerRings, CrossMemoryAttach cma,
                 long intervalNanos) {
        this.worldSize = worldSize;
        this.pids = pids;
        this.peerRings = peerRings;
        this.cma = cma;
        this.intervalNanos = intervalNanos;
        this.failed = new boolean[capacity];
        this.failureReasons = new String[capacity];
        this.nextPeerCheck = new long[capacity];
        this.nextCheck = System.nanoTime() + intervalNanos;
    }

    /** True once {@code peer} is failed (posts to it complete with PEER_GONE). */
    boolean failed(int peer) {
        return failed[peer];
    }

    /** Failures wait to be handed to the runtime. */
    boolean pending() {
        return failuresPending;
    }

    /** A progress pass that found nothing: every peer is checked when the interval has passed. */
    void idlePass() {
        if (--idlePassesBeforeClock > 0) {
            return;
        }
        idlePassesBeforeClock = IDLE_PASSES_PER_CLOCK;
        long now = System.nanoTime();
        if (now - nextCheck >= 0) {
            nextCheck = now + intervalNanos;
            for (int p = 0; p < peerRings.length; p++) {
                if (peerRings[p] != null) {
                    check(p);
                }
            }
        }
    }

    /** Called by an endpoint whose posts keep getting RETRY: checks {@code peer} once per interval. */
    void checkIfDue(int peer) {
        long now = System.nanoTime();
        if (now - nextPeerCheck[peer] >= 0) {
            nextPeerCheck[peer] = now + intervalNanos;
            check(peer);
        }
    }

    private void check(int peer) {
        if (!failed[peer] && !cma.alive(pids[peer]) && !finalizedElsewhere(peer)) {
            report(peer, "process " + pids[peer] + " of rank " + peer + " on this host is gone");
        }
    }

    /**
     * True for a peer of another world that closed its transport (MPI_Finalize) before it
     * ended: its own world finalizes with it, ours need not (the mapping of its inbox outlives it).
     */
    private boolean finalizedElsewhere(int peer) {
        return peer >= worldSize && (int) INT.getVolatile(peerRings[peer].buffer(),
                (long) InboxDescriptor.FINALIZED_OFFSET) == 1;
    }

    /** Fails {@code peer} (once) for {@code reason}, handed to the runtime at the next pass. */
    void report(int peer, String reason) {
        if (!failed[peer]) {
            failed[peer] = true;
            failureReasons[peer] = reason;
            failuresPending = true;
        }
    }

    /** Fails the emulated operations of every newly failed peer, then tells the runtime; the failures handed up. */
    int deliver(ShmEndpoint[] endpoints, EmulatedOps emulated, CompletionHandler handler) {
        failuresPending = false;
        int n = 0;
        for (int p = 0; p < failureReasons.length; p++) {
            String reason = failureReasons[p];
            if (reason != null) {
                failureReasons[p] = null;
                n++;
                if (endpoints[p] != null) {
                    n += emulated.failPeer(endpoints[p]);
                }
                handler.onPeerFailure(p, reason);
            }
        }
        return n;
    }
}
