package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.verbs.CompletionQueue;
import org.verbatim.verbs.WorkCompletions;

/**
 * The receiving half of {@link VerbsEngine}'s progress: polls the receive completion queue, hands
 * data messages and immediates to the runtime and control messages to {@link EagerControl},
 * returns the per-connection credits the messages used, and posts receive buffers again (SRQ
 * buffers in batches, when a pass finds nothing else to do). Runs on the progressing thread.
 */
final class ReceivePoller {
    private static final ValueLayout.OfInt INT_UNALIGNED = ValueLayout.JAVA_INT_UNALIGNED;
    private static final int QUIET_RECEIVE_POLLS = 64;

    private final VerbsEngine e;
    private final CompletionQueue recvCq;
    private final WorkCompletions recvWc;
    /** Receive-CQ polls in a row that found nothing (see {@link #due}). */
    private int emptyPolls;
    /**
     * SRQ buffers whose message has been delivered, to be posted again when a pass finds nothing
     * else to do (or once {@code repostBatch} are waiting): reposting each buffer before
     * returning put a downcall between a message's arrival and the caller seeing it.
     */
    private final long[] reposts;
    private int repostCount;

    ReceivePoller(VerbsEngine engine, CompletionQueue recvCq, WorkCompletions recvWc, int repostBatch) {
        this.e = engine;
        this.recvCq = recvCq;
        this.recvWc = recvWc;
        this.reposts = new long[repostBatch];
    }

    /** Posts the delivered SRQ buffers again if this pass did no other {@code work} or a batch is full. */
    void repostIfDue(int work) {
        if (repostCount > 0 && (work == 0 || repostCount >= reposts.length)) {
            flushReposts();
        }
    }

    /**
     * Whether this pass polls the receive CQ. Every pass, except while fast-path rings are being
     * polled and the CQ has stayed empty for {@link #QUIET_RECEIVE_POLLS} polls: then one pass in
     * {@code recv-poll-interval}, so a fast-path ping-pong spends its passes on the rings' footers
     * instead of on a verbs call that finds nothing (MVAPICH polls its RDMA buffers first, too).
     * A receive on the CQ restores every pass.
     */
    boolean due(int calls) {
        return e.control.rings.length == 0 || emptyPolls < QUIET_RECEIVE_POLLS
                || calls % e.options.recvPollInterval() == 0;
    }

    private void flushReposts() {
        for (int i = 0; i < repostCount; i++) {
            e.receiveBuffers.post(reposts[i], e.srq, null);
        }
        repostCount = 0;
    }

    /** Polls the receive CQ once and handles what it found; the completions handled. */
    int poll() {
        int n = recvCq.poll(recvWc);
        emptyPolls = n > 0 ? 0 : Math.min(emptyPolls + 1, QUIET_RECEIVE_POLLS);
        if (n <= 0) {
            return 0;
        }
        for (int i = 0; i < n; i++) {
            long id = recvWc.wrId(i);
            int peer = e.peerOf(recvWc.qpNum(i));
            int status = recvWc.status(i);
            VerbsEndpoint ep = peer < 0 ? null : e.endpoints[peer];
            if (ep == null) {
                // a replaced queue pair's flushed receive (replaceQueuePair): its buffer is posted
                // on the new one already, or back to the SRQ here
                if (e.srq != null && status == IBV_WC_SUCCESS && repostCount < reposts.length) {
                    reposts[repostCount++] = id;
                }
                continue;
            }
            if (e.srq == null) {
                ep.receivesPosted--;
            }
            if (status != IBV_WC_SUCCESS) {
                // Flushed receives: the queue pair is in error (its send side or the peer's
                // reconnection request starts the recovery); any other failure ends the peer.
                if (ep != null && !e.closed && status != IBV_WC_WR_FLUSH_ERR) {
                    e.fail(ep, "receive", status);
                }
                continue;
            }
            if (ep.connecting) {
                e.firstTraffic.accept(ep);
            }
            boolean data = false;
            int word = e.inBand ? e.receiveBuffers.slab(id).get(INT_UNALIGNED, e.receiveBuffers.offset(id)) : 0;
            if (e.inBand) {
                if (word != InBandControl.DATA && word >>> EagerControl.SHIFT != EagerControl.DATA_CREDIT) {
                    e.control.received(ep, word, e.receiveBuffers.slab(id), e.receiveBuffers.offset(id) + InBandControl.WORD);
                } else {
                    if (word != InBandControl.DATA) {
                        ep.sr.grant(word & ((1 << EagerControl.SHIFT) - 1));
                    }
                    data = true;
                    delivered(ep, peer, e.receiveBuffers.slab(id), e.receiveBuffers.offset(id) + InBandControl.WORD,
                            recvWc.byteLength(i) - InBandControl.WORD);
                }
            } else if (recvWc.opcode(i) == IBV_WC_RECV_RDMA_WITH_IMM) {
                e.handler.onImmediate(peer, recvWc.immediate(i));
                data = true;
            } else if ((recvWc.flags(i) & IBV_WC_WITH_IMM) != 0) {
                e.control.received(ep, recvWc.immediate(i), e.receiveBuffers.slab(id), e.receiveBuffers.offset(id));
            } else {
                data = true;
                delivered(ep, peer, e.receiveBuffers.slab(id), e.receiveBuffers.offset(id), recvWc.byteLength(i));
            }
            if (e.srq != null && repostCount < reposts.length) {
                reposts[repostCount++] = id;
            } else if (e.receiveBuffers.post(id, e.srq, ep.qp) == 0 && e.srq == null) {
                ep.receivesPosted++;
            }
            if (data && ep.sr != null) {
                ep.sr.consumed();
                if (ep.sr.returnDue()) {
                    e.control.flush(ep);
                }
            }
        }
        return n;
    }

    /** Hands a data message to the runtime; offers the peer a fast-path ring once it is due. */
    private void delivered(VerbsEndpoint ep, int peer, MemorySegment slab, long offset, int length) {
        e.counters.messagesReceived++;
        e.handler.onReceive(peer, slab, offset, length);
        ep.messagesIn++;
        if (e.options.channel().fastPath() && ep.inbound == null
                && ep.messagesIn >= e.options.fastPathThreshold()
                && e.counters.fastPathPeers < e.options.fastPathPeers()) {
            e.control.offerRing(ep);
        }
    }
}
