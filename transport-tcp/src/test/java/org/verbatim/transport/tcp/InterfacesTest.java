package org.verbatim.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.TransportException;

/** Address choice and its text form in the bootstrap space, for IPv4 and IPv6. */
class InterfacesTest {
    @Test
    void subnetsMatchIpv4AndIpv6() throws Exception {
        assertTrue(Interfaces.inSubnet("10.77.0.0/16", InetAddress.getByName("10.77.3.4")));
        assertFalse(Interfaces.inSubnet("10.77.0.0/16", InetAddress.getByName("10.78.0.1")));
        assertTrue(Interfaces.inSubnet("fd00::/8", InetAddress.getByName("fd12:3456::1")));
        assertFalse(Interfaces.inSubnet("fd00::/8", InetAddress.getByName("fe80::1")));
        assertFalse(Interfaces.inSubnet("fd00::/8", InetAddress.getByName("10.0.0.1")));
        assertTrue(Interfaces.inSubnet("0.0.0.0/0", InetAddress.getByName("192.0.2.7")));
    }

    @Test
    void aBadSubnetIsAClearError() {
        TransportException e = assertThrows(TransportException.class,
                () -> Interfaces.inSubnet("10.0.0.0/40", InetAddress.getByName("10.0.0.1")));
        assertTrue(e.getMessage().contains("verbatim.tcp.if-include"), e.getMessage());
    }

    @Test
    void addressesSurviveTheirTextForm() throws Exception {
        List<InetAddress> addresses = List.of(InetAddress.getByName("10.77.0.1"),
                InetAddress.getByName("fd00::5"), InetAddress.getByName("::1"));
        String text = Interfaces.format(addresses, 7400);
        assertEquals("10.77.0.1:7400 [fd00:0:0:0:0:0:0:5]:7400 [0:0:0:0:0:0:0:1]:7400", text);
        assertEquals(List.of(new InetSocketAddress("10.77.0.1", 7400),
                new InetSocketAddress("fd00::5", 7400), new InetSocketAddress("::1", 7400)),
                Interfaces.parse(text));
    }

    @Test
    void withoutAChoiceLoopbackComesLastAndAnUnmatchedChoiceIsAnError() throws Exception {
        List<InetAddress> all = Interfaces.select("");
        assertFalse(all.isEmpty());
        boolean seenLoopback = false;
        for (InetAddress a : all) {
            seenLoopback |= a.isLoopbackAddress();
            assertTrue(!seenLoopback || a.isLoopbackAddress(), "loopback last: " + all);
        }
        TransportException e = assertThrows(TransportException.class,
                () -> Interfaces.select("no-such-interface0"));
        assertTrue(e.getMessage().contains("matches no address"), e.getMessage());
        List<InetAddress> lo = Interfaces.select("127.0.0.0/8");
        assertTrue(!lo.isEmpty() && lo.stream().allMatch(InetAddress::isLoopbackAddress), lo.toString());
    }
}
