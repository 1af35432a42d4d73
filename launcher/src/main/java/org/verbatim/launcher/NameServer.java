package org.verbatim.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.verbatim.bootstrap.JobSecret;
import org.verbatim.bootstrap.PmiWire;

/**
 * {@code bin/verbatim-nameserver}: the name service for jobs of separate mpiruns (as Open MPI's
 * ompi-server). It keeps a {@link NameTable} and answers the name-service lines on a TCP port;
 * each mpirun started with {@code --nameserver HOST:PORT} forwards its ranks'
 * MPI_Publish_name, MPI_Lookup_name and MPI_Unpublish_name there.
 *
 * <pre>
 * bin/verbatim-nameserver [--bind ADDRESS] [--port PORT] [--report FILE] [--secret-file FILE]
 * </pre>
 *
 * It prints {@code HOST:PORT} (the value for --nameserver) as its first line on stdout, and
 * into FILE with --report; it runs until killed.
 *
 * <p>Every connection must first present the server's secret ({@link NameServerSecret}):
 * {@code cmd=auth secret=S}, answered {@code cmd=auth_result rc=0}. Anything else first, or
 * another secret, is answered {@code rc=-1}, the connection is closed, no name changes, and the
 * server prints one line naming the address it came from.
 */
public final class NameServer implements AutoCloseable {
    /** How long a new connection may take to present the secret. */
    static final int AUTH_TIMEOUT_MILLIS = 10_000;
    private final ServerSocket server;
    private final NameTable names = new NameTable();
    private final String secret;
    private final PrintStream messages;

    /**
     * A server on {@code bind} (port 0: any free port), serving on a daemon thread the
     * connections that present {@code secret}; refusals are reported on {@code messages}.
     */
    public NameServer(InetSocketAddress bind, String secret, PrintStream messages) throws IOException {
        this.secret = JobSecret.check(secret);
        this.messages = messages;
        server = new ServerSocket();
        server.bind(bind, 64);
        Thread t = new Thread(this::acceptLoop, "nameserver-accept");
        t.setDaemon(true);
        t.start();
    }

    /** The value for {@code mpirun --nameserver}: the loopback address when bound to every one. */
    public String address() {
        InetAddress a = server.getInetAddress();
        String host = a.isAnyLocalAddress() ? InetAddress.getLoopbackAddress().getHostAddress()
                : a.getHostAddress();
        return host + ":" + server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread t = new Thread(() -> serve(s), "nameserver-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                    StandardCharsets.UTF_8));
            OutputStream out = s.getOutputStream();
            s.setSoTimeout(AUTH_TIMEOUT_MILLIS);
            String first = in.readLine();
            Map<String, String> auth = first == null ? Map.of() : PmiWire.parse(first);
            if (!"auth".equals(auth.get("cmd")) || !JobSecret.matches(secret, auth.get("secret"))) {
                String why = first == null ? "it sent nothing" : !"auth".equals(auth.get("cmd"))
                        ? "its first command was not auth" : "wrong secret";
                messages.println("verbatim-nameserver: refused a connection from "
                        + s.getInetAddress().getHostAddress() + " (" + why + "); no name changed");
                messages.flush();
                out.write((PmiWire.format("auth_result", "rc", "-1", "msg", "wrong_secret") + "\n")
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
                return;
            }
            s.setSoTimeout(0);
            out.write((PmiWire.format("auth_result", "rc", "0") + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                Map<String, String> m = PmiWire.parse(line);
                String cmd = m.getOrDefault("cmd", "");
                String reply = NameTable.serves(cmd) ? names.handle(cmd, m)
                        : PmiWire.format("error", "rc", "-1", "msg", "unknown_command_" + PmiWire.encode(cmd));
                out.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (java.net.SocketTimeoutException e) {
            messages.println("verbatim-nameserver: refused a connection from "
                    + s.getInetAddress().getHostAddress() + " (no secret within "
                    + AUTH_TIMEOUT_MILLIS / 1000 + " s); no name changed");
            messages.flush();
        } catch (IOException ignored) {
            // the mpirun went away
        }
    }

    /** Stops serving. */
    @Override
    public void close() throws IOException {
        server.close();
    }

    /** The command-line entry ({@code bin/verbatim-nameserver}). */
    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        String bind = "0.0.0.0";
        int port = 0;
        Path report = null;
        Path secretFile = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bind" -> bind = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--report" -> report = Path.of(args[++i]);
                case "--secret-file" -> secretFile = Path.of(args[++i]);
                case "-h", "--help" -> {
                    out.println("Usage: verbatim-nameserver [--bind ADDRESS] [--port PORT] [--report FILE] "
                            + "[--secret-file FILE]");
                    out.println("Serves MPI_Publish_name/Lookup_name for mpiruns started with --nameserver HOST:PORT.");
                    out.println("Its secret: " + NameServerSecret.VARIABLE + ", else the --secret-file (mode 0600; "
                            + "made with a new secret if missing), else a new one, printed on the second line.");
                    out.println("Give it to mpirun with --nameserver-secret-file FILE or " + NameServerSecret.VARIABLE + ".");
                    return;
                }
                default -> {
                    System.err.println("verbatim-nameserver: unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        String secret;
        boolean made = false;
        try {
            secret = NameServerSecret.of(System.getenv());
            if (secret == null && secretFile != null) {
                secret = NameServerSecret.readOrCreate(secretFile);
            } else if (secret == null) {
                secret = JobSecret.generate();
                made = true;
            }
        } catch (IllegalArgumentException e) {
            System.err.println("verbatim-nameserver: " + e.getMessage());
            System.exit(2);
            return;
        }
        NameServer s = new NameServer(new InetSocketAddress(bind, port), secret, System.err);
        out.println(s.address());
        if (made) {
            out.println(NameServerSecret.VARIABLE + "=" + secret);
        }
        out.flush();
        if (report != null) {
            Files.writeString(report, s.address() + "\n");
        }
        Thread.currentThread().join();
    }
}
