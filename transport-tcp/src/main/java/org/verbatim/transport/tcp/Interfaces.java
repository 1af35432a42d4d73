package org.verbatim.transport.tcp;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.verbatim.spi.TransportException;

/**
 * Which local addresses a rank offers its peers ({@code verbatim.tcp.if-include}): the addresses
 * of interfaces that are up, chosen by interface name or by subnet (IPv4 or IPv6 CIDR), and
 * their text form in the bootstrap's key-value space. Peers try them in the order given, so
 * without a choice the non-loopback ones come first and loopback last (it reaches only this host).
 */
final class Interfaces {
    private Interfaces() {
    }

    /** The addresses to offer, in order; TransportException when the choice matches none. */
    static List<InetAddress> select(String ifInclude) throws TransportException {
        List<NetworkInterface> up = new ArrayList<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (ni.isUp()) {
                    up.add(ni);
                }
            }
        } catch (SocketException e) {
            throw new TransportException("tcp: cannot list the network interfaces: " + e.getMessage(), e);
        }
        List<InetAddress> chosen = new ArrayList<>();
        List<InetAddress> loopback = new ArrayList<>();
        String[] tokens = ifInclude.isEmpty() ? new String[0] : ifInclude.split(",");
        for (NetworkInterface ni : up) {
            for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                if (a instanceof Inet6Address v6 && (v6.isLinkLocalAddress() || v6.isMulticastAddress())) {
                    continue;
                }
                if (tokens.length == 0) {
                    (a.isLoopbackAddress() ? loopback : chosen).add(a);
                } else if (matchesAny(tokens, ni, a)) {
                    chosen.add(a);
                }
            }
        }
        chosen.sort((x, y) -> Boolean.compare(x instanceof Inet6Address, y instanceof Inet6Address));
        chosen.addAll(loopback);
        if (chosen.isEmpty()) {
            List<String> names = new ArrayList<>();
            for (NetworkInterface ni : up) {
                names.add(ni.getName() + " " + Collections.list(ni.getInetAddresses()));
            }
            throw new TransportException("tcp: " + TcpConfiguration.IF_INCLUDE.name() + "="
                    + (ifInclude.isEmpty() ? "(empty)" : ifInclude)
                    + " matches no address of an interface that is up; interfaces: " + names);
        }
        return chosen;
    }

    private static boolean matchesAny(String[] tokens, NetworkInterface ni, InetAddress a)
            throws TransportException {
        for (String raw : tokens) {
            String t = raw.trim();
            if (t.isEmpty()) {
                continue;
            }
            if (t.contains("/") ? inSubnet(t, a) : t.equals(ni.getName())) {
                return true;
            }
        }
        return false;
    }

    /** True if {@code a} lies in {@code cidr} ("10.1.0.0/16", "fd00::/8"). */
    static boolean inSubnet(String cidr, InetAddress a) throws TransportException {
        int slash = cidr.indexOf('/');
        InetAddress net;
        int bits;
        try {
            net = InetAddress.getByName(cidr.substring(0, slash));
            bits = Integer.parseInt(cidr.substring(slash + 1));
        } catch (UnknownHostException | NumberFormatException e) {
            throw new TransportException("tcp: " + TcpConfiguration.IF_INCLUDE.name()
                    + ": not a subnet: " + cidr);
        }
        byte[] n = net.getAddress();
        byte[] x = a.getAddress();
        if (bits < 0 || bits > 8 * n.length) {
            throw new TransportException("tcp: " + TcpConfiguration.IF_INCLUDE.name()
                    + ": prefix length out of range: " + cidr);
        }
        if (n.length != x.length) {
            return false;
        }
        for (int i = 0; i < bits; i++) {
            int mask = 0x80 >>> (i % 8);
            if ((n[i / 8] & mask) != (x[i / 8] & mask)) {
                return false;
            }
        }
        return true;
    }

    /** "a.b.c.d:port" or "[v6]:port" for each address, joined by spaces. */
    static String format(List<InetAddress> addresses, int port) {
        StringBuilder sb = new StringBuilder();
        for (InetAddress a : addresses) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            String host = a.getHostAddress();
            int pct = host.indexOf('%');
            if (pct >= 0) {
                host = host.substring(0, pct);
            }
            sb.append(a instanceof Inet4Address ? host : "[" + host + "]").append(':').append(port);
        }
        return sb.toString();
    }

    /** The addresses of {@link #format}'s text. */
    static List<InetSocketAddress> parse(String text) {
        List<InetSocketAddress> out = new ArrayList<>();
        for (String item : text.trim().split("\\s+")) {
            if (item.isEmpty()) {
                continue;
            }
            int colon = item.lastIndexOf(':');
            String host = item.substring(0, colon);
            if (host.startsWith("[")) {
                host = host.substring(1, host.length() - 1);
            }
            int port = Integer.parseInt(item.substring(colon + 1));
            out.add(new InetSocketAddress(host.toLowerCase(Locale.ROOT), port));
        }
        return out;
    }
}
