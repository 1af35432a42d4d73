package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
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
        try (NameServer server = new NameServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            NameServerClient client = new NameServerClient(server.address());
            Map<String, String> pub = PmiWire.parse(client.forward("publish_name",
                    Map.of("service", "a", "port", "p")));
            assertEquals("publish_result", pub.get("cmd"));
            assertEquals("0", pub.get("rc"));
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                        Integer.parseInt(server.address().replaceAll(".*:", ""))));
                OutputStream out = s.getOutputStream();
                out.write("cmd=lookup_name service=a\ncmd=bogus\n".getBytes(StandardCharsets.UTF_8));
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                assertEquals("cmd=lookup_result rc=0 info=ok port=p", in.readLine());
                assertTrue(in.readLine().startsWith("cmd=error rc=-1"));
            }
        }
        Map<String, String> down = PmiWire.parse(new NameServerClient("127.0.0.1:1").forward("lookup_name",
                Map.of("service", "a")));
        assertEquals("-1", down.get("rc"));
        assertTrue(PmiWire.decode(down.get("msg")).contains("unreachable"), down.toString());
    }
}
