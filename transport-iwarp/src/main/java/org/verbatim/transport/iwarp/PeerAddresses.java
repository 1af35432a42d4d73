package org.verbatim.transport.iwarp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import org.verbatim.bootstrap.Bootstrap;

/**
 * The listening addresses the ranks published ({@code iwarp.<rank> = address:port} in the
 * bootstrap), read at a peer's first connection and kept.
 */
final class PeerAddresses {
    private final InetSocketAddress[] addresses;
    private Bootstrap bootstrap;

    PeerAddresses(int size) {
        this.addresses = new InetSocketAddress[size];
    }

    void bootstrap(Bootstrap bootstrap) {
        this.bootstrap = bootstrap;
    }

    /** The listening address {@code peer} published. */
    InetSocketAddress of(int peer) {
        InetSocketAddress a = addresses[peer];
        if (a != null) {
            return a;
        }
        String value = bootstrap == null ? null : bootstrap.get("iwarp." + peer);
        if (value == null) {
            throw new IllegalStateException("rank " + peer + " published no iwarp address");
        }
        int colon = value.lastIndexOf(':');
        try {
            a = new InetSocketAddress(InetAddress.getByName(value.substring(0, colon)),
                    Integer.parseInt(value.substring(colon + 1)));
        } catch (UnknownHostException | RuntimeException e) {
            throw new IllegalStateException("rank " + peer + " published a bad iwarp address: " + value, e);
        }
        addresses[peer] = a;
        return a;
    }

    /** {@code peer}'s address in words ({@code 10.202.0.1:40913}), or why there is none. */
    String describe(int peer) {
        try {
            return text(of(peer));
        } catch (RuntimeException e) {
            return "(no address: " + e.getMessage() + ")";
        }
    }

    /** Connects to {@code peer} at {@code address} instead of what it published (tests). */
    void use(int peer, InetSocketAddress address) {
        addresses[peer] = address;
    }

    static String text(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }
}
