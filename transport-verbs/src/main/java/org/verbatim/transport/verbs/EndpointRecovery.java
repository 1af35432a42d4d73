package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.*;

import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.spi.CompletionStatus;

/**
 * Re-establishing connections whose queue pair went to error. An RC queue pair cannot leave the
 * error state except through RESET, and a responder-detected error (a write the peer's
 * registration refuses) puts the peer's queue pair in error too. So after an error completion
 * that does not mean the peer is gone, the endpoint refuses posts, moves its queue pair to ERROR,
 * waits until every posted request has come back (a signalled marker posted last tells when the
 * unsignalled ones before it are settled), and hands it to the transport's drained listener,
 * which resets it and connects it again (ib: a REQUEST of the next epoch over UD; the peer does
 * the same on its side). One-sided operations flushed on the way complete CANCELLED; an eager or
 * control message flushed on the way is lost, which MPI's ordering cannot survive: the peer is
 * then reported failed instead.
 */
final class EndpointRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(EndpointRecovery.class);
    /** After this long draining, posted receives that did not come back are taken as gone with the reset. */
    private static final long DRAIN_GRACE_NANOS = 200_000_000L;
    private static final long DRAIN_LIMIT_NANOS = 10_000_000_000L;

    private final VerbsEngine engine;
    Consumer<VerbsEndpoint> drained = ep -> { };
    /** Endpoints waiting for their queue pair's outstanding requests to come back flushed. */
    int drainingCount;

    EndpointRecovery(VerbsEngine engine) {
        this.engine = engine;
    }

    /**
     * Starts re-establishing {@code ep}'s connection: its queue pair goes to ERROR (if it is not
     * there already), posts are refused with RETRY, and once every posted request has come back
     * (one-sided operations CANCELLED) the drained listener ({@link #onDrained}) brings the queue
     * pair back and reconnects it; {@link #reopen} and {@link #ready} finish. Called by the engine
     * after an error completion that does not mean the peer is gone, and by the transport when the
     * peer asks to reconnect. Eager or control messages flushed on the way are lost: then the
     * peer is reported failed instead (MPI's order cannot survive a lost message).
     */
    void recover(VerbsEndpoint ep) {
        if (ep.failed || ep.recovering) {
            return;
        }
        ep.recovering = true;
        ep.connecting = true;
        ep.blocked = true;
        try {
            ep.qp.toError();
        } catch (RuntimeException e) {
            engine.failWith(ep, "ib: the queue pair to rank " + ep.peer + " on " + engine.where + " could not be moved to "
                    + "ERROR to recover it: " + e.getMessage());
            return;
        }
        // Without a marker (a device that would never complete it) the drain waits the grace
        // period: moving to error flushed every request the send queue held, so what has not come
        // back by then completed before the error, unsignalled.
        ep.markerPosted = engine.markerAfterError && ep.postMarker();
        long now = System.nanoTime();
        ep.drainGrace = now + DRAIN_GRACE_NANOS;
        ep.drainDeadline = now + DRAIN_LIMIT_NANOS;
        ep.draining = true;
        drainingCount++;
        LOG.debug("rank {}: re-establishing the connection to rank {} ({})", engine.rank, ep.peer, ep.error);
    }

    /** Brings drained endpoints back to their transport; fails those that do not drain in time. */
    int drain(VerbsEndpoint[] endpoints) {
        int work = 0;
        long now = System.nanoTime();
        for (VerbsEndpoint ep : endpoints) {
            if (ep == null || !ep.draining) {
                continue;
            }
            if (!ep.markerPosted && ep.requests.outstanding() > 0 && now - ep.drainGrace > 0) {
                // The device refused the marker: requests without a flushed completion by now
                // completed before the error (unsignalled ones leave none).
                ep.requests.retireAll(ep.requests.next() - 1, CompletionStatus.OK, engine.sendBuffers, engine.handler);
            }
            boolean sendsBack = ep.requests.outstanding() == 0;
            // Posted receives come back flushed too; if some do not within the grace period, the
            // reset discards them without a completion.
            boolean receivesBack = ep.receivesPosted == 0 || now - ep.drainGrace > 0;
            if (sendsBack && receivesBack) {
                ep.draining = false;
                drainingCount--;
                ep.receivesPosted = 0;
                drained.accept(ep);
                work++;
            } else if (now - ep.drainDeadline > 0) {
                engine.failWith(ep, "ib: the queue pair to rank " + ep.peer + " on " + engine.where + " did not drain within "
                        + DRAIN_LIMIT_NANOS / 1_000_000_000L + " s of going to error (" + ep.error + ")");
            }
        }
        return work;
    }


    /**
     * Send work request {@code seq} of {@code ep} completed with an error: the queue pair is in
     * error now. Its one-sided operations complete with their status (the first with the
     * device's, the flushed ones after it CANCELLED). When the peer is gone, or when an eager
     * or control message was lost with the queue pair, the peer is reported failed; otherwise the
     * connection is re-established ({@link #recover}).
     */
    int failedSend(VerbsEndpoint ep, long seq, int status) {
        boolean gone = CompletionStatuses.peerGone(status);
        int spi = CompletionStatuses.of(status);
        if (ep.failed || gone) {
            spi = CompletionStatus.PEER_GONE;
        }
        boolean lost = ep.failedRequest(seq, spi);
        if (gone || lost) {
            if (!engine.closed) {
                engine.fail(ep, lost && !gone ? "send (lost with the queue pair in error: "
                        + (ep.error == null ? "flushed" : ep.error) + ")" : "send", status);
            }
        } else if (!ep.recovering && !engine.closed) {
            ep.error = "a work request failed with status " + status + " (" + CompletionStatuses.describe(status)
                    + ")";
            if (spi == CompletionStatus.LOCAL_ERROR) {
                // never provoked on purpose (unlike a refused remote key): name the device's status,
                // which the operation's SPI status folds into "local error"
                LOG.warn("rank {}: work request {} to rank {} on {}: {}; re-establishing the connection",
                        engine.rank, seq, ep.peer, engine.where, ep.error);
            }
            recover(ep);
        }
        return 1;
    }

}
