package org.verbatim.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.verbatim.bootstrap.PmiWire;

/**
 * mpirun's link to a standalone name server ({@code mpirun --nameserver HOST:PORT}, or
 * {@code VERBATIM_LAUNCHER_NAMESERVER}): forwards a rank's name-service line and
 * returns the server's reply. One short connection per request: names are published rarely.
 * Each connection first presents the server's secret ({@link NameServerSecret}).
 */
final class NameServerClient {
    private static final int TIMEOUT_MILLIS = 10_000;
    private final String hostPort;
    private final String secret;

    NameServerClient(String hostPort, String secret) {
        this.hostPort = hostPort;
        this.secret = secret;
    }

    /** The server's reply to {@code cmd} with {@code fields}, or a refusal saying why it failed. */
    String forward(String cmd, Map<String, String> fields) {
        StringBuilder line = new StringBuilder("cmd=").append(cmd);
        fields.forEach((k, v) -> {
            if (!k.equals("cmd")) {
                line.append(' ').append(k).append('=').append(v);
            }
        });
        int colon = hostPort.lastIndexOf(':');
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(hostPort.substring(0, colon),
                    Integer.parseInt(hostPort.substring(colon + 1))), TIMEOUT_MILLIS);
            s.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = s.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            out.write((PmiWire.format("auth", "secret", secret) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            String auth = in.readLine();
            if (auth == null || !"0".equals(PmiWire.parse(auth).get("rc"))) {
                throw new IOException("it refused this mpirun's secret (give mpirun the name server's: "
                        + "--nameserver-secret-file FILE or " + NameServerSecret.VARIABLE + ")");
            }
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            String reply = in.readLine();
            if (reply == null) {
                throw new IOException("the name server closed the connection");
            }
            return reply;
        } catch (IOException | RuntimeException e) {
            return PmiWire.format(NameTable.resultOf(cmd), "rc", "-1", "msg",
                    PmiWire.encode("name server " + hostPort + " unreachable: " + e.getMessage()));
        }
    }
}
