package org.verbatim.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.spi.DynamicPeers;
import org.verbatim.spi.Transport;

/**
 * The processes this one can address: the ranks of its own world (peer numbers 0 to size - 1)
 * and the processes of other worlds met through MPI_Comm_connect/accept or spawn, numbered from
 * the world size up in the order they were met. A process is known by its job-wide identity,
 * the job id (PMI kvsname) and its rank in that job; meeting it again gives the same number.
 *
 * <p>A process card tells another world how to reach this process: {@code
 * jobId|rank|host|transport=card|...}, one entry per transport that offers {@link DynamicPeers}.
 */
public final class PeerTable {
    private final String jobId;
    private final int rank;
    private final int size;
    private final String host;
    private final Map<String, Integer> byIdentity = new HashMap<>();
    private final List<String> hosts = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    PeerTable(String jobId, int rank, int size, String host) {
        this.jobId = jobId;
        this.rank = rank;
        this.size = size;
        this.host = host;
    }

    /** This process's card for the transports {@code opened}. */
    String card(List<Transport> opened) {
        StringBuilder sb = new StringBuilder(jobId).append('|').append(rank).append('|').append(host);
        for (Transport t : opened) {
            DynamicPeers d = t.extension(DynamicPeers.class);
            String c = d == null ? null : d.addressCard();
            if (c != null) {
                sb.append('|').append(t.name()).append('=').append(c);
            }
        }
        return sb.toString();
    }

    /**
     * The peer number of each card's process, adding the new ones to the transports that can
     * reach them (tried in dispatch order). Throws MpiError when a card cannot be read, the table
     * is full or no transport reaches a process.
     */
    synchronized int[] add(List<String> cards, List<Transport> opened) {
        int[] peers = new int[cards.size()];
        for (int i = 0; i < peers.length; i++) {
            peers[i] = add(cards.get(i), opened);
        }
        return peers;
    }

    private int add(String card, List<Transport> opened) {
        String[] f = card.split("\\|");
        if (f.length < 3) {
            throw new MpiError(ErrorClass.ERR_INTERN, "malformed process card: " + card);
        }
        int theirRank;
        try {
            theirRank = Integer.parseInt(f[1]);
        } catch (NumberFormatException e) {
            throw new MpiError(ErrorClass.ERR_INTERN, "malformed process card: " + card);
        }
        if (f[0].equals(jobId)) {
            return theirRank; // a rank of our own world
        }
        String identity = f[0] + "#" + theirRank;
        Integer known = byIdentity.get(identity);
        if (known != null) {
            return known;
        }
        if (hosts.size() >= DynamicPeers.MAX_ADDED) {
            throw new MpiError(ErrorClass.ERR_NO_MEM, "more than " + DynamicPeers.MAX_ADDED
                    + " processes of other worlds");
        }
        int peer = size + hosts.size();
        boolean reached = false;
        for (Transport t : opened) {
            DynamicPeers d = t.extension(DynamicPeers.class);
            String theirs = transportCard(f, t.name());
            try {
                if (d != null && theirs != null && d.addPeer(peer, theirs)) {
                    reached = true;
                    break;
                }
            } catch (RuntimeException e) {
                throw new MpiError(ErrorClass.ERR_OTHER, t.name() + " should reach rank " + theirRank
                        + " of job " + f[0] + " on " + f[2] + " but cannot: " + e.getMessage());
            }
        }
        if (!reached) {
            throw new MpiError(ErrorClass.ERR_OTHER, "no transport reaches rank " + theirRank
                    + " of job " + f[0] + " on " + f[2] + " (its card: " + card + "; opened here: "
                    + opened.stream().map(Transport::name).toList() + ")");
        }
        hosts.add(f[2]);
        names.add("rank " + theirRank + " of job " + f[0] + " on " + f[2]);
        byIdentity.put(identity, peer);
        return peer;
    }

    private static String transportCard(String[] fields, String transport) {
        for (int i = 3; i < fields.length; i++) {
            if (fields[i].startsWith(transport + "=")) {
                return fields[i].substring(transport.length() + 1);
            }
        }
        return null;
    }

    /** "rank N" for a world rank, "rank R of job J on H" for a peer of another world. */
    synchronized String describe(int peer) {
        return peer < size || peer - size >= names.size() ? "rank " + peer : names.get(peer - size);
    }

    /** The host of added peer {@code peer} (at least the world size). */
    synchronized String host(int peer) {
        return hosts.get(peer - size);
    }
}
