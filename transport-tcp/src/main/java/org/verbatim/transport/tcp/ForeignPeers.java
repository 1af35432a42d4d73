package org.verbatim.transport.tcp;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The peers of other worlds this process was given ({@link org.verbatim.spi.DynamicPeers}): for
 * each local peer number from the world size up, the peer's job hash, its rank in its own
 * world and its addresses; the reverse map that a HELLO from another job is resolved with; and
 * the accepted sockets whose HELLO named a peer not given yet (its side learned of us before
 * ours learned of it), answered when {@link #add} names it.
 *
 * <p>Address card: {@code <job hash in hex>/<rank>/<addresses, comma-separated>}.
 */
final class ForeignPeers {
    private record Identity(long jobHash, int rank) {
    }

    private final int worldSize;
    private final Identity[] byPeer;
    private final List<InetSocketAddress>[] addresses;
    private final Map<Identity, Integer> byIdentity = new HashMap<>();
    private final List<Connection> parked = new ArrayList<>();

    @SuppressWarnings("unchecked")
    ForeignPeers(int worldSize, int capacity) {
        this.worldSize = worldSize;
        this.byPeer = new Identity[capacity - worldSize];
        this.addresses = new List[capacity - worldSize];
    }

    /** This process's card. */
    static String card(long jobHash, int rank, String formattedAddresses) {
        return Long.toHexString(jobHash) + "/" + rank + "/" + formattedAddresses.trim().replace(' ', ',');
    }

    /** Records {@code peer} as the process of {@code card}; false for a card it cannot read. */
    boolean add(int peer, String card) {
        int i = peer - worldSize;
        if (i < 0 || i >= byPeer.length || card == null) {
            return false;
        }
        String[] parts = card.split("/", 3);
        if (parts.length != 3) {
            return false;
        }
        try {
            Identity id = new Identity(Long.parseUnsignedLong(parts[0], 16), Integer.parseInt(parts[1]));
            List<InetSocketAddress> a = Interfaces.parse(parts[2].replace(',', ' '));
            byPeer[i] = id;
            addresses[i] = a;
            byIdentity.put(id, peer);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** True if {@code peer} is a peer of another world given to this transport. */
    boolean known(int peer) {
        int i = peer - worldSize;
        return i >= 0 && i < byPeer.length && byPeer[i] != null;
    }

    /** The addresses of foreign {@code peer}. */
    List<InetSocketAddress> addresses(int peer) {
        return addresses[peer - worldSize];
    }

    /** The rank foreign {@code peer} has in its own world (what its HELLO and REPLY carry). */
    int rankInItsWorld(int peer) {
        return byPeer[peer - worldSize].rank();
    }

    /** The job hash of foreign {@code peer}. */
    long jobHash(int peer) {
        return byPeer[peer - worldSize].jobHash();
    }

    /** The local peer number of rank {@code rank} of job {@code jobHash}, or -1. */
    int peerOf(long jobHash, int rank) {
        Integer p = byIdentity.get(new Identity(jobHash, rank));
        return p == null ? -1 : p;
    }

    /** Keeps an accepted socket whose HELLO named a peer not given yet. */
    void park(Connection c) {
        parked.add(c);
    }

    /** Removes and returns the parked sockets that are now known peers. */
    List<Connection> unpark() {
        List<Connection> ready = new ArrayList<>();
        for (Iterator<Connection> it = parked.iterator(); it.hasNext(); ) {
            Connection c = it.next();
            int p = peerOf(c.helloJob, c.helloRank);
            if (p >= 0) {
                c.peer = p;
                ready.add(c);
                it.remove();
            }
        }
        return ready;
    }
}
