package org.verbatim.transport.iwarp;

import java.util.HashMap;
import java.util.Map;
import org.verbatim.verbs.CmId;

/**
 * The RDMA CM ids of the connections, per peer: the one of the current attempt (connection
 * events are routed to their peer by the id they name), and a client's request that arrived
 * while this (server) side was still draining its queue pair, held until it can be accepted.
 */
final class CmIdTable {
    private final CmId[] ids;
    private final CmId[] held;
    private final Map<Long, Integer> peerOfId = new HashMap<>();

    CmIdTable(int size) {
        this.ids = new CmId[size];
        this.held = new CmId[size];
    }

    /** Makes {@code id} the current one of {@code peer} (the previous one must have been dropped). */
    void use(int peer, CmId id) {
        ids[peer] = id;
        peerOfId.put(id.address(), peer);
    }

    /** The current id of {@code peer}, or null. */
    CmId of(int peer) {
        return ids[peer];
    }

    /** The peer whose current id is the one at {@code address}, or null (an id dropped since, or not ours). */
    Integer peerOf(long address) {
        return peerOfId.get(address);
    }

    /** Destroys the current id of {@code peer}, if any: its connection, if any, is closed. */
    void drop(int peer) {
        CmId old = ids[peer];
        ids[peer] = null;
        if (old != null) {
            peerOfId.remove(old.address());
            old.close();
        }
    }

    /** Holds {@code request} from {@code peer} for later, destroying a request held before. */
    void hold(int peer, CmId request) {
        if (held[peer] != null) {
            held[peer].close();
        }
        held[peer] = request;
    }

    /** The request held for {@code peer}, no longer held; or null. */
    CmId takeHeld(int peer) {
        CmId r = held[peer];
        held[peer] = null;
        return r;
    }
}
