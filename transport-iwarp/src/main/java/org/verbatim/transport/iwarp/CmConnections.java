package org.verbatim.transport.iwarp;

import static org.verbatim.verbs.raw.rdma_cma_h_constants.*;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.bootstrap.Bootstrap;
import org.verbatim.spi.PostStatus;
import org.verbatim.transport.verbs.VerbsEndpoint;
import org.verbatim.transport.verbs.VerbsEngine;
import org.verbatim.verbs.CmConnectParameters;
import org.verbatim.verbs.CmEvent;
import org.verbatim.verbs.CmId;
import org.verbatim.verbs.EventChannel;
import org.verbatim.verbs.QueuePair;

/**
 * Connection set-up through the RDMA connection manager, as the MPI-over-iWARP paper designs it.
 * Every rank listens on its device's address ({@code iwarp.<rank> = address:port} in the
 * bootstrap); for every pair the lower rank is the server and the higher rank the client:
 *
 * <pre>
 *  client (higher rank)                              server (lower rank)
 *   create QP (INIT), rdma_resolve_addr, _route
 *   rdma_connect [CONNECT, rank] ──── MPA ────>  CONNECT_REQUEST: create QP, rdma_accept
 *   ESTABLISHED: ready, FIRST message ─────────>  (ESTABLISHED)
 *                                                 FIRST arrives: ready (the connection is up)
 *   (all at once: open waits for it) <── FIRST ──  the answer
 * </pre>
 *
 * MPA wants the client to send first, so the client's first message is a hidden control
 * message ({@link VerbsEngine#sendFirstMessage}) and the server counts the connection as up only
 * when it arrives, and answers it with one of its own ({@link FirstMessages}); the runtime sees
 * neither. A server that accepted but sees no first message within {@link #FIRST_WAIT_NANOS}
 * drops the connection (the client sees it closed and connects again); all at once, a client
 * sends its first message again when the answer is late ({@link #ANSWER_WAIT_NANOS}). A
 * connection that fails names its last set-up steps ({@link ConnectionHistory}). The queue pairs are the data path's own (created
 * with {@code ibv_create_qp} on the transport's device context, attached to the connection by
 * number); the kernel moves them to RTS when the MPA exchange completes.
 *
 * <p>All at once ({@code verbatim.iwarp.connect=all}): at open each rank sends its connect
 * requests in reverse rank order (rank r to r-1, r-2, ..., 0), waits until every connection of
 * its own is up and every lower rank answered, and ends with a bootstrap barrier. On demand (the default): a client connects at
 * its first message to a lower rank; a server that talks first to a higher rank asks it to
 * connect with a CALL_ME request ({@link CallMeRequests}), which the higher rank answers with a
 * reject that carries its answer before connecting as usual. Until a connection is up, posts on its endpoint return RETRY and
 * the runtime keeps the messages queued.
 *
 * <p>An attempt that fails (address or route resolution, rejection, unreachable peer: Soft-iWARP
 * gives up on the MPA reply after 5 s) is made again with a fresh RDMA CM id and a fresh queue
 * pair (siw refuses to connect a queue pair twice), after a backoff, a bounded number of times
 * ({@link ConnectAttempts}); the server tears down an accepted connection whose client gave up
 * (the accept failed, or the connection ended before the client's first message) and waits for
 * the next request. When the attempts or {@code connect-timeout} run out, the peer fails with a
 * message naming the device, the local address and port, and the peer's address and port. Runs on
 * the progressing thread.
 */
final class CmConnections {
    private static final Logger LOG = LoggerFactory.getLogger(CmConnections.class);
    /** Private data of a connect request: what it asks for, then the requester's rank. */
    static final int CONNECT = 0x49570001;
    static final int CALL_ME = 0x49570002;
    private static final int RESOLVE_MS = 5_000;
    private static final int BACKLOG = 128;
    private static final long POLL_GAP_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * How long a server waits, after accepting, for the client's first message before it drops
     * the connection and waits for the client's next request (the client sees it closed and
     * connects again): three times Soft-iWARP's 5 s wait for the MPA reply.
     */
    static final long FIRST_WAIT_NANOS = TimeUnit.SECONDS.toNanos(15);
    /** All at once: how long a client waits for its server's answer before it sends its first message again. */
    static final long ANSWER_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final IwarpTransport transport;
    private final VerbsEngine engine;
    private final IwarpDevice device;
    private final EventChannel channel;
    private final CmId listener;
    private final InetSocketAddress local;
    private final int rank;
    private final long timeoutNanos;
    private final ConnectAttempts attempts;
    private final PeerStates peers;
    private final CmIdTable ids;
    private final ConnectionClock clock;
    private final PeerAddresses addresses;
    private final CallMeRequests calls;
    private final ConnectionHistory history;
    private final FirstMessages firsts;
    private final CallMeRequests.Unanswered unanswered = this::unanswered;
    /** Set while connections are made inside open: failures go here, not to the runtime. */
    private String openFailure;
    private boolean opening;

    CmConnections(IwarpTransport transport, VerbsEngine engine, IwarpDevice device, int rank, int size,
                  IwarpConfiguration config) {
        this.transport = transport;
        this.engine = engine;
        this.device = device;
        this.rank = rank;
        this.timeoutNanos = TimeUnit.SECONDS.toNanos(config.connectTimeoutSeconds);
        this.attempts = new ConnectAttempts(size, timeoutNanos);
        this.peers = new PeerStates(size);
        this.ids = new CmIdTable(size);
        this.clock = new ConnectionClock(size, POLL_GAP_NANOS);
        this.addresses = new PeerAddresses(size);
        this.history = new ConnectionHistory(size);
        this.firsts = new FirstMessages(p -> engine.sendFirstMessage(engine.endpoint(p)) == PostStatus.OK, rank, size,
                history);
        this.channel = new EventChannel();
        this.calls = new CallMeRequests(engine, channel, rank, RESOLVE_MS);
        InetSocketAddress bindTo = new InetSocketAddress(device.address(), config.port);
        try {
            this.listener = channel.createId();
            listener.bind(bindTo);
            listener.listen(BACKLOG);
        } catch (RuntimeException e) {
            channel.close();
            throw new IllegalStateException("binding the listener to " + PeerAddresses.text(bindTo) + " on " + device.describe()
                    + " (rdma_bind_addr, rdma_listen): " + e.getMessage(), e);
        }
        this.local = new InetSocketAddress(device.address(), listener.localPort());
    }

    /** Publishes this rank's listening address ({@code iwarp.<rank> = address:port}). */
    void publish(Bootstrap bootstrap) {
        addresses.bootstrap(bootstrap);
        bootstrap.put("iwarp." + rank, device.address().getHostAddress() + ":" + local.getPort());
    }

    /** The address and port this rank listens on. */
    InetSocketAddress listening() {
        return local;
    }

    /** Connections being set up now. */
    boolean busy() {
        return peers.inProgress() > 0;
    }

    /** Connections up (both sides can send). */
    int connected() {
        return peers.connected();
    }

    ConnectionState state(int peer) {
        return peers.of(peer);
    }

    // ------------------------------------------------------------------ starting

    /** Starts the connection to {@code peer}, whose endpoint exists (INIT): connect, or ask it to. */
    void start(int peer) {
        if (peers.of(peer) != ConnectionState.NONE) {
            return;
        }
        begin(peer);
        if (peer < rank) {
            connect(peer);
        } else {
            callMe(peer);
        }
    }

    /**
     * All at once: connect requests to every lower rank in reverse rank order, then progress until
     * every connection of this rank is up. Returns null, or the first failure.
     */
    String connectAll(int size) {
        opening = true;
        try {
            for (int p = rank - 1; p >= 0; p--) {
                transport.endpointOrCreate(p);
                begin(p);
                connect(p);
            }
            for (int p = rank + 1; p < size; p++) {
                if (peers.of(p) == ConnectionState.NONE) {
                    begin(p);
                    peers.set(p, ConnectionState.AWAITING_REQUEST); // the server's side: the peer's request is expected
                    transport.endpointOrCreate(p);
                }
            }
            while ((peers.connected() < size - 1 || firsts.answers() < rank) && openFailure == null) {
                poll();
                engine.progress();
                if (peers.connected() == size - 1) {
                    awaitAnswers();
                }
            }
            return openFailure;
        } finally {
            opening = false;
        }
    }

    /**
     * All at once, every connection up: a server that has not answered this side's first message
     * within {@link #ANSWER_WAIT_NANOS} is sent it again (it answers every one), and one that
     * still has not when the connection's time is up fails the open.
     */
    private void awaitAnswers() {
        long now = System.nanoTime();
        for (int p = 0; p < rank; p++) {
            if (peers.of(p) != ConnectionState.CONNECTED || firsts.answered(p)) {
                continue;
            }
            if (clock.sinceBegun(p, now) > timeoutNanos) {
                fail(p, "no answer to the first message within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s");
            } else if (clock.sinceUp(p, now) > ANSWER_WAIT_NANOS) {
                history.note(p, "no answer yet: first message again");
                clock.up(p, now);
                firsts.owe(p);
            }
        }
    }

    private void begin(int peer) {
        clock.begin(peer, System.nanoTime());
        peers.begin(peer);
    }

    private void connect(int peer) {
        history.note(peer, "connecting");
        peers.set(peer, ConnectionState.RESOLVING_ADDRESS);
        try {
            CmId id = channel.createId();
            ids.use(peer, id);
            id.resolveAddress(addresses.of(peer), RESOLVE_MS);
        } catch (RuntimeException e) {
            attemptFailed(peer, "rdma_resolve_addr: " + e.getMessage());
        }
    }

    private void callMe(int peer) {
        history.note(peer, "CALL_ME sent");
        peers.set(peer, ConnectionState.CALLING);
        try {
            calls.ask(peer, addresses.of(peer));
        } catch (RuntimeException e) {
            retry(peer, "asking it to connect (rdma_resolve_addr): " + e.getMessage());
        }
    }

    /** A CALL_ME to {@code peer} ended without its answer: asked again, unless the peer connected meanwhile. */
    private void unanswered(int peer, String what) {
        LOG.debug("iwarp: rank {}: CALL_ME to rank {} not answered ({}): {}", rank, peer, peers.of(peer), what);
        if (peers.of(peer) == ConnectionState.CALLING) {
            retry(peer, what);
        }
    }

    // ------------------------------------------------------------------ events

    /** Handles the waiting connection events and checks the time limit; returns the events handled. */
    int poll() {
        // time spent outside MPI (or not scheduled) does not count against connections in progress
        clock.polled(System.nanoTime(), peers.inProgress() > 0);
        int n = 0;
        CmEvent e;
        while ((e = channel.pollEvent()) != null) {
            n++;
            try {
                handle(e);
            } catch (RuntimeException ex) {
                Integer peer = ids.peerOf(e.id());
                if (calls.owns(e.id())) {
                    calls.failed(e.id(), ex, unanswered);
                } else if (peer != null) {
                    attemptFailed(peer, ex.getMessage());
                } else {
                    LOG.warn("iwarp: rank {}: connection event {} failed: {}", rank, e.type(), ex.toString());
                }
            }
        }
        n += firsts.retry();
        if (peers.inProgress() > 0) {
            checkTimes();
        }
        return n;
    }

    private void handle(CmEvent e) {
        if (e.isConnectRequest()) {
            request(e);
            return;
        }
        if (calls.owns(e.id())) {
            calls.handle(e, parameters(CALL_ME), unanswered);
            return;
        }
        Integer peer = ids.peerOf(e.id());
        if (peer == null) {
            return;
        }
        int p = peer;
        switch (e.type()) {
            case RDMA_CM_EVENT_ADDR_RESOLVED -> {
                peers.set(p, ConnectionState.RESOLVING_ROUTE);
                ids.of(p).resolveRoute(RESOLVE_MS);
            }
            case RDMA_CM_EVENT_ROUTE_RESOLVED -> {
                peers.set(p, ConnectionState.CONNECTING);
                engine.counters().connectRequest();
                LOG.debug("iwarp: rank {}: CONNECT to rank {}", rank, p);
                ids.of(p).connect(parameters(CONNECT), transport.endpointOrCreate(p).queuePair());
            }
            case RDMA_CM_EVENT_ESTABLISHED -> {
                history.note(p, "ESTABLISHED (" + peers.of(p) + ")");
                if (peers.of(p) == ConnectionState.CONNECTING) {
                    if (e.peer() != null) {
                        CallMeRequests.readTarget(e.peer().privateData(), p, engine); // the accept's
                    }
                    engine.ready(engine.endpoint(p));
                    up(p);
                    firsts.owe(p);
                }
                // the server's side is up only once the client's first message arrives
            }
            case RDMA_CM_EVENT_DISCONNECTED -> {
                // the peer's queue pair went to error (or it closed): re-establish, as after an
                // error completion here; an accepted connection whose client gave up is dropped
                LOG.debug("iwarp: rank {}: connection to rank {} closed by the peer ({})", rank, p, peers.of(p));
                history.note(p, "DISCONNECTED (" + peers.of(p) + ")");
                if (peers.of(p) == ConnectionState.CONNECTED) {
                    recover(p);
                } else if (peers.of(p) == ConnectionState.ACCEPTED) {
                    abandonAccept(p, "closed before the client's first message");
                }
            }
            case RDMA_CM_EVENT_TIMEWAIT_EXIT -> { }
            default -> {
                history.note(p, CmFailures.describe(e) + " (" + peers.of(p) + ")");
                if (peers.of(p) != ConnectionState.CONNECTED) {
                    attemptFailed(p, CmFailures.describe(e));
                }
            }
        }
    }

    /** A connect request: CONNECT from a higher rank is accepted, CALL_ME is answered by rejecting it. */
    private void request(CmEvent e) {
        CmId id = CmId.ofRequest(channel, e);
        byte[] data = e.peer() == null ? new byte[0] : e.peer().privateData();
        ConnectRequest r = ConnectRequest.of(data, rank, peers.size());
        int from = r.from();
        if (r.valid()) {
            history.note(from, r.what() + " request (" + peers.of(from) + ")");
            if (r.kind() == CONNECT) {
                CallMeRequests.readTarget(data, from, engine);
            }
        }
        LOG.debug("iwarp: rank {}: {} request from rank {} ({})", rank, r.what(), from, r.valid() ? peers.of(from) : "-");
        ConnectRequest.Action action = r.action(rank, r.valid() ? peers.of(from) : null);
        if (action == ConnectRequest.Action.DROP_AND_ACCEPT) {
            abandonAccept(from, "the client asked again"); // it gave up on the one accepted before
            action = r.action(rank, peers.of(from));
        }
        switch (action) {
            case HOLD -> {
                ids.hold(from, id); // drained first, then accepted
                if (peers.of(from) == ConnectionState.CONNECTED) {
                    recover(from);
                }
                return;
            }
            case ACCEPT, BEGIN_AND_ACCEPT -> {
                if (action == ConnectRequest.Action.BEGIN_AND_ACCEPT) {
                    begin(from);
                }
                transport.endpointOrCreate(from);
                accept(from, id);
                return;
            }
            default -> { }
        }
        try {
            id.reject(r.kind() == CALL_ME ? CallMeRequests.privateData(CallMeRequests.ANSWER, rank) : new byte[0]);
        } catch (RuntimeException ex) {
            // the requester gave up already (siw: no MPA reply within 5 s); a CALL_ME still counts
            LOG.debug("iwarp: rank {}: rejecting a connect request from rank {}: {}", rank, from, ex.toString());
        } finally {
            id.close();
        }
        if (action == ConnectRequest.Action.REJECT_AND_CONNECT) {
            transport.endpointOrCreate(from);
            start(from);
        } else if (r.kind() != CALL_ME) {
            LOG.warn("iwarp: rank {}: rejected a connect request ({}, from rank {}, state {})", rank,
                    r.what(), from, r.valid() ? peers.of(from) : "-");
        }
    }

    /** The client's first message arrived on {@code ep}: the server's side of the connection is up. */
    void trafficFrom(VerbsEndpoint ep) {
        int p = ep.peer();
        history.note(p, "first traffic (" + peers.of(p) + ")");
        if (peers.of(p) == ConnectionState.ACCEPTED) {
            engine.ready(ep);
            up(p); // its first message (EagerControl's FIRST) is answered next: firstMessageFrom
        } else {
            LOG.debug("iwarp: rank {}: traffic from rank {} on a connection not accepted ({})", rank, p, peers.of(p));
        }
    }

    /** A hidden first message arrived from {@code ep}'s peer on a connection that is up (an answer, from a server). */
    void firstMessageFrom(VerbsEndpoint ep) {
        int p = ep.peer();
        if (p < rank) {
            firsts.received(p);
        } else if (peers.of(p) == ConnectionState.CONNECTED) {
            firsts.owe(p); // the answer (again, if the client sent its first message again)
        }
    }

    /**
     * The queue pair of {@code peer} went to error without the peer being gone (a one-sided
     * operation one side refused; on iWARP the responder tears the connection down, and the other
     * side sees DISCONNECTED): drain it, then reconnect in the same roles.
     */
    private void recover(int peer) {
        lost(peer);
        engine.recover(engine.endpoint(peer));
    }

    /** The connection to {@code peer}, up until now, is set up again. */
    private void lost(int peer) {
        firsts.reset(peer);
        peers.lost(peer);
        clock.begin(peer, System.nanoTime());
    }

    /**
     * {@code ep}'s queue pair has drained after an error: its old RDMA CM id goes, a fresh queue
     * pair at INIT takes its place with the receive buffers, and the connection is made again, the client
     * connecting and the server accepting (at once if the client's request is already held).
     */
    void drained(VerbsEndpoint ep) {
        int p = ep.peer();
        if (peers.of(p) == ConnectionState.CONNECTED) {
            lost(p); // the error completion came first (engine-initiated recovery)
        }
        ids.drop(p);
        CmId held;
        try {
            engine.replaceQueuePair(ep, freshQueuePair()); // siw refuses to connect a queue pair again
        } catch (RuntimeException e) {
            fail(p, "a new queue pair after an error: " + e.getMessage());
            return;
        }
        if (p < rank) {
            connect(p);
        } else if ((held = ids.takeHeld(p)) != null) {
            accept(p, held);
        } else {
            peers.set(p, ConnectionState.AWAITING_REQUEST);
        }
    }

    private void accept(int from, CmId id) {
        LOG.debug("iwarp: rank {}: accepting rank {}", rank, from);
        history.note(from, "accepting");
        ids.use(from, id);
        peers.set(from, ConnectionState.ACCEPTED);
        clock.accepted(from, System.nanoTime());
        try {
            id.accept(parameters(CONNECT), engine.endpoint(from).queuePair());
        } catch (RuntimeException e) {
            abandonAccept(from, "rdma_accept: " + e.getMessage()); // the client gave up: it asks again
        }
    }

    // ------------------------------------------------------------------ failed attempts

    /** An attempt to {@code peer} failed with {@code what}: made again if it may be, else the peer fails. */
    private void attemptFailed(int peer, String what) {
        switch (peers.of(peer)) {
            case RESOLVING_ADDRESS, RESOLVING_ROUTE, CONNECTING, CALLING -> retry(peer, what);
            case ACCEPTED -> abandonAccept(peer, what);
            default -> fail(peer, what);
        }
    }

    /**
     * Schedules the next attempt to {@code peer} after a backoff, or fails it when the attempts or
     * the time run out. A client's RDMA CM id goes and its endpoint gets a fresh queue pair; a
     * server's CALL_ME used a throwaway one.
     */
    private void retry(int peer, String what) {
        if (!attempts.failed(peer, clock.begun(peer), System.nanoTime())) {
            fail(peer, what + " (" + attempts.failures(peer) + " attempts, "
                    + TimeUnit.NANOSECONDS.toMillis(clock.sinceBegun(peer, System.nanoTime())) + " ms of progress)");
            return;
        }
        LOG.debug("iwarp: rank {}: attempt {} to rank {} failed, trying again: {}", rank,
                attempts.failures(peer), peer, what);
        history.note(peer, "attempt failed: " + what);
        if (peer < rank) {
            ids.drop(peer);
            try {
                engine.replaceQueuePair(engine.endpoint(peer), freshQueuePair());
            } catch (RuntimeException e) {
                fail(peer, what + "; a new queue pair for the next attempt: " + e.getMessage());
                return;
            }
        }
        peers.set(peer, ConnectionState.RETRY_WAIT);
    }

    /**
     * Server side: the connection accepted from {@code peer} did not come up ({@code what}): its id
     * and queue pair go (a fresh one waits), and the client's next request is accepted.
     */
    private void abandonAccept(int peer, String what) {
        LOG.debug("iwarp: rank {}: dropping the connection accepted from rank {}: {}", rank, peer, what);
        history.note(peer, "accept dropped: " + what);
        ids.drop(peer);
        try {
            engine.replaceQueuePair(engine.endpoint(peer), freshQueuePair());
        } catch (RuntimeException e) {
            fail(peer, what + "; a new queue pair for the next request: " + e.getMessage());
            return;
        }
        peers.set(peer, ConnectionState.AWAITING_REQUEST);
    }

    private QueuePair freshQueuePair() {
        QueuePair qp = engine.createQueuePair();
        try {
            qp.toInit(1, engine.queuePairAccess(), 0);
        } catch (RuntimeException e) {
            qp.close();
            throw e;
        }
        return qp;
    }

    private void up(int peer) {
        clock.up(peer, System.nanoTime());
        peers.up(peer);
        attempts.reset(peer);
        LOG.debug("iwarp: rank {}: connected to rank {} in {} ms", rank, peer,
                TimeUnit.NANOSECONDS.toMillis(clock.sinceBegun(peer, System.nanoTime())));
    }

    /** Fails connections past the time limit; starts the attempts whose backoff is over. */
    private void checkTimes() {
        long now = System.nanoTime();
        for (int p = 0; p < peers.size(); p++) {
            ConnectionState s = peers.of(p);
            if (s == ConnectionState.NONE || s == ConnectionState.CONNECTED || s == ConnectionState.FAILED) {
                continue;
            }
            if (clock.sinceBegun(p, now) > timeoutNanos) {
                fail(p, "no connection within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s (" + s
                        + (attempts.failures(p) > 0 ? ", " + (attempts.failures(p) + 1) + " attempts" : "") + ")");
            } else if (s == ConnectionState.ACCEPTED && clock.sinceAccepted(p, now) > FIRST_WAIT_NANOS) {
                abandonAccept(p, "no first message within " + TimeUnit.NANOSECONDS.toSeconds(FIRST_WAIT_NANOS)
                        + " s of the accept");
            } else if (s == ConnectionState.RETRY_WAIT && attempts.due(p, now)) {
                engine.counters().connectResend();
                if (p < rank) {
                    connect(p);
                } else {
                    callMe(p);
                }
            }
        }
    }

    private void fail(int peer, String what) {
        if (!peers.fail(peer)) {
            return;
        }
        firsts.reset(peer);
        String reason = "iwarp: rank " + rank + " could not connect to rank " + peer + " at " + addresses.describe(peer)
                + " from " + device.describe() + " port " + local.getPort() + ": " + what + "; set-up steps: "
                + history.of(peer);
        LOG.debug(reason);
        if (opening) {
            if (openFailure == null) {
                openFailure = reason;
            }
        } else {
            engine.connectionFailed(peer, reason);
        }
    }

    private CmConnectParameters parameters(int kind) {
        return new CmConnectParameters(engine.readsOut(engine.readsIn()), engine.readsIn(),
                kind == CONNECT ? CallMeRequests.privateData(kind, rank, engine) : CallMeRequests.privateData(kind, rank),
                7, 7);
    }

    /** Connects to {@code peer} at {@code address} instead of what it published (tests: a refused connection). */
    void useAddress(int peer, InetSocketAddress address) {
        addresses.use(peer, address);
    }

    /** Destroys every RDMA CM id (the listener's too) and the event channel; before the data path closes. */
    void close() {
        channel.close();
    }
}
