package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A port's name carries a token; connections without it are refused, reported once, and change nothing. */
@Timeout(60)
class PortExchangeTest {
    private static final PortExchange.Side ACCEPTOR = new PortExchange.Side(7, List.of("job-a|0|h"));
    private static final PortExchange.Side CONNECTOR = new PortExchange.Side(9, List.of("job-b|0|h", "job-b|1|h"));

    @Test
    void theNameCarries128RandomBitsAndOnlyThemOpenThePort() throws Exception {
        String name = Ports.open();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Ports.Address a = Ports.parse(name);
            assertNotNull(a, name);
            assertTrue(a.token().matches("[0-9a-f]{32}"), name);
            assertNull(Ports.parse(name.substring(0, name.length() - 16)), "a shorter token is no port name");
            List<String> refusals = new CopyOnWriteArrayList<>();
            Future<PortExchange.Side> accepted = pool.submit(
                    () -> PortExchange.accept(Ports.server(name), a.token(), ACCEPTOR, refusals::add));
            // a wrong token of the right form: refused, answered -1
            Ports.Address forged = new Ports.Address(a.addresses(), "0".repeat(32));
            IOException e = assertThrows(IOException.class, () -> PortExchange.connect(forged, CONNECTOR));
            assertTrue(e.getMessage().contains("refused"), e.getMessage());
            // a stranger who sends something else, and one who hangs up at once
            try (Socket s = new Socket(a.addresses().getLast().getAddress(), a.addresses().getLast().getPort())) {
                s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertEquals(-1, new DataInputStream(s.getInputStream()).readInt());
            }
            new Socket(a.addresses().getLast().getAddress(), a.addresses().getLast().getPort()).close();
            // the root who knows the name still gets through, and the sides are swapped intact
            PortExchange.Side theirs = PortExchange.connect(a, CONNECTOR);
            assertEquals(ACCEPTOR, theirs);
            assertEquals(CONNECTOR, accepted.get(30, TimeUnit.SECONDS));
            assertEquals(3, refusals.size(), refusals.toString());
            String shown = name.substring(0, name.lastIndexOf(':'));
            assertTrue(refusals.get(0).matches("verbatim: refused a connection to port \\Q" + shown
                    + "\\E from [0-9.]+ \\(wrong port token\\); still accepting"), refusals.get(0));
            assertTrue(refusals.get(1).contains("(not a Verbatim MPI_Comm_connect)"), refusals.get(1));
            assertTrue(refusals.get(2).contains("(it hung up before presenting the port token)"), refusals.get(2));
            for (String r : refusals) {
                assertTrue(!r.contains(a.token()), "a refusal never shows the token: " + r);
            }
        } finally {
            pool.shutdownNow();
            Ports.close(name);
        }
    }
}
