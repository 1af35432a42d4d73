package org.verbatim.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.support.RawSyscall;

/** Setting a connection's TCP congestion control through its descriptor found in /proc/self/fd. */
class CongestionControlTest {

    /** "reno" is built into every Linux kernel and allowed for every user. */
    @Test
    void setsTheAlgorithmOnBothEndsOfEachConnectionAndOnNoOther() throws Exception {
        assumeTrue(RawSyscall.available() && Files.isDirectory(Path.of("/proc/self/fd")), "Linux only");
        String system = Files.readString(Path.of("/proc/sys/net/ipv4/tcp_congestion_control")).trim();
        assumeTrue(!system.equals("reno"), "the system's algorithm is reno already");
        try (Arena arena = Arena.ofConfined();
             ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CongestionControl reno = new CongestionControl("reno", arena);
            List<SocketChannel> open = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    open.add(SocketChannel.open(server.getLocalAddress()));
                    open.add(server.accept());
                }
                SocketChannel client = open.get(2);
                SocketChannel accepted = open.get(3);
                assertNull(reno.apply(client));
                assertNull(reno.apply(accepted));
                for (int i = 0; i < open.size(); i++) {
                    int fd = reno.descriptorOf(open.get(i));
                    assertTrue(fd >= 0, "descriptor of connection end " + i);
                    String now = reno.current(fd);
                    assertEquals(i == 2 || i == 3 ? "reno" : system, now, "connection end " + i);
                }
                assertNotEquals(reno.descriptorOf(client), reno.descriptorOf(accepted));
            } finally {
                for (SocketChannel c : open) {
                    c.close();
                }
            }
        }
    }

    @Test
    void anUnknownAlgorithmIsReportedAndChangesNothing() throws Exception {
        assumeTrue(RawSyscall.available() && Files.isDirectory(Path.of("/proc/self/fd")), "Linux only");
        try (Arena arena = Arena.ofConfined();
             ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
                 SocketChannel accepted = server.accept()) {
                CongestionControl none = new CongestionControl("nosuchcc", arena);
                String before = none.current(none.descriptorOf(client));
                String why = none.apply(client);
                assertNotNull(why);
                assertTrue(why.contains("nosuchcc") && why.contains("errno"), why);
                assertEquals(before, none.current(none.descriptorOf(client)));
                assertNotNull(accepted);
            }
        }
    }

    @Test
    void badNamesAreRefused() {
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(IllegalArgumentException.class, () -> new CongestionControl("", arena));
            assertThrows(IllegalArgumentException.class, () -> new CongestionControl("cubic;x", arena));
            assertThrows(IllegalArgumentException.class, () -> new CongestionControl("a".repeat(16), arena));
        }
    }

    @Test
    void theSettingIsEmptyByDefaultAndANameIsChecked() {
        assertEquals("", TcpConfiguration.from(java.util.Map.of()).congestion());
        assertEquals("cubic", TcpConfiguration.from(java.util.Map.of("verbatim.tcp.congestion", " cubic ")).congestion());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TcpConfiguration.from(java.util.Map.of("verbatim.tcp.congestion", "cu bic")));
        assertTrue(e.getMessage().contains("verbatim.tcp.congestion"), e.getMessage());
    }

    @Test
    void anUnconnectedChannelHasNoDescriptorToFind() throws Exception {
        assumeTrue(RawSyscall.available() && Files.isDirectory(Path.of("/proc/self/fd")), "Linux only");
        try (Arena arena = Arena.ofConfined(); SocketChannel ch = SocketChannel.open()) {
            CongestionControl reno = new CongestionControl("reno", arena);
            assertEquals(-1, reno.descriptorOf(ch));
            assertNotNull(reno.apply(ch));
        }
    }
}
