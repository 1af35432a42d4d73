package org.verbatim.transport.ib;

import static org.verbatim.verbs.raw.verbs_h_constants.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.bootstrap.Bootstrap;
import org.verbatim.transport.verbs.VerbsEndpoint;
import org.verbatim.transport.verbs.VerbsEngine;
import org.verbatim.verbs.AddressHandle;
import org.verbatim.verbs.CompletionQueue;
import org.verbatim.verbs.ConnectionParameters;
import org.verbatim.verbs.MemoryRegion;
import org.verbatim.verbs.ProtectionDomain;
import org.verbatim.verbs.QueuePair;
import org.verbatim.verbs.QueuePairConfig;
import org.verbatim.verbs.QueuePairType;
import org.verbatim.verbs.ReceiveRequest;
import org.verbatim.verbs.SendRequest;
import org.verbatim.verbs.WorkCompletions;

/**
 * On-demand RC connections (MVAPICH's on-demand connection management over UD). Every rank has
 * one UD queue pair, published through the bootstrap at open ({@code ib.<rank> =
 * LID:GID:MTU:UD-QPN}); RC queue pairs are created only for peers that talk.
 *
 * <pre>
 *  A (first endpoint(B))                     B
 *   create RC QP (INIT), REQUEST ──UD──>  create RC QP, RTR, RTS with A's QPN/PSN/address
 *   RTR, RTS, ready to send  <──UD── REPLY (B's QPN, PSN, address)
 *   READY ──UD──────────────────────>     ready to send (also on A's first RC message)
 * </pre>
 *
 * B does not send before READY because A's queue pair is not ready to receive before the REPLY.
 * UD may drop: A sends the REQUEST again every {@code connect-resend} ms until the REPLY comes, B
 * the REPLY until READY (or traffic) comes, and a duplicate REQUEST or REPLY is answered again;
 * after {@code connect-timeout} the peer is reported failed. Both sides connecting at once: the
 * lower rank's request wins; the higher rank answers it with the queue pair it had created for
 * its own request, so each side has one RC queue pair per peer. Until an endpoint is ready every
 * post on it returns RETRY, so the runtime keeps the messages queued, in order.
 *
 * <p>Re-establishing: when a queue pair goes to error without the peer being gone (a one-sided
 * operation the peer refused), the data path drains it ({@link VerbsEngine#recover}); then this
 * side resets it to INIT and sends a REQUEST of the next epoch. The peer, on a REQUEST of a newer
 * epoch, drains and resets its own queue pair the same way and answers it with a REPLY once
 * done; READY finishes as for a first connection. Both sides recovering at once: whichever
 * REQUEST arrives first at a side that has not sent its own is answered; two REQUESTs of the same
 * epoch are settled as above (the lower rank's wins).
 *
 * <p>Runs on the progressing thread (under the runtime's progress lock), like the transport.
 */
final class ConnectionManager {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionManager.class);

    /** Q_Key of the connection datagrams (high bit clear: not a privileged key). */
    static final int QKEY = 0x5642_0001;
    private static final int RECEIVES = 64;
    private static final int SENDS = 32;
    /** A UD receive buffer starts with room for the 40-byte global route header. */
    private static final int GRH = 40;
    private static final int SLOT = 128;
    private static final long SEND_ID = 1L << 32;

    static final byte NONE = 0;
    static final byte REQUESTED = 1;
    static final byte REPLIED = 2;
    static final byte CONNECTED = 3;
    /** The queue pair drains after an error; the connection is re-established next. */
    static final byte RECOVERING = 4;

    private final IbTransport transport;
    private final PortSelection.Selected port;
    private final ProtectionDomain pd;
    private final int rank;
    private final QueuePair ud;
    private final CompletionQueue cq;
    private final WorkCompletions wc;
    private final MemorySegment receiveSlab;
    private final MemorySegment sendSlab;
    private final MemoryRegion receiveRegion;
    private final MemoryRegion sendRegion;
    private final ReceiveRequest receiveRequest;
    private final SendRequest sendRequest;
    private final int[] freeSends = new int[SENDS];
    private int freeSendCount;
    private final byte[] state;
    private final int[] localPsn;
    private final long[] nextResend;
    private final long[] deadline;
    private final AddressHandle[] handles;
    private final int[] peerUdQpn;
    /** Connection epoch per peer (see {@link ConnectMessage}). */
    private final int[] epoch;
    /** A peer's REQUEST to answer once this side's queue pair has drained, per peer, or null. */
    private final int[][] deferred;
    private final byte[][] deferredGid;
    private final long resendNanos;
    private final long timeoutNanos;
    private Bootstrap bootstrap;
    /** Peers in REQUESTED or REPLIED. */
    private int pending;
    private long nextCheck;
    /** Tests: drop this many incoming datagrams, as a lossy fabric would. */
    int dropIncoming;

    ConnectionManager(IbTransport transport, PortSelection.Selected port, ProtectionDomain pd, Arena arena,
                      int rank, int size, IbConfiguration config) {
        this.transport = transport;
        this.port = port;
        this.pd = pd;
        this.rank = rank;
        this.state = new byte[size];
        this.localPsn = new int[size];
        this.nextResend = new long[size];
        this.deadline = new long[size];
        this.handles = new AddressHandle[size];
        this.peerUdQpn = new int[size];
        this.epoch = new int[size];
        this.deferred = new int[size][];
        this.deferredGid = new byte[size][];
        this.resendNanos = TimeUnit.MILLISECONDS.toNanos(config.connectResendMillis);
        this.timeoutNanos = TimeUnit.SECONDS.toNanos(config.connectTimeoutSeconds);
        this.cq = port.context().createCompletionQueue(RECEIVES + SENDS + 8, null);
        this.wc = new WorkCompletions(arena, 16);
        this.ud = pd.createQueuePair(new QueuePairConfig(QueuePairType.UD, cq, cq, null, SENDS, RECEIVES, 1, 0));
        var none = new ConnectionParameters(port.port(), 0, 0, 0, null, -1, 0, 0);
        ud.toInit(port.port(), 0, QKEY);
        ud.toRtr(none);
        ud.toRts(none);
        this.receiveSlab = arena.allocate((long) RECEIVES * SLOT, 4096);
        this.sendSlab = arena.allocate((long) SENDS * SLOT, 4096);
        this.receiveRegion = pd.register(receiveSlab, IBV_ACCESS_LOCAL_WRITE);
        this.sendRegion = pd.register(sendSlab, IBV_ACCESS_LOCAL_WRITE);
        this.receiveRequest = new ReceiveRequest(arena, 1);
        this.sendRequest = new SendRequest(arena, 1);
        for (int i = 0; i < RECEIVES; i++) {
            repost(i);
        }
        for (int i = 0; i < SENDS; i++) {
            freeSends[freeSendCount++] = i;
        }
    }

    /** Publishes this rank's UD address (collective: the caller passes the bootstrap barrier). */
    void publish(Bootstrap bootstrap) {
        this.bootstrap = bootstrap;
        bootstrap.put("ib." + rank, port.attributes().lid() + ":"
                + (port.gid() == null ? "-" : HexFormat.of().formatHex(port.gid())) + ":"
                + port.attributes().activeMtu() + ":" + ud.qpNum());
    }

    /** The connection state of {@code peer} (NONE, REQUESTED, REPLIED, CONNECTED). */
    byte state(int peer) {
        return state[peer];
    }

    int localPsn(int peer) {
        return localPsn[peer];
    }

    // ------------------------------------------------------------------ active side

    /** {@code ep} was just created by a first {@code endpoint(peer)}: ask the peer to connect. */
    void connect(VerbsEndpoint ep) {
        int peer = ep.peer();
        if (handles[peer] == null) {
            String value = bootstrap.get("ib." + peer);
            if (value == null) {
                throw new IllegalStateException("ib: rank " + peer + " published no address (ib." + peer + ")");
            }
            String[] f = value.split(":");
            byte[] gid = f[1].equals("-") ? null : HexFormat.of().parseHex(f[1]);
            addressOf(peer, Integer.parseInt(f[0]), gid, Integer.parseInt(f[3]));
        }
        localPsn[peer] = ThreadLocalRandom.current().nextInt(1 << 24);
        state[peer] = REQUESTED;
        pending++;
        long now = System.nanoTime();
        deadline[peer] = now + timeoutNanos;
        nextResend[peer] = now + resendNanos;
        nextCheck = Math.min(nextCheck, nextResend[peer]);
        transport.counters().connectRequest();
        send(ConnectMessage.REQUEST, peer, ep.queuePair().qpNum());
    }

    private void addressOf(int peer, int lid, byte[] gid, int udQpn) {
        int gidIndex = port.roce() || gid != null && lid == 0 ? port.gidIndex() : -1;
        handles[peer] = pd.createAddressHandle(port.port(), lid, gidIndex >= 0 ? gid : null, gidIndex);
        peerUdQpn[peer] = udQpn;
    }

    // ------------------------------------------------------------------ progress

    /** Polls the UD queue pair and resends what is overdue; returns the work done. */
    int poll() {
        int n = cq.poll(wc);
        int work = 0;
        for (int i = 0; i < n; i++) {
            long id = wc.wrId(i);
            if ((id & SEND_ID) != 0) {
                freeSends[freeSendCount++] = (int) id;
                continue;
            }
            int slot = (int) id;
            if (wc.status(i) == IBV_WC_SUCCESS) {
                if (dropIncoming > 0) {
                    dropIncoming--;
                } else {
                    receive(receiveSlab, (long) slot * SLOT + GRH);
                    work++;
                }
            }
            repost(slot);
        }
        if (pending > 0) {
            work += resendOverdue();
        }
        return work;
    }

    /** True while some connection is being set up (the transport polls this side more often then). */
    boolean busy() {
        return pending > 0;
    }

    private int resendOverdue() {
        long now = System.nanoTime();
        if (now - nextCheck < 0) {
            return 0;
        }
        nextCheck = now + resendNanos / 4;
        int work = 0;
        for (int peer = 0; peer < state.length; peer++) {
            byte s = state[peer];
            if ((s != REQUESTED && s != REPLIED) || now - nextResend[peer] < 0) {
                continue;
            }
            if (now - deadline[peer] >= 0) {
                state[peer] = NONE;
                pending--;
                transport.connectionFailed(peer, "ib: rank " + peer + " did not " + (s == REQUESTED
                        ? "answer the connection request" : "confirm the connection")
                        + " within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s (UD on "
                        + port.describe() + ")");
                continue;
            }
            nextResend[peer] = now + resendNanos;
            transport.counters().connectResend();
            send(s == REQUESTED ? ConnectMessage.REQUEST : ConnectMessage.REPLY, peer,
                    transport.endpointOrNull(peer).queuePair().qpNum());
            work++;
        }
        return work;
    }

    private void receive(MemorySegment m, long at) {
        int type = ConnectMessage.get(m, at, ConnectMessage.TYPE);
        int from = ConnectMessage.get(m, at, ConnectMessage.FROM);
        int to = ConnectMessage.get(m, at, ConnectMessage.TO);
        if (to != rank || from < 0 || from >= state.length || from == rank) {
            LOG.warn("ib: stray connection datagram type {} from {} to {} at rank {}", type, from, to, rank);
            return;
        }
        int qpn = ConnectMessage.get(m, at, ConnectMessage.QPN);
        int psn = ConnectMessage.get(m, at, ConnectMessage.PSN);
        int lid = ConnectMessage.get(m, at, ConnectMessage.LID);
        int mtu = ConnectMessage.get(m, at, ConnectMessage.MTU);
        byte[] gid = ConnectMessage.gid(m, at);
        int reads = ConnectMessage.get(m, at, ConnectMessage.READS);
        int e = ConnectMessage.get(m, at, ConnectMessage.EPOCH);
        byte s = state[from];
        if (e < epoch[from] || type != ConnectMessage.REQUEST && e != epoch[from]) {
            return; // a datagram of an earlier connection, resent or late
        }
        if (type != ConnectMessage.READY) {
            transport.engine().peerReadTarget(from,
                    m.asSlice(at + ConnectMessage.READ_TARGET, VerbsEngine.READ_TARGET_BYTES).asByteBuffer());
        }
        switch (type) {
            case ConnectMessage.REQUEST -> {
                if (handles[from] == null) {
                    addressOf(from, lid, gid, ConnectMessage.get(m, at, ConnectMessage.UD_QPN));
                }
                VerbsEndpoint existing = transport.endpointOrNull(from);
                if (existing != null && (e > epoch[from] || s == RECOVERING)) {
                    // the peer re-establishes the connection: drain and reset our side first
                    epoch[from] = e;
                    if (s == REQUESTED || s == REPLIED) {
                        pending--;
                    }
                    state[from] = RECOVERING;
                    deferred[from] = new int[] {qpn, psn, lid, mtu, reads};
                    deferredGid[from] = gid;
                    if (!transport.engine().recovering(existing)) {
                        transport.engine().recover(existing);
                    } else if (!transport.engine().draining(existing)) {
                        answer(from, existing); // drained and reset already
                    }
                    return;
                }
                epoch[from] = e;
                if (s == REQUESTED && rank < from) {
                    return; // both asked: the lower rank's request wins, the peer answers ours
                }
                VerbsEndpoint ep = transport.endpointOrCreate(from);
                if (s == NONE || s == REQUESTED) {
                    if (s == NONE) {
                        localPsn[from] = ThreadLocalRandom.current().nextInt(1 << 24);
                        pending++;
                    }
                    transport.establish(ep, qpn, psn, lid, gid, mtu, localPsn[from], reads);
                    state[from] = REPLIED;
                    long now = System.nanoTime();
                    deadline[from] = now + timeoutNanos;
                    nextResend[from] = now + resendNanos;
                    nextCheck = Math.min(nextCheck, nextResend[from]);
                } else if (ep.remoteQpn() != qpn) {
                    LOG.warn("ib: rank {} asked again with a new queue pair {} (connected to {})", from, qpn,
                            ep.remoteQpn());
                    return;
                } else {
                    transport.counters().connectResend(); // our reply was lost: answer again
                }
                send(ConnectMessage.REPLY, from, ep.queuePair().qpNum());
            }
            case ConnectMessage.REPLY -> {
                VerbsEndpoint ep = transport.endpointOrNull(from);
                if (ep == null) {
                    return;
                }
                if (s == REQUESTED) {
                    transport.establish(ep, qpn, psn, lid, gid, mtu, localPsn[from], reads);
                    connected(from, ep);
                    send(ConnectMessage.READY, from, ep.queuePair().qpNum());
                } else if (s == CONNECTED && ep.remoteQpn() == qpn) {
                    transport.counters().connectResend();
                    send(ConnectMessage.READY, from, ep.queuePair().qpNum()); // our READY was lost
                }
            }
            case ConnectMessage.READY -> {
                if (s == REPLIED) {
                    connected(from, transport.endpointOrNull(from));
                }
            }
            default -> LOG.warn("ib: unknown connection datagram type {} from rank {}", type, from);
        }
    }

    /**
     * {@code ep}'s queue pair has drained after an error: reset it to INIT, post its receives
     * again, and either answer the peer's pending REQUEST or ask the peer to reconnect.
     */
    void drained(VerbsEndpoint ep) {
        int peer = ep.peer();
        ep.queuePair().reset();
        transport.toInit(ep);
        transport.engine().reopen(ep);
        if (deferred[peer] != null) {
            answer(peer, ep);
            return;
        }
        epoch[peer]++;
        localPsn[peer] = ThreadLocalRandom.current().nextInt(1 << 24);
        state[peer] = REQUESTED;
        pending++;
        long now = System.nanoTime();
        deadline[peer] = now + timeoutNanos;
        nextResend[peer] = now + resendNanos;
        nextCheck = Math.min(nextCheck, nextResend[peer]);
        transport.counters().connectRequest();
        send(ConnectMessage.REQUEST, peer, ep.queuePair().qpNum());
    }

    /** Answers the peer's deferred REQUEST (our queue pair is at INIT): RTR, RTS and REPLY. */
    private void answer(int peer, VerbsEndpoint ep) {
        int[] d = deferred[peer];
        deferred[peer] = null;
        localPsn[peer] = ThreadLocalRandom.current().nextInt(1 << 24);
        transport.establish(ep, d[0], d[1], d[2], deferredGid[peer], d[3], localPsn[peer], d[4]);
        state[peer] = REPLIED;
        pending++;
        long now = System.nanoTime();
        deadline[peer] = now + timeoutNanos;
        nextResend[peer] = now + resendNanos;
        nextCheck = Math.min(nextCheck, nextResend[peer]);
        send(ConnectMessage.REPLY, peer, ep.queuePair().qpNum());
    }

    /** The first RC message from {@code peer} arrived: its side is ready, whatever became of READY. */
    void trafficFrom(VerbsEndpoint ep) {
        if (state[ep.peer()] == REPLIED) {
            connected(ep.peer(), ep);
        }
    }

    private void connected(int peer, VerbsEndpoint ep) {
        state[peer] = CONNECTED;
        pending--;
        transport.ready(ep);
    }

    // ------------------------------------------------------------------ datagrams

    private void send(int type, int peer, int rcQpn) {
        if (freeSendCount == 0) {
            return; // the resend timer (or the peer's) repeats it
        }
        int slot = freeSends[--freeSendCount];
        MemorySegment m = sendSlab.asSlice((long) slot * SLOT, ConnectMessage.LENGTH);
        ConnectMessage.write(m, type, rank, peer, rcQpn, localPsn[peer], port.attributes().lid(),
                port.attributes().activeMtu(), ud.qpNum(), port.gid(), transport.readsIn(), epoch[peer]);
        transport.engine().putReadTarget(m.asSlice(ConnectMessage.READ_TARGET, VerbsEngine.READ_TARGET_BYTES)
                .asByteBuffer());
        sendRequest.operation(SEND_ID | slot, IBV_WR_SEND, IBV_SEND_SIGNALED)
                .entry(0, m.address(), ConnectMessage.LENGTH, sendRegion.lkey()).entries(1)
                .datagram(handles[peer].handle(), peerUdQpn[peer], QKEY);
        int rc = ud.post(sendRequest);
        if (rc != 0) {
            freeSends[freeSendCount++] = slot;
            LOG.debug("ib: connection datagram to rank {} not posted (errno {})", peer, rc);
        }
    }

    private void repost(int slot) {
        receiveRequest.wrId(slot).entry(0, receiveSlab.address() + (long) slot * SLOT, SLOT, receiveRegion.lkey());
        int rc = ud.post(receiveRequest);
        if (rc != 0) {
            LOG.debug("ib: UD receive {} not posted (errno {})", slot, rc);
        }
    }
}
