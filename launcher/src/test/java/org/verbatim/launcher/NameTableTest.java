package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.bootstrap.PmiWire;

/** The name service's table, its replies, and the standalone server and mpirun's client of it. */
class NameTableTest {
    private static final String SECRET = "00112233445566778899aabbccddeeff";

    private static Map<String, String> ask(NameTable t, String line) {
        Map<String, String> m = PmiWire.parse(line);
        return PmiWire.parse(t.handle(m.get("cmd"), m));
    }

    @Test
    void publishLookupUnpublish() {
        NameTable t = new NameTable();
        String port = PmiWire.encode("verbatim-port:10.0.0.1,127.0.0.1:4711:0123456789abcdef");
        assertEquals("0", ask(t, "cmd=publish_name service=svc port=" + port).get("rc"));
        Map<String, String> found = ask(t, "cmd=lookup_name service=svc");
        assertEquals("lookup_result", found.get("cmd"));
        assertEquals("0", found.get("rc"));
        assertEquals("verbatim-port:10.0.0.1,127.0.0.1:4711:0123456789abcdef", PmiWire.decode(found.get("port")));
        assertEquals("-1", ask(t, "cmd=publish_name service=svc port=other").get("rc"), "published twice");
        assertEquals("-1", ask(t, "cmd=unpublish_name service=svc port=other").get("rc"), "wrong port");
        assertEquals("0", ask(t, "cmd=unpublish_name service=svc port=" + port).get("rc"));
        Map<String, String> gone = ask(t, "cmd=lookup_name service=svc");
        assertEquals("-1", gone.get("rc"));
        assertTrue(PmiWire.decode(gone.get("msg")).contains("not published"), gone.toString());
    }

    @Test
    void theStandaloneServerAnswersMpirunsClient() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (NameServer server = new NameServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), SECRET,
                new PrintStream(log, true, StandardCharsets.UTF_8))) {
            NameServerClient client = new NameServerClient(server.address(), SECRET);
            Map<String, String> pub = PmiWire.parse(client.forward("publish_name",
                    Map.of("service", "a", "port", "p")));
            assertEquals("publish_result", pub.get("cmd"));
            assertEquals("0", pub.get("rc"));
            try (Socket s = connect(server)) {
                OutputStream out = s.getOutputStream();
                out.write(("cmd=auth secret=" + SECRET + "\ncmd=lookup_name service=a\ncmd=bogus\n")
                        .getBytes(StandardCharsets.UTF_8));
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                assertEquals("cmd=auth_result rc=0", in.readLine());
                assertEquals("cmd=lookup_result rc=0 info=ok port=p", in.readLine());
                assertTrue(in.readLine().startsWith("cmd=error rc=-1"));
            }
            assertEquals("", log.toString(StandardCharsets.UTF_8));
        }
        Map<String, String> down = PmiWire.parse(new NameServerClient("127.0.0.1:1", SECRET).forward("lookup_name",
                Map.of("service", "a")));
        assertEquals("-1", down.get("rc"));
        assertTrue(PmiWire.decode(down.get("msg")).contains("unreachable"), down.toString());
    }

    @Test
    void connectionsWithoutTheSecretChangeNothingAndArePrintedOnce() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (NameServer server = new NameServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), SECRET,
                new PrintStream(log, true, StandardCharsets.UTF_8))) {
            NameServerClient owner = new NameServerClient(server.address(), SECRET);
            assertEquals("0", PmiWire.parse(owner.forward("publish_name", Map.of("service", "a", "port", "p"))).get("rc"));
            // a stranger who skips auth, one with a wrong secret, and mpirun's client with the wrong one
            for (String first : new String[] {"cmd=publish_name service=b port=evil",
                "cmd=auth secret=0123456789abcdef0123456789abcdef", "cmd=unpublish_name service=a port=p"}) {
                try (Socket s = connect(server)) {
                    s.getOutputStream().write((first + "\ncmd=publish_name service=b port=evil\n")
                            .getBytes(StandardCharsets.UTF_8));
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                            StandardCharsets.UTF_8));
                    assertEquals("-1", PmiWire.parse(in.readLine()).get("rc"));
                    assertEquals(null, in.readLine(), "the server closes a refused connection");
                }
            }
            Map<String, String> wrong = PmiWire.parse(new NameServerClient(server.address(), "not-the-secret")
                    .forward("unpublish_name", Map.of("service", "a", "port", "p")));
            assertEquals("-1", wrong.get("rc"));
            assertTrue(PmiWire.decode(wrong.get("msg")).contains("refused this mpirun's secret"), wrong.toString());
            // nothing changed: a is still published with p, b never was
            assertEquals("p", PmiWire.parse(owner.forward("lookup_name", Map.of("service", "a"))).get("port"));
            assertEquals("-1", PmiWire.parse(owner.forward("lookup_name", Map.of("service", "b"))).get("rc"));
            String[] lines = log.toString(StandardCharsets.UTF_8).split("\n");
            assertEquals(4, lines.length, log.toString(StandardCharsets.UTF_8));
            for (String l : lines) {
                assertTrue(l.matches("verbatim-nameserver: refused a connection from 127\\.0\\.0\\.1 \\(.*\\); "
                        + "no name changed"), l);
            }
        }
    }

    private static Socket connect(NameServer server) throws Exception {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                Integer.parseInt(server.address().replaceAll(".*:", ""))));
        return s;
    }
}
