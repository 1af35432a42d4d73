package org.verbatim.transport.tcp;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * A socket during its handshake: an outgoing one from connect to REPLY, or an accepted one
 * until its HELLO has been read and answered. Once accepted it becomes the channel of a
 * {@link PeerLink}; a rejected or failed one is closed.
 */
final class Connection {
    enum State { CONNECTING, AWAIT_REPLY, AWAIT_HELLO }

    final SocketChannel channel;
    final boolean outgoing;
    /** The peer's world rank: known for an outgoing connection, learned from HELLO otherwise. */
    int peer;
    State state;
    SelectionKey key;
    /** Where the connection goes (outgoing) or comes from, for messages. */
    InetSocketAddress address;
    /** The handshake message being read, limited to its size so no frame byte is read early. */
    final ByteBuffer in;
    /** The job hash and rank an accepted socket's HELLO named (kept while it is parked). */
    long helloJob;
    int helloRank;

    Connection(SocketChannel channel, boolean outgoing, int peer, State state) {
        this.channel = channel;
        this.outgoing = outgoing;
        this.peer = peer;
        this.state = state;
        this.in = ByteBuffer.allocate(outgoing ? Frames.REPLY_SIZE : Frames.HELLO_SIZE)
                .order(ByteOrder.LITTLE_ENDIAN);
    }
}
