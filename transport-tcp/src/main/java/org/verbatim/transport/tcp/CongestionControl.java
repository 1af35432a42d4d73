package org.verbatim.transport.tcp;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.verbatim.spi.support.RawSyscall;

/**
 * A connection's TCP congestion control ({@code TCP_CONGESTION}, {@code verbatim.tcp.congestion}),
 * which Java's socket options do not reach: set with setsockopt(2) on the channel's descriptor.
 *
 * <p>Java does not hand out a channel's descriptor, so it is found among the process's open
 * descriptors ({@code /proc/self/fd}, newest first: the connection just made is almost always
 * the first socket looked at) as the socket whose local and peer addresses (getsockname,
 * getpeername) are the channel's. Everything goes through {@link RawSyscall}'s one downcall.
 * Why it matters: docs/transport-tcp.md, "Congestion control".
 */
final class CongestionControl {
    static final int IPPROTO_TCP = 6;
    static final int TCP_CONGESTION = 13;
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    /** Longest algorithm name the kernel takes (TCP_CA_NAME_MAX, with its NUL). */
    static final int NAME_MAX = 16;
    private static final int SOCKADDR_MAX = 128;
    private static final Path FDS = Path.of("/proc/self/fd");

    private final String name;
    private final MemorySegment nameBytes;
    private final MemorySegment state;
    private final MemorySegment address;
    private final MemorySegment length;

    /** @param name the algorithm (as in /proc/sys/net/ipv4/tcp_available_congestion_control) */
    CongestionControl(String name, Arena arena) {
        byte[] b = name.getBytes(StandardCharsets.US_ASCII);
        if (name.isEmpty() || b.length >= NAME_MAX || !name.matches("[A-Za-z0-9_]+")) {
            throw new IllegalArgumentException("not a congestion control algorithm's name: '" + name + "'");
        }
        this.name = name;
        this.nameBytes = arena.allocate(NAME_MAX);
        MemorySegment.copy(b, 0, nameBytes, ValueLayout.JAVA_BYTE, 0, b.length);
        this.state = arena.allocate(RawSyscall.STATE);
        this.address = arena.allocate(SOCKADDR_MAX, 8);
        this.length = arena.allocate(ValueLayout.JAVA_INT);
    }

    /** Sets the algorithm on {@code ch} (connected); null when done, else why not (nothing changed). */
    String apply(SocketChannel ch) {
        if (!RawSyscall.available()) {
            return "no system calls here (not Linux on x86-64, aarch64 or riscv64, or no native access)";
        }
        int fd;
        try {
            fd = descriptorOf(ch);
        } catch (IOException e) {
            return "cannot find the connection's descriptor: " + e.getMessage();
        }
        if (fd < 0) {
            return "the connection's descriptor was not found in " + FDS;
        }
        long r = RawSyscall.call(state, RawSyscall.NR.setsockopt(), fd, IPPROTO_TCP, TCP_CONGESTION,
                nameBytes.address(), name.length(), 0);
        if (r < 0) {
            int errno = RawSyscall.errno(state);
            return "setsockopt(TCP_CONGESTION, " + name + ") failed with errno " + errno
                    + (errno == 2 ? " (the kernel has no such algorithm)"
                    : errno == 1 ? " (not in net.ipv4.tcp_allowed_congestion_control for this user)" : "");
        }
        return null;
    }

    /** The algorithm of socket {@code fd} (getsockopt), or null. */
    String current(int fd) {
        MemorySegment out = Arena.ofAuto().allocate(NAME_MAX);
        length.set(ValueLayout.JAVA_INT, 0, NAME_MAX);
        long r = RawSyscall.call(state, RawSyscall.NR.getsockopt(), fd, IPPROTO_TCP, TCP_CONGESTION,
                out.address(), length.address(), 0);
        return r < 0 ? null : out.getString(0, StandardCharsets.US_ASCII);
    }

    /** The descriptor of connected {@code ch}, or -1. */
    int descriptorOf(SocketChannel ch) throws IOException {
        InetSocketAddress local = (InetSocketAddress) ch.getLocalAddress();
        InetSocketAddress peer = (InetSocketAddress) ch.getRemoteAddress();
        if (local == null || peer == null) {
            return -1;
        }
        int[] fds = openDescriptors();
        for (int i = fds.length - 1; i >= 0; i--) {
            int fd = fds[i];
            if (same(RawSyscall.NR.getsockname(), fd, local) && same(RawSyscall.NR.getpeername(), fd, peer)) {
                return fd;
            }
        }
        return -1;
    }

    private static int[] openDescriptors() throws IOException {
        int[] fds = new int[64];
        int n = 0;
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(FDS)) {
            for (Path p : dir) {
                String s = p.getFileName().toString();
                if (!s.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                if (n == fds.length) {
                    fds = Arrays.copyOf(fds, 2 * n);
                }
                fds[n++] = Integer.parseInt(s);
            }
        }
        int[] sorted = Arrays.copyOf(fds, n);
        Arrays.sort(sorted);
        return sorted;
    }

    /** True when getsockname or getpeername ({@code call}) of {@code fd} is {@code expected}. */
    private boolean same(long call, int fd, InetSocketAddress expected) {
        length.set(ValueLayout.JAVA_INT, 0, SOCKADDR_MAX);
        if (RawSyscall.call(state, call, fd, address.address(), length.address(), 0, 0, 0) < 0) {
            return false; // not a socket, or not connected
        }
        SocketAddress got = decode(address, length.get(ValueLayout.JAVA_INT, 0));
        return expected.equals(got);
    }

    /** A sockaddr_in or sockaddr_in6 as Java's address, or null for other families. */
    static InetSocketAddress decode(MemorySegment a, int len) {
        int family = a.get(ValueLayout.JAVA_SHORT, 0) & 0xFFFF;
        int port = ((a.get(ValueLayout.JAVA_BYTE, 2) & 0xFF) << 8) | (a.get(ValueLayout.JAVA_BYTE, 3) & 0xFF);
        try {
            if (family == AF_INET && len >= 8) {
                return new InetSocketAddress(InetAddress.getByAddress(a.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE)),
                        port);
            }
            if (family == AF_INET6 && len >= 24) {
                byte[] ip = a.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
                return new InetSocketAddress(InetAddress.getByAddress(ip), port);
            }
        } catch (java.net.UnknownHostException e) {
            return null;
        }
        return null;
    }
}
