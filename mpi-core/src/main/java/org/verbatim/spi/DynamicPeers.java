package org.verbatim.spi;

/**
 * A transport's service ({@link Transport#extension}) for peers of other worlds: processes of
 * another job or of a spawned world, met through MPI_Comm_connect/accept or spawn. Such a peer
 * gets a local peer number from {@code worldSize} up (below {@code worldSize + MAX_ADDED}); the
 * runtime hands the transport the peer's address card, which the peer's own transport made with
 * {@link #addressCard()}, and from then on {@link Transport#reaches} and {@link
 * Transport#endpoint} take that number like a world rank and the transport delivers the peer's
 * messages under it. A transport without this service reaches only its own world.
 */
public interface DynamicPeers {
    /** How many peers of other worlds one process can add over its life. */
    int MAX_ADDED = 1024;

    /**
     * This process's address for this transport as text without spaces or '|' (for example the
     * job, the rank and the listening addresses); null when it cannot be reached from outside.
     */
    String addressCard();

    /**
     * Makes peer number {@code peer} ({@code worldSize <= peer < worldSize + MAX_ADDED}) the
     * process whose {@link #addressCard()} is {@code card}; false when this transport cannot
     * reach it (another host without a route, a card it does not understand). Connecting is
     * left to the first send, as for world ranks. The other process decides about this one from
     * the same two cards, and the two must agree (each expects the other's messages on the
     * transport it chose): a transport whose decision could differ between the two sides (one
     * may fail to set up what the cards promise) throws IllegalStateException with the reason
     * instead of returning false, and the runtime reports it as an error of the call.
     */
    boolean addPeer(int peer, String card);
}
