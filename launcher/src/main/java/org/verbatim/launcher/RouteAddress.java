package org.verbatim.launcher;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** The address of this host on the route toward another host: the one that host can reach us at. */
final class RouteAddress {
    private RouteAddress() {
    }

    /**
     * The local address the kernel would send from to reach {@code host} (a connected UDP
     * socket sends nothing but picks the route); throws IllegalArgumentException when there is no
     * route or the name is unknown.
     */
    static String toward(String host) {
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(new InetSocketAddress(InetAddress.getByName(host), 9));
            InetAddress local = probe.getLocalAddress();
            if (local == null || local.isAnyLocalAddress()) {
                throw new IllegalArgumentException("no route from this host to " + host
                        + "; set verbatim.launcher.pmi-address to the address it reaches this host at");
            }
            return local.getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown host '" + host + "' (not in DNS or /etc/hosts)");
        } catch (IOException e) {
            throw new IllegalArgumentException("no route from this host to " + host + " (" + e.getMessage()
                    + "); set verbatim.launcher.pmi-address to the address it reaches this host at");
        }
    }
}
