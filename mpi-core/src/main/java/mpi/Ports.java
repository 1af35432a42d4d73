package mpi;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ports this process opened (MPI_Open_port): each is a listening socket on every address
 * of the host, named {@code verbatim-port:<address>,<address>...:<tcp port>:<token>} (the
 * addresses tried in order by a connecting root, loopback last). The token, 128 random bits as
 * 32 hex digits, is the proof a connecting root presents ({@link PortExchange}): only those
 * given the name can connect, and a socket that later reuses the number is not taken for the
 * port. MPI port names are opaque, so a program passes the name on as it is.
 */
final class Ports {
    static final String PREFIX = "verbatim-port:";
    private static final int TOKEN_BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Map<String, ServerSocket> OPEN = new ConcurrentHashMap<>();

    private Ports() {
    }

    /** Opens a new port and returns its name. */
    static String open() throws IOException {
        ServerSocket s = new ServerSocket();
        s.bind(new InetSocketAddress(0), 64);
        byte[] n = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(n);
        String name = PREFIX + String.join(",", addresses()) + ":" + s.getLocalPort() + ":"
                + HexFormat.of().formatHex(n);
        OPEN.put(name, s);
        return name;
    }

    /** The listening socket of a port this process opened, or null. */
    static ServerSocket server(String name) {
        return name == null ? null : OPEN.get(name);
    }

    /** Closes a port this process opened; false when it did not open it (or closed it already). */
    static boolean close(String name) {
        ServerSocket s = name == null ? null : OPEN.remove(name);
        if (s == null) {
            return false;
        }
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        return true;
    }

    /** Closes every port (MPI_Finalize). */
    static void closeAll() {
        for (String name : List.copyOf(OPEN.keySet())) {
            close(name);
        }
    }

    /** A parsed port name: where to connect and the token to present. */
    record Address(List<InetSocketAddress> addresses, String token) {
    }

    /** The name of the port {@code server} listens for, without its token (for messages). */
    static String withoutToken(ServerSocket server) {
        for (Map.Entry<String, ServerSocket> e : OPEN.entrySet()) {
            if (e.getValue() == server) {
                return e.getKey().substring(0, e.getKey().lastIndexOf(':'));
            }
        }
        return "at tcp port " + server.getLocalPort();
    }

    /** Parses a port name; null when it is not one of Verbatim's. */
    static Address parse(String name) {
        if (name == null || !name.startsWith(PREFIX)) {
            return null;
        }
        String[] f = name.substring(PREFIX.length()).split(":");
        if (f.length != 3 || f[2].length() != 2 * TOKEN_BYTES) {
            return null;
        }
        try {
            int port = Integer.parseInt(f[1]);
            List<InetSocketAddress> out = new ArrayList<>();
            for (String a : f[0].split(",")) {
                out.add(new InetSocketAddress(a, port));
            }
            return new Address(out, f[2]);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The host's IPv4 addresses that are up, loopback last. */
    private static List<String> addresses() {
        List<String> out = new ArrayList<>();
        try {
            for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!i.isUp() || i.isLoopback()) {
                    continue;
                }
                for (InetAddress a : Collections.list(i.getInetAddresses())) {
                    if (a instanceof Inet4Address) {
                        out.add(a.getHostAddress());
                    }
                }
            }
        } catch (SocketException ignored) {
            // loopback only
        }
        out.add(InetAddress.getLoopbackAddress().getHostAddress());
        return out;
    }
}
