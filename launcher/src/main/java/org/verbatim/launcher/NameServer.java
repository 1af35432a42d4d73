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
import org.verbatim.bootstrap.PmiWire;

/**
 * {@code bin/verbatim-nameserver}: the name service for jobs of separate mpiruns (as Open MPI's
 * ompi-server). It keeps a {@link NameTable} and answers the name-service lines on a TCP port;
 * each mpirun started with {@code --nameserver HOST:PORT} forwards its ranks'
 * MPI_Publish_name, MPI_Lookup_name and MPI_Unpublish_name there.
 *
 * <pre>
 * bin/verbatim-nameserver [--bind ADDRESS] [--port PORT] [--report FILE]
 * </pre>
 *
 * It prints {@code HOST:PORT} (the value for --nameserver) as its first line on stdout, and
 * into FILE with --report; it runs until killed.
 */
public final class NameServer implements AutoCloseable {
    private final ServerSocket server;
    private final NameTable names = new NameTable();

    /** A server on {@code bind} (port 0: any free port), serving on a daemon thread. */
    public NameServer(InetSocketAddress bind) throws IOException {
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
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bind" -> bind = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--report" -> report = Path.of(args[++i]);
                case "-h", "--help" -> {
                    out.println("Usage: verbatim-nameserver [--bind ADDRESS] [--port PORT] [--report FILE]");
                    out.println("Serves MPI_Publish_name/Lookup_name for mpiruns started with --nameserver HOST:PORT.");
                    return;
                }
                default -> {
                    System.err.println("verbatim-nameserver: unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        NameServer s = new NameServer(new InetSocketAddress(bind, port));
        out.println(s.address());
        out.flush();
        if (report != null) {
            Files.writeString(report, s.address() + "\n");
        }
        Thread.currentThread().join();
    }
}
