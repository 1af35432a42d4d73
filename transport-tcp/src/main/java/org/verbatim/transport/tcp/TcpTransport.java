package org.verbatim.transport.tcp;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Consumer;
import org.verbatim.spi.AtomicOp;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.DynamicPeers;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.OperationLimits;
import org.verbatim.spi.ProfileCounter;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.spi.WaitSource;
import org.verbatim.spi.support.RdmaEmulation;

/**
 * The TCP transport: one non-blocking socket per peer, opened on first use, all served by one
 * selector from {@link #progress()}; RDMA write, read and atomics by the shared active-message
 * emulation ({@link RdmaEmulation}, flagged {@code *_EMULATED}).
 *
 * <p>Every rank listens on an ephemeral port of the wildcard address and publishes the addresses
 * of its chosen interfaces ({@link Interfaces}) in the bootstrap space. A rank that sends first to
 * a peer connects, trying the peer's addresses in order within the connect timeout, and sends
 * HELLO ({@link Frames}). Both sides may connect at once; the tie-break keeps exactly one
 * connection, the one opened by the lower rank (between jobs: the lower job hash, then rank; peers
 * of other worlds are {@link ForeignPeers}): a rank that gets a HELLO while its own attempt
 * to that peer is pending rejects it if its own rank is the lower one, and otherwise accepts it
 * and drops its own attempt. Messages sent before the connection is up wait in the peer's queue.
 *
 * <p>A connection that ends or resets without the peer's BYE, a refused or timed-out connect,
 * and a malformed frame report the peer as failed ({@link CompletionHandler#onPeerFailure}), and
 * the runtime ends the job naming it. A frame is handed up only when complete.
 */
final class TcpTransport implements Transport {
    static final String KEY_PREFIX = "tcp-addresses-";
    /** Progress passes between checks of the connect deadlines. */
    private static final int DEADLINE_CHECK_PASSES = 4096;
    private static final long CLOSE_FLUSH_NANOS = 2_000_000_000L;
    /**
     * Progress passes between two looks at the listening socket while this rank has no
     * connection at all: a job whose peers all use shm (tcp is open, but never chosen) must not
     * pay a selector system call on every pass of its hot path. A peer's first connection waits
     * at most this many passes to be accepted.
     */
    private static final int IDLE_POLL_PASSES = 1024;
    /**
     * Up to this many connected peers, progress reads each socket directly (one non-blocking
     * read(2) per peer and pass) instead of asking the selector first: a message that has arrived
     * costs one system call on the way up, not two (epoll_wait, then read). The selector still
     * runs every {@link #DIRECT_SELECT_PASSES} passes, and on every pass while a connection is
     * being made, for accepts, connects and write readiness (issue 16: 8 B latency).
     */
    static final int DIRECT_READ_MAX = 4;
    private static final int DIRECT_SELECT_PASSES = 64;

    private final int rank;
    private final int size;
    private final TransportContext context;
    private final TcpConfiguration config;
    private final CompletionHandler runtime;
    private final RdmaEmulation emulation;
    private final Capabilities capabilities;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final PeerLink[] links;
    private final ByteBuffer scratch;
    private final Consumer<SelectionKey> onReady = this::onReady;
    private final WaitSource waitSource = new SelectorWaitSource();
    private final Connector connector;
    private final ForeignPeers foreign;
    private final DynamicPeers dynamicPeers = new TcpDynamicPeers();
    /** This process's addresses as published (the address card's last part). */
    private String published = "";
    private int passesToDeadlineCheck = DEADLINE_CHECK_PASSES;
    private int passesToIdlePoll = IDLE_POLL_PASSES;
    /** The connected links progress reads directly, or none (directCount 0) beyond DIRECT_READ_MAX. */
    private final PeerLink[] direct = new PeerLink[DIRECT_READ_MAX];
    private int directCount;
    private boolean linksChanged;
    private int passesToSelect;
    /** Shrinks the send queues a burst grew (PeerLink reports growth to it). */
    final QueueSweep queueSweep;
    private boolean inProgress;
    private boolean closing;
    private boolean closed;
    long framesSent;
    /** The traffic timeline, or null (verbatim.tcp.trace-ms 0). */
    final TcpTrace trace;
    private final FrameReader reader;

    private TcpTransport(TransportContext context, TcpConfiguration config, Selector selector,
                         ServerSocketChannel server) {
        this.context = context;
        this.rank = context.rank();
        this.size = context.size();
        this.config = config;
        this.runtime = context.handler();
        this.selector = selector;
        this.server = server;
        int capacity = size + DynamicPeers.MAX_ADDED;
        this.links = new PeerLink[capacity];
        this.queueSweep = new QueueSweep(links);
        this.foreign = new ForeignPeers(size, capacity);
        this.scratch = ByteBuffer.allocateDirect(PeerLink.SCRATCH_SIZE).order(ByteOrder.nativeOrder());
        int frame = config.eagerSize() + Frames.HEADROOM;
        this.emulation = new RdmaEmulation(runtime, capacity, frame, this::link,
                config.maxRdmaOps(), RdmaEmulation.DEFAULT_MAX_IOV);
        Capabilities raw = new Capabilities(EnumSet.of(Capability.SEND_RECV),
                new OperationLimits(0, frame, 0, 2), OperationLimits.NONE,
                OperationLimits.NONE, EnumSet.noneOf(AtomicOp.class), 0, 0);
        this.capabilities = emulation.capabilities(raw);
        this.connector = new Connector(this, context, config, selector, server);
        this.trace = config.traceMillis() > 0 ? new TcpTrace(rank, config.traceMillis(), System.err) : null;
        this.reader = new FrameReader(this, emulation, frame, trace);
    }

    /** Opens the listening socket, publishes its addresses and waits for every rank's (collective). */
    static TcpTransport open(TransportContext context, TcpConfiguration config)
            throws TransportException {
        List<InetAddress> mine = Interfaces.select(config.ifInclude());
        Selector selector = null;
        ServerSocketChannel server = null;
        try {
            selector = Selector.open();
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(0), 256);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            TcpTransport t = new TcpTransport(context, config, selector, server);
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            t.published = Interfaces.format(mine, port);
            context.bootstrap().put(KEY_PREFIX + context.rank(), t.published);
            context.bootstrap().barrier();
            return t;
        } catch (IOException e) {
            closeQuietly(server);
            closeQuietly(selector);
            throw new TransportException("tcp: cannot listen: " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return TcpTransportProvider.NAME;
    }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    @Override
    public boolean reaches(int peer) {
        return peer >= 0 && peer < size ? peer != rank : foreign.known(peer);
    }

    @Override
    public <T> T extension(Class<T> type) {
        return type == DynamicPeers.class ? type.cast(dynamicPeers) : null;
    }

    /** The peers of other worlds. */
    ForeignPeers foreign() {
        return foreign;
    }

    /** Peers of other worlds (connect/accept, spawn): their cards and parked HELLOs. */
    private final class TcpDynamicPeers implements DynamicPeers {
        @Override
        public String addressCard() {
            return ForeignPeers.card(Frames.jobHash(context.bootstrap().jobId()), rank, published);
        }

        @Override
        public boolean addPeer(int peer, String card) {
            if (!foreign.add(peer, card)) {
                return false;
            }
            for (Connection c : foreign.unpark()) {
                try {
                    connector.answerHello(c);
                } catch (IOException e) {
                    closeQuietly(c.channel);
                }
            }
            return true;
        }
    }

    @Override
    public Endpoint endpoint(int peer) {
        if (!reaches(peer)) {
            throw new IllegalArgumentException("tcp does not reach rank " + peer);
        }
        return emulation.endpoint(peer);
    }

    /** The raw link to {@code peer} (made on first use). */
    PeerLink link(int peer) {
        PeerLink l = links[peer];
        if (l == null) {
            l = new PeerLink(this, peer, config.eagerSize() + Frames.HEADROOM, config.sendQueue(), scratch);
            links[peer] = l;
        }
        return l;
    }

    @Override
    public MemoryRegistration register(MemorySegment segment, int access) {
        return emulation.register(segment, access);
    }

    @Override
    public WaitSource waitSource() {
        return waitSource;
    }

    @Override
    public long eagerLimit() {
        return config.eagerLimit();
    }

    @Override
    public long eagerWindow() {
        return config.eagerWindow();
    }

    @Override
    public long communicationMemory() {
        long buffers = scratch.capacity();
        for (PeerLink l : links) {
            if (l != null) {
                buffers += l.queue.capacity() + (l.in != null ? l.in.capacity() : 0);
            }
        }
        return buffers;
    }

    @Override
    public List<ProfileCounter> profileCounters() {
        long buffers = scratch.capacity();
        int connections = 0;
        for (PeerLink l : links) {
            if (l != null) {
                buffers += l.queue.capacity() + (l.in != null ? l.in.capacity() : 0);
                connections += l.channel != null ? 1 : 0;
            }
        }
        return List.of(ProfileCounter.sum("tcp frames sent", framesSent),
                ProfileCounter.sum("tcp frames received", reader.framesReceived()),
                ProfileCounter.sum("tcp frames received into place", reader.framesPlaced()),
                ProfileCounter.sum("tcp connections", connections),
                new ProfileCounter("tcp communication buffers", "KiB", buffers >> 10,
                        ProfileCounter.Combine.SUM_AND_MAX));
    }

    // ------------------------------------------------------------------ progress

    @Override
    public int progress() {
        if (inProgress || closed) {
            return 0;
        }
        if (!connector.active() && --passesToIdlePoll > 0) {
            return 0; // no connection yet: look for one only now and then (see IDLE_POLL_PASSES)
        }
        passesToIdlePoll = IDLE_POLL_PASSES;
        inProgress = true;
        if (trace != null) {
            trace.pass();
        }
        try {
            if (linksChanged) {
                collectDirectLinks();
            }
            int work;
            if (directCount > 0 && connector.connecting() == 0 && --passesToSelect > 0) {
                work = readDirect();
            } else {
                passesToSelect = DIRECT_SELECT_PASSES;
                if (trace != null) {
                    trace.selects++;
                }
                work = selector.selectNow(onReady);
            }
            work += emulation.progress();
            queueSweep.pass();
            if (connector.connecting() > 0 && --passesToDeadlineCheck <= 0) {
                passesToDeadlineCheck = DEADLINE_CHECK_PASSES;
                connector.checkDeadlines(links);
            }
            return work;
        } catch (IOException e) {
            throw new IllegalStateException("tcp: selector failed: " + e.getMessage(), e);
        } finally {
            inProgress = false;
        }
    }

    /** A link came up or went down: the next pass recollects the links it reads directly. */
    void linksChanged() {
        linksChanged = true;
    }

    private void collectDirectLinks() {
        linksChanged = false;
        int n = 0;
        for (PeerLink l : links) {
            if (l != null && l.channel != null && l.in != null && !l.failed) {
                if (n == DIRECT_READ_MAX) {
                    n = 0; // too many: the selector serves them all
                    break;
                }
                direct[n++] = l;
            }
        }
        java.util.Arrays.fill(direct, n, DIRECT_READ_MAX, null);
        directCount = n;
    }

    /** One pass over the directly read links: flush what waits in a queue, read what arrived. */
    private int readDirect() {
        int work = 0;
        for (int i = 0; i < directCount; i++) {
            PeerLink l = direct[i];
            if (l.channel == null || l.failed) {
                continue; // closed during this pass; recollected on the next
            }
            if (l.pending() && l.flush() && l.key != null && l.key.isValid()) {
                l.key.interestOps(SelectionKey.OP_READ);
            }
            if (l.channel != null && reader.read(l) > 0) {
                work++;
            }
        }
        return work;
    }

    private void onReady(SelectionKey key) {
        Object a = key.attachment();
        try {
            if (a instanceof PeerLink l) {
                if (key.isValid() && key.isWritable()) {
                    if (l.flush()) {
                        key.interestOps(SelectionKey.OP_READ);
                    }
                }
                if (key.isValid() && key.isReadable()) {
                    reader.read(l);
                }
            } else if (a instanceof Connection c) {
                connector.handshake(c);
            } else if (key.isAcceptable()) {
                connector.accept();
            }
        } catch (java.nio.channels.CancelledKeyException ignored) {
            // closed while handling an earlier key of this pass
        }
    }

    /** Asks for a write-ready event on {@code l}'s socket (its queue holds bytes). */
    void wantWrite(PeerLink l) {
        if (l.key != null && l.key.isValid()) {
            l.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    /** Starts connecting to {@code l}'s peer unless connected or already trying. */
    void connect(PeerLink l) {
        connector.connect(l);
    }

    /** True while finalizing: ends of streams are expected, connections are refused. */
    boolean closing() {
        return closing;
    }

    // ------------------------------------------------------------------ failure and close

    /** Reports {@code l}'s peer as failed (once) and closes its sockets. */
    void fail(PeerLink l, String reason) {
        if (l.failed) {
            return;
        }
        l.failed = true;
        if (l.addresses != null && l.channel == null) {
            connector.gaveUp();
        }
        closeLink(l);
        if (!closing) {
            runtime.onPeerFailure(l.peer, "tcp: " + reason);
        }
    }

    void closeLink(PeerLink l) {
        linksChanged = true;
        if (l.key != null) {
            l.key.cancel();
        }
        closeQuietly(l.channel);
        if (l.outgoing != null) {
            closeQuietly(l.outgoing.channel);
            l.outgoing = null;
        }
        l.channel = null;
    }

    /**
     * Sends BYE to every connected peer, flushes within a bound, reads until each connected peer's
     * BYE or end of stream (or the bound passes) so no unread byte turns the close into a reset,
     * and releases everything.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closing = true;
        if (trace != null) {
            trace.flush();
        }
        long deadline = System.nanoTime() + CLOSE_FLUSH_NANOS;
        for (PeerLink l : links) {
            if (l != null && l.channel != null && !l.failed && l.queueBye()) {
                l.flush();
            }
        }
        try {
            while (System.nanoTime() - deadline < 0 && stillOpen()) {
                for (PeerLink l : links) {
                    if (l != null && l.channel != null && l.pending()) {
                        l.flush();
                    }
                    if (l != null && l.channel != null && l.byeReceived && !l.pending()) {
                        // the peer sends nothing after its BYE and ours is written: closing now
                        // leaves no unread byte on either side. Waiting for the peer's end of
                        // stream instead made two finalizing peers wait for each other until
                        // the deadline (2 s per job over tcp)
                        closeLink(l);
                    }
                }
                selector.select(onReady, 10);
            }
        } catch (IOException ignored) {
            // closing anyway
        }
        for (PeerLink l : links) {
            if (l != null) {
                closeLink(l);
                l.releaseQueue();
            }
        }
        closeQuietly(server);
        closeQuietly(selector);
        closed = true;
    }

    private boolean stillOpen() {
        for (PeerLink l : links) {
            if (l != null && l.channel != null && !l.failed) {
                return true;
            }
        }
        return false;
    }

    static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // nothing left to do
            }
        }
    }

    /** Closes every socket without BYE, as a process that dies would (tests only). */
    void dropConnectionsForTest() {
        for (PeerLink l : links) {
            if (l != null) {
                l.failed = true; // report nothing here: this side is the one that "died"
                closeLink(l);
            }
        }
    }

    /** Idle strategy "block": sleeps in the selector (it has no descriptor to combine). */
    private final class SelectorWaitSource implements WaitSource {
        @Override
        public boolean arm() {
            return emulation.idle();
        }

        @Override
        public int fd() {
            return -1;
        }

        @Override
        public boolean dormant() {
            return !connector.active();
        }

        @Override
        public void sleep(long maxNanos) {
            long start = trace != null ? System.nanoTime() : 0;
            try {
                selector.select(k -> { }, Math.max(1, maxNanos / 1_000_000));
            } catch (IOException ignored) {
                // a wake-up without work is harmless
            }
            if (trace != null) {
                trace.sleeps++;
                trace.sleepNanos += System.nanoTime() - start;
            }
        }

        @Override
        public void disarm() {
        }
    }
}
