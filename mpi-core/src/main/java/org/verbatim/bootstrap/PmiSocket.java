package org.verbatim.bootstrap;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/**
 * The TCP connection of {@code PMI_PORT=host:port}, made with libc's socket(2) and connect(2)
 * rather than {@link java.net.Socket}: the PMI client then owns a plain descriptor, which
 * {@link LauncherWatch} can poll for the process manager's end without reading from it. The
 * connect timeout is SO_SNDTIMEO, which Linux applies to connect(2).
 */
final class PmiSocket {
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    private static final int SOCK_STREAM = 1;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int SOL_SOCKET = 1;
    private static final int SO_SNDTIMEO = 21;
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_NODELAY = 1;
    private static final ValueLayout.OfShort NET_SHORT =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private PmiSocket() {
    }

    /** A connected descriptor; tries each address of {@code host:port} in turn. */
    static int connect(String hostPort, int timeoutMillis) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IOException("PMI_PORT is not host:port: " + hostPort);
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IOException("PMI_PORT has no valid port: " + hostPort, e);
        }
        if (port <= 0 || port > 65535) {
            throw new IOException("PMI_PORT has no valid port: " + hostPort);
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new IOException("cannot connect to the process manager at " + hostPort
                    + ": unknown host " + host, e);
        }
        String why = "no address";
        for (InetAddress address : addresses) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = arena.allocate(Libc.CALL_STATE);
                boolean v6 = address instanceof Inet6Address;
                int fd = Libc.socket(state, v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
                if (fd < 0) {
                    throw new IOException("socket(2) failed: " + Libc.describe(Libc.errno(state)));
                }
                MemorySegment timeout = arena.allocate(16, 8);
                timeout.set(ValueLayout.JAVA_LONG, 0, timeoutMillis / 1000);
                timeout.set(ValueLayout.JAVA_LONG, 8, (timeoutMillis % 1000) * 1000L);
                Libc.setsockopt(state, fd, SOL_SOCKET, SO_SNDTIMEO, timeout, 16);
                MemorySegment sockaddr = sockaddr(arena, address, port);
                int rc;
                do {
                    rc = Libc.connect(state, fd, sockaddr, (int) sockaddr.byteSize());
                } while (rc != 0 && Libc.errno(state) == Libc.EINTR);
                if (rc == 0) {
                    timeout.fill((byte) 0); // later writes block as long as they need
                    Libc.setsockopt(state, fd, SOL_SOCKET, SO_SNDTIMEO, timeout, 16);
                    MemorySegment one = arena.allocateFrom(ValueLayout.JAVA_INT, 1);
                    Libc.setsockopt(state, fd, IPPROTO_TCP, TCP_NODELAY, one, 4);
                    return fd;
                }
                why = Libc.describe(Libc.errno(state));
                Libc.close(state, fd);
            }
        }
        throw new IOException("cannot connect to the process manager at " + hostPort + ": " + why);
    }

    /** struct sockaddr_in (16 bytes) or sockaddr_in6 (28 bytes), port and address big-endian. */
    private static MemorySegment sockaddr(Arena arena, InetAddress address, int port) {
        byte[] raw = address.getAddress();
        boolean v6 = !(address instanceof Inet4Address);
        MemorySegment s = arena.allocate(v6 ? 28 : 16, 4);
        s.set(ValueLayout.JAVA_SHORT, 0, (short) (v6 ? AF_INET6 : AF_INET));
        s.set(NET_SHORT, 2, (short) port);
        MemorySegment.copy(raw, 0, s, ValueLayout.JAVA_BYTE, v6 ? 8 : 4, raw.length);
        if (v6) {
            s.set(ValueLayout.JAVA_INT, 24, ((Inet6Address) address).getScopeId());
        }
        return s;
    }
}
