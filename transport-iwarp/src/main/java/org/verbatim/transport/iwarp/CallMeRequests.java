package org.verbatim.transport.iwarp;

import static org.verbatim.verbs.raw.rdma_cma_h_constants.*;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.transport.verbs.VerbsEngine;
import org.verbatim.verbs.CmConnectParameters;
import org.verbatim.verbs.CmEvent;
import org.verbatim.verbs.CmId;
import org.verbatim.verbs.EventChannel;
import org.verbatim.verbs.QueuePair;

/**
 * The CALL_ME requests of a rank that talks first to a higher rank (the server side of the pair,
 * which must not connect itself): a connect request with its own RDMA CM id and a throwaway
 * queue pair, carrying {@link CmConnections#CALL_ME} and this rank, which the peer answers by
 * rejecting it with {@link #ANSWER} and then connecting as a client does.
 *
 * <pre>
 *  caller (lower rank)                               called (higher rank)
 *   rdma_resolve_addr, _route, rdma_connect [CALL_ME] ──> CONNECT_REQUEST
 *   REJECTED [ANSWER, rank]: answered   <──────────────   rdma_reject [ANSWER, rank], then connects
 *   anything else: unanswered, asked again after a backoff
 * </pre>
 *
 * Only a reject that carries the answer counts: Soft-iWARP reports a connection reset during the
 * MPA exchange as REJECTED too (status -104), and then the called rank may never have seen the
 * request. Runs on the progressing thread.
 */
final class CallMeRequests {
    private static final Logger LOG = LoggerFactory.getLogger(CallMeRequests.class);
    /** Private data of the reject that answers a CALL_ME ("I connect now"), then the answering rank. */
    static final int ANSWER = 0x49570003;

    /** What became of a request that did not end in the answer. */
    @FunctionalInterface
    interface Unanswered {
        /** The request to {@code peer} ended without its answer ({@code what}). */
        void unanswered(int peer, String what);
    }

    /** A request in flight: its own id and throwaway queue pair. */
    private record Call(int peer, CmId id, QueuePair qp) { }

    private final VerbsEngine engine;
    private final EventChannel channel;
    private final int rank;
    private final int resolveMillis;
    private final Map<Long, Call> calls = new HashMap<>();

    CallMeRequests(VerbsEngine engine, EventChannel channel, int rank, int resolveMillis) {
        this.engine = engine;
        this.channel = channel;
        this.rank = rank;
        this.resolveMillis = resolveMillis;
    }

    /** Sends a CALL_ME to {@code peer} listening at {@code address}; throws if it cannot start. */
    void ask(int peer, InetSocketAddress address) {
        QueuePair qp = engine.createQueuePair();
        CmId id = null;
        try {
            qp.toInit(1, engine.queuePairAccess(), 0);
            id = channel.createId();
            calls.put(id.address(), new Call(peer, id, qp));
            id.resolveAddress(address, resolveMillis);
        } catch (RuntimeException e) {
            if (id != null) {
                calls.remove(id.address());
                id.close();
            }
            qp.close();
            throw e;
        }
    }

    /** Whether the event of RDMA CM id {@code id} belongs to a request here. */
    boolean owns(long id) {
        return calls.containsKey(id);
    }

    /**
     * Handles event {@code e} of a request here: the next step, the answer, or an end without it
     * (told to {@code unanswered}). {@code request} are the connect parameters of a CALL_ME.
     */
    void handle(CmEvent e, CmConnectParameters request, Unanswered unanswered) {
        Call call = calls.get(e.id());
        switch (e.type()) {
            case RDMA_CM_EVENT_ADDR_RESOLVED -> call.id.resolveRoute(resolveMillis);
            case RDMA_CM_EVENT_ROUTE_RESOLVED -> {
                engine.counters().connectRequest();
                LOG.debug("iwarp: rank {}: CALL_ME to rank {}", rank, call.peer);
                call.id.connect(request, call.qp);
            }
            case RDMA_CM_EVENT_REJECTED -> {
                end(call);
                if (answers(e, call.peer)) { // the peer connects now
                    LOG.debug("iwarp: rank {}: CALL_ME to rank {} answered", rank, call.peer);
                } else {
                    unanswered.unanswered(call.peer, CmFailures.describe(e) + " without the peer's answer"
                            + " (asking it to connect)");
                }
            }
            default -> {
                end(call);
                unanswered.unanswered(call.peer, CmFailures.describe(e) + " (asking it to connect)");
            }
        }
    }

    /** Handling an event of request id {@code id} threw {@code failure}: the request ends unanswered. */
    void failed(long id, RuntimeException failure, Unanswered unanswered) {
        Call call = calls.get(id);
        end(call);
        unanswered.unanswered(call.peer, failure.getMessage() + " (asking it to connect)");
    }

    private void end(Call call) {
        calls.remove(call.id.address());
        call.id.close();
        call.qp.close();
    }

    /** Private data of a request or reject: {@code kind}, then {@code rank}. */
    static byte[] privateData(int kind, int rank) {
        return ByteBuffer.allocate(8).putInt(kind).putInt(rank).array();
    }

    /**
     * Private data of a CONNECT request or of its accept: {@code kind}, {@code rank}, then the
     * byte {@code engine}'s peers read for a zero-length read ({@link VerbsEngine#putReadTarget}).
     */
    static byte[] privateData(int kind, int rank, VerbsEngine engine) {
        ByteBuffer b = ByteBuffer.allocate(8 + VerbsEngine.READ_TARGET_BYTES).putInt(kind).putInt(rank);
        engine.putReadTarget(b);
        return b.array();
    }

    /** Hands {@code engine} the byte for zero-length reads in {@code peer}'s CONNECT private data, if it has one. */
    static void readTarget(byte[] data, int peer, VerbsEngine engine) {
        if (data.length >= 8 + VerbsEngine.READ_TARGET_BYTES) {
            engine.peerReadTarget(peer, ByteBuffer.wrap(data, 8, VerbsEngine.READ_TARGET_BYTES));
        }
    }

    /** Whether the REJECTED event {@code e} is {@code peer}'s answer to a CALL_ME ({@link #ANSWER}). */
    static boolean answers(CmEvent e, int peer) {
        byte[] data = e.peer() == null ? new byte[0] : e.peer().privateData();
        if (data.length < 8) {
            return false;
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        return b.getInt(0) == ANSWER && b.getInt(4) == peer;
    }
}
