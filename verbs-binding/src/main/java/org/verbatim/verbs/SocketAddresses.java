package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import org.verbatim.verbs.raw.sockaddr_in;
import org.verbatim.verbs.raw.sockaddr_in6;

/** Builds {@code struct sockaddr_in} / {@code sockaddr_in6} for the RDMA CM calls. */
final class SocketAddresses {

    private static final short AF_INET = 2;
    private static final short AF_INET6 = 10;

    private SocketAddresses() { }

    static MemorySegment of(InetSocketAddress address, Arena arena) {
        byte[] ip = address.getAddress().getAddress();
        short port = Short.reverseBytes((short) address.getPort());
        if (address.getAddress() instanceof Inet4Address) {
            MemorySegment s = sockaddr_in.allocate(arena);
            sockaddr_in.sin_family(s, AF_INET);
            sockaddr_in.sin_port(s, port);
            sockaddr_in.sin_addr(s).copyFrom(MemorySegment.ofArray(ip));
            return s;
        }
        MemorySegment s = sockaddr_in6.allocate(arena);
        sockaddr_in6.sin6_family(s, AF_INET6);
        sockaddr_in6.sin6_port(s, port);
        sockaddr_in6.sin6_addr(s).copyFrom(MemorySegment.ofArray(ip));
        return s;
    }
}
