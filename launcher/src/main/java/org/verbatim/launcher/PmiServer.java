package org.verbatim.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.verbatim.bootstrap.PmiWire;

/**
 * The PMI-1 wire server of one job, over TCP on the loopback interface ({@code PMI_PORT}). Each
 * rank connects once; it may start with Hydra's {@code cmd=initack pmiid=N} (answered with
 * {@code set size}, {@code set rank}, {@code set debug}), then uses init, get_maxes, get_appnum,
 * get_my_kvsname, get_universe_size, put, get, barrier_in, finalize and abort.
 */
public final class PmiServer implements AutoCloseable {
    /** Limits announced in {@code cmd=maxes}; the same as Hydra's. */
    public static final int KVSNAME_MAX = 256;
    public static final int KEYLEN_MAX = 64;
    public static final int VALLEN_MAX = 1024;

    /** What the job hears from its ranks. Called on connection threads. */
    public interface Listener {
        void abort(int rank, int code);

        /** A rank sent something the server cannot serve; the job should end. */
        void protocolError(int rank, String message);
    }

    private final int size;
    private final String kvsName;
    private final Listener listener;
    private final ServerSocket serverSocket;
    private final Map<String, String> kvs = new ConcurrentHashMap<>();
    private final boolean[] initialized;
    private final boolean[] finalized;
    private final List<Connection> barrierWaiting = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();
    private volatile boolean closed;

    public PmiServer(int size, String kvsName, Listener listener) throws IOException {
        if (size < 1) {
            throw new IllegalArgumentException("job size must be >= 1: " + size);
        }
        this.size = size;
        this.kvsName = kvsName;
        this.listener = listener;
        this.initialized = new boolean[size];
        this.finalized = new boolean[size];
        this.serverSocket = new ServerSocket();
        serverSocket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), size + 16);
        Thread acceptor = new Thread(this::acceptLoop, "pmi-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The value for the ranks' {@code PMI_PORT}. */
    public String portAddress() {
        return serverSocket.getInetAddress().getHostAddress() + ":" + serverSocket.getLocalPort();
    }

    public String kvsName() {
        return kvsName;
    }

    /** True once {@code rank} has sent {@code cmd=init}. */
    public synchronized boolean initialized(int rank) {
        return initialized[rank];
    }

    /** True once {@code rank} has sent {@code cmd=finalize}. */
    public synchronized boolean finalized(int rank) {
        return finalized[rank];
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket socket = serverSocket.accept();
                socket.setTcpNoDelay(true);
                Connection c = new Connection(socket);
                synchronized (this) {
                    connections.add(c);
                }
                Thread t = new Thread(c::serve, "pmi-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (!closed) {
                    listener.protocolError(-1, "PMI server accept failed: " + e.getMessage());
                }
                return;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            serverSocket.close();
        } catch (IOException ignored) {
            // nothing left to do with a socket that will not close
        }
        List<Connection> all;
        synchronized (this) {
            all = new ArrayList<>(connections);
        }
        for (Connection c : all) {
            c.closeQuietly();
        }
    }

    private final class Connection {
        private final Socket socket;
        private final OutputStream out;
        private int rank = -1;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.out = socket.getOutputStream();
        }

        void serve() {
            try (socket; InputStream in = socket.getInputStream()) {
                byte[] buf = new byte[4096];
                StringBuilder line = new StringBuilder();
                int n;
                while ((n = in.read(buf)) > 0) {
                    String chunk = new String(buf, 0, n, StandardCharsets.UTF_8);
                    for (int i = 0; i < chunk.length(); i++) {
                        char ch = chunk.charAt(i);
                        if (ch == '\n') {
                            handle(line.toString());
                            line.setLength(0);
                        } else {
                            line.append(ch);
                            if (line.length() > PmiWire.MAX_LINE) {
                                fail("PMI line longer than " + PmiWire.MAX_LINE + " bytes");
                                return;
                            }
                        }
                    }
                }
            } catch (SocketException e) {
                // the rank closed its side or died; the job notices the process exit
            } catch (IOException e) {
                if (!closed) {
                    fail("PMI connection failed: " + e.getMessage());
                }
            }
        }

        private void handle(String text) throws IOException {
            if (text.isBlank()) {
                return;
            }
            Map<String, String> m = PmiWire.parse(text);
            String cmd = m.getOrDefault("cmd", "");
            switch (cmd) {
                case "initack" -> {
                    int id = parseRank(m.get("pmiid"));
                    if (id < 0) {
                        fail("initack with bad pmiid: " + text);
                        return;
                    }
                    rank = id;
                    send("cmd=initack\ncmd=set size=" + size + "\ncmd=set rank=" + rank + "\ncmd=set debug=0");
                }
                case "init" -> {
                    boolean ok = "1".equals(m.get("pmi_version"));
                    if (ok && rank >= 0) {
                        synchronized (PmiServer.this) {
                            initialized[rank] = true;
                        }
                    }
                    send(PmiWire.format("response_to_init", "pmi_version", "1", "pmi_subversion", "1", "rc", ok ? "0" : "-1"));
                }
                case "get_maxes" -> send(PmiWire.format("maxes", "kvsname_max", Integer.toString(KVSNAME_MAX),
                        "keylen_max", Integer.toString(KEYLEN_MAX), "vallen_max", Integer.toString(VALLEN_MAX)));
                case "get_appnum" -> send(PmiWire.format("appnum", "appnum", "0"));
                case "get_my_kvsname" -> send(PmiWire.format("my_kvsname", "kvsname", kvsName));
                case "get_universe_size" -> send(PmiWire.format("universe_size", "size", Integer.toString(size)));
                case "put" -> put(m);
                case "get" -> get(m);
                case "barrier_in" -> barrierIn();
                case "finalize" -> {
                    if (rank >= 0) {
                        synchronized (PmiServer.this) {
                            finalized[rank] = true;
                        }
                    }
                    send(PmiWire.format("finalize_ack"));
                }
                case "abort" -> {
                    int code;
                    try {
                        code = Integer.parseInt(m.getOrDefault("exitcode", "1"));
                    } catch (NumberFormatException e) {
                        code = 1;
                    }
                    listener.abort(rank, code);
                }
                default -> send(PmiWire.format("error", "rc", "-1", "msg", "unknown_command_" + PmiWire.encode(cmd)));
            }
        }

        private void put(Map<String, String> m) throws IOException {
            String key = m.get("key");
            String value = m.getOrDefault("value", "");
            String rc = "0";
            String msg = "success";
            if (!kvsName.equals(m.get("kvsname"))) {
                rc = "-1";
                msg = "unknown_kvsname";
            } else if (key == null || key.isEmpty() || key.length() > KEYLEN_MAX) {
                rc = "-1";
                msg = "bad_key";
            } else if (value.length() > VALLEN_MAX) {
                rc = "-1";
                msg = "value_too_long";
            } else {
                kvs.put(key, value);
            }
            send(PmiWire.format("put_result", "rc", rc, "msg", msg));
        }

        private void get(Map<String, String> m) throws IOException {
            String key = m.get("key");
            String value = key == null ? null : kvs.get(key);
            if (!kvsName.equals(m.get("kvsname"))) {
                send(PmiWire.format("get_result", "rc", "-1", "msg", "unknown_kvsname"));
            } else if (value == null) {
                send(PmiWire.format("get_result", "rc", "-1", "msg", "key_" + key + "_not_found"));
            } else {
                send(PmiWire.format("get_result", "rc", "0", "msg", "success", "value", value));
            }
        }

        private void barrierIn() throws IOException {
            List<Connection> release = null;
            synchronized (PmiServer.this) {
                barrierWaiting.add(this);
                if (barrierWaiting.size() == size) {
                    release = new ArrayList<>(barrierWaiting);
                    barrierWaiting.clear();
                }
            }
            if (release != null) {
                for (Connection c : release) {
                    try {
                        c.send(PmiWire.format("barrier_out"));
                    } catch (IOException e) {
                        // that rank is gone; the job learns it from the process exit
                    }
                }
            }
        }

        private synchronized void send(String text) throws IOException {
            out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        private void fail(String message) {
            listener.protocolError(rank, message);
            closeQuietly();
        }

        void closeQuietly() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already closed
            }
        }

        private int parseRank(String s) {
            try {
                int r = Integer.parseInt(s);
                return r >= 0 && r < size ? r : -1;
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }
}
