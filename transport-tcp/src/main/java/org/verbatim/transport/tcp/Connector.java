package org.verbatim.transport.tcp;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.verbatim.spi.TransportContext;

/**
 * How the TCP transport's connections come up: connecting to a peer's published addresses in
 * order within the connect timeout, accepting, the HELLO/REPLY handshake ({@link Frames}) and
 * its tie-break (when two ranks connect to each other at once, the connection opened by the
 * lower rank is kept), and handing an established socket to its {@link PeerLink}.
 */
final class Connector {
    /** First size of a connection's receive buffer (it grows when a larger frame comes). */
    private static final int INITIAL_RECEIVE_BUFFER = 16 << 10;

    private final TcpTransport transport;
    private final TransportContext context;
    private final TcpConfiguration config;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final int rank;
    private final int size;
    private final long jobHash;
    /** True from the first connection attempt or accepted socket on. */
    private boolean active;
    /** Peers being connected to (for the deadline check). */
    private int connecting;

    Connector(TcpTransport transport, TransportContext context, TcpConfiguration config,
              Selector selector, ServerSocketChannel server) {
        this.transport = transport;
        this.context = context;
        this.config = config;
        this.selector = selector;
        this.server = server;
        this.rank = context.rank();
        this.size = context.size();
        this.jobHash = Frames.jobHash(context.bootstrap().jobId());
    }

    /** True once this rank has tried or accepted any connection: then progress polls every pass. */
    boolean active() {
        return active;
    }

    /** Peers whose connection is not up yet. */
    int connecting() {
        return connecting;
    }

    /** A peer being connected to failed (no longer counted as connecting). */
    void gaveUp() {
        connecting--;
    }

    /** Starts connecting to {@code l}'s peer unless connected or already trying. */
    void connect(PeerLink l) {
        if (l.channel != null || l.outgoing != null || l.failed || transport.closing()) {
            return;
        }
        if (l.addresses == null && l.peer >= size) {
            l.addresses = transport.foreign().addresses(l.peer);
            l.connectDeadline = System.nanoTime() + config.connectTimeoutNanos();
            connecting++;
        } else if (l.addresses == null) {
            String published = context.bootstrap().get(TcpTransport.KEY_PREFIX + l.peer);
            if (published == null) {
                transport.fail(l, "rank " + l.peer + " published no tcp address");
                return;
            }
            l.addresses = Interfaces.parse(published);
            l.connectDeadline = System.nanoTime() + config.connectTimeoutNanos();
            connecting++;
        }
        tryNextAddress(l);
    }

    private void tryNextAddress(PeerLink l) {
        active = true;
        while (l.addressIndex < l.addresses.size()) {
            InetSocketAddress to = l.addresses.get(l.addressIndex++);
            SocketChannel ch = null;
            try {
                ch = SocketChannel.open();
                configure(ch);
                Connection c = new Connection(ch, true, l.peer, Connection.State.CONNECTING);
                c.address = to;
                if (ch.connect(to)) {
                    c.key = ch.register(selector, SelectionKey.OP_READ, c);
                    sendHello(c);
                } else {
                    c.key = ch.register(selector, SelectionKey.OP_CONNECT, c);
                }
                l.outgoing = c;
                return;
            } catch (IOException e) {
                TcpTransport.closeQuietly(ch);
                l.connectErrors += " " + to + ": " + e.getMessage() + ";";
            }
        }
        transport.fail(l, "cannot connect to rank " + l.peer + " at " + l.addresses + ":" + l.connectErrors);
    }

    private void configure(SocketChannel ch) throws IOException {
        ch.configureBlocking(false);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        if (config.sndbuf() > 0) {
            ch.setOption(StandardSocketOptions.SO_SNDBUF, config.sndbuf());
        }
        if (config.rcvbuf() > 0) {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, config.rcvbuf());
        }
    }

    private void sendHello(Connection c) throws IOException {
        ByteBuffer hello = Frames.hello(jobHash, rank);
        c.channel.write(hello);
        if (hello.hasRemaining()) {
            throw new IOException("could not write the 24-byte HELLO at once");
        }
        c.state = Connection.State.AWAIT_REPLY;
        c.key.interestOps(SelectionKey.OP_READ);
    }

    void accept() {
        SocketChannel ch;
        try {
            ch = server.accept();
            if (ch == null) {
                return;
            }
            active = true;
            configure(ch);
            Connection c = new Connection(ch, false, -1, Connection.State.AWAIT_HELLO);
            c.address = (InetSocketAddress) ch.getRemoteAddress();
            c.key = ch.register(selector, SelectionKey.OP_READ, c);
        } catch (IOException e) {
            // a peer that gave up its attempt: nothing to do, it tries again or reports
        }
    }

    void handshake(Connection c) {
        PeerLink l = c.peer >= 0 ? transport.link(c.peer) : null;
        try {
            if (c.state == Connection.State.CONNECTING) {
                if (c.channel.finishConnect()) {
                    sendHello(c);
                }
                return;
            }
            if (c.channel.read(c.in) < 0) {
                throw new IOException("closed during the handshake");
            }
            if (c.in.hasRemaining()) {
                return;
            }
            c.in.flip();
            if (c.state == Connection.State.AWAIT_REPLY) {
                onReply(c, l);
            } else {
                onHello(c);
            }
        } catch (IOException e) {
            TcpTransport.closeQuietly(c.channel);
            if (c.outgoing && l != null && l.outgoing == c) {
                l.outgoing = null;
                if (l.channel == null) {
                    l.connectErrors += " " + c.address + ": " + e.getMessage() + ";";
                    tryNextAddress(l);
                }
            }
        }
    }

    private void onReply(Connection c, PeerLink l) throws IOException {
        long magic = c.in.getLong();
        int from = c.in.getInt();
        int status = c.in.getInt();
        int expected = c.peer >= size ? transport.foreign().rankInItsWorld(c.peer) : c.peer;
        if (magic != Frames.MAGIC || from != expected) {
            throw new IOException("not rank " + c.peer + " of this job (a stranger answered)");
        }
        l.outgoing = null;
        if (status == Frames.ACCEPT && l.channel == null) {
            adopt(l, c);
        } else {
            TcpTransport.closeQuietly(c.channel); // the peer's own connection is (or becomes) the one
        }
    }

    private void onHello(Connection c) throws IOException {
        long magic = c.in.getLong();
        long job = c.in.getLong();
        int from = c.in.getInt();
        if (magic != Frames.MAGIC) {
            TcpTransport.closeQuietly(c.channel); // not a Verbatim process: ignore it
            return;
        }
        c.helloJob = job;
        c.helloRank = from;
        if (job == jobHash) {
            if (from < 0 || from >= size || from == rank) {
                TcpTransport.closeQuietly(c.channel); // not one of our ranks: ignore it
                return;
            }
            c.peer = from;
        } else {
            c.peer = transport.foreign().peerOf(job, from);
            if (c.peer < 0) {
                // a process of another world that learned of us before we learned of it: its
                // HELLO is answered when the runtime adds it (DynamicPeers.addPeer)
                c.key.interestOps(0);
                transport.foreign().park(c);
                return;
            }
        }
        answerHello(c);
    }

    /** Answers the HELLO of {@code c}, whose peer is known: accept (adopt) or reject. */
    void answerHello(Connection c) throws IOException {
        PeerLink l = transport.link(c.peer);
        boolean weAreLower = jobHash != c.helloJob ? jobHash < c.helloJob : rank < c.helloRank;
        boolean accept = l.channel == null && !l.failed && !transport.closing()
                && !(l.outgoing != null && weAreLower);
        c.channel.write(Frames.reply(rank, accept ? Frames.ACCEPT : Frames.REJECT));
        if (!accept) {
            TcpTransport.closeQuietly(c.channel);
            return;
        }
        if (l.outgoing != null) { // the peer's (lower-ordered) connection wins over ours
            TcpTransport.closeQuietly(l.outgoing.channel);
            l.outgoing = null;
        }
        adopt(l, c);
    }

    /** Makes {@code c} the connection of {@code l} and sends what waited for it. */
    private void adopt(PeerLink l, Connection c) {
        l.channel = c.channel;
        l.remote = c.address;
        l.key = c.key;
        l.key.attach(l);
        l.in = ByteBuffer.allocateDirect(Math.min(INITIAL_RECEIVE_BUFFER,
                2 * (Frames.LENGTH_SIZE + config.eagerSize() + Frames.HEADROOM))).order(ByteOrder.nativeOrder());
        l.inSegment = MemorySegment.ofBuffer(l.in);
        if (l.addresses != null) {
            connecting--;
        }
        l.key.interestOps(SelectionKey.OP_READ);
        transport.linksChanged();
        l.flush();
    }

    /** Fails the peers whose connection did not come up within the connect timeout. */
    void checkDeadlines(PeerLink[] links) {
        long now = System.nanoTime();
        for (PeerLink l : links) {
            if (l != null && l.channel == null && l.addresses != null && !l.failed
                    && now - l.connectDeadline > 0) {
                transport.fail(l, "cannot connect to rank " + l.peer + " at " + l.addresses + " within "
                        + config.connectTimeoutNanos() / 1_000_000 + " ms ("
                        + TcpConfiguration.CONNECT_TIMEOUT.name() + ")" + l.connectErrors);
            }
        }
    }
}
