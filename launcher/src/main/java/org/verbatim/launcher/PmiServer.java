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
import org.verbatim.bootstrap.JobSecret;
import org.verbatim.bootstrap.PmiWire;

/**
 * The PMI-1 wire server of one job, over TCP ({@code PMI_PORT}), on the loopback interface or,
 * for a job over several hosts, on a given address. Each rank connects once; it may start with
 * Hydra's {@code cmd=initack pmiid=N} (answered with {@code set size}, {@code set rank},
 * {@code set debug}), then uses init, get_maxes, get_appnum, get_my_kvsname, get_universe_size,
 * put, get, barrier_in, finalize and abort.
 *
 * <p>An mpirun on another host that starts some of the ranks ({@code mpirun --join}) holds a
 * control connection: {@code cmd=join first=A last=B} (answered {@code cmd=join_ack rc=0
 * kvsname=K size=S}), then {@code cmd=rank_exit rank=R status=N what=...} as its ranks end; the
 * server answers nothing to those and sends {@code cmd=end status=N} when the job is over.
 *
 * <p>Every connection must first present the job's secret ({@link JobSecret}): {@code cmd=auth
 * secret=S}, answered {@code cmd=auth_result rc=0}. Anything else first, or a wrong secret, is
 * answered {@code cmd=auth_result rc=-1} and the connection is closed; nothing in the job changes
 * (the listener only hears {@link Listener#refused}).
 */
public final class PmiServer implements AutoCloseable {
    /** Limits announced in {@code cmd=maxes}; the same as Hydra's. */
    public static final int KVSNAME_MAX = 256;
    public static final int KEYLEN_MAX = 64;
    public static final int VALLEN_MAX = 1024;
    /** Most keys one mget may ask for: the reply stays under PmiWire.MAX_LINE. */
    static final int MGET_MAX_KEYS = 48;

    /** What the job hears from its ranks. Called on connection threads. */
    public interface Listener {
        void abort(int rank, int code);

        /** A rank sent something the server cannot serve; the job should end. */
        void protocolError(int rank, String message);

        /** An mpirun elsewhere will start ranks {@code first..last}; null if fine, else why not. */
        default String joined(int first, int last, String from) {
            return "this mpirun does not serve other hosts (no --listen)";
        }

        /** A rank started elsewhere ended with {@code status}; {@code what} describes it in words. */
        default void remoteExit(int rank, int status, String what) {
        }

        /** The control connection of the mpirun starting {@code first..last} closed early. */
        default void joinLost(int first, int last, String from) {
        }

        /** A connection from {@code from} did not present the job's secret and was closed. */
        default void refused(String from, String why) {
        }

        /**
         * A command beyond PMI-1 (Verbatim's name service and spawn, see {@link LauncherServices}):
         * the reply line, or null when the listener does not serve {@code cmd}.
         */
        default String command(int rank, String cmd, Map<String, String> fields) {
            return null;
        }

        /** The answer to {@code get_appnum} for {@code rank} (MPI_APPNUM): by default 0. */
        default int appNum(int rank) {
            return 0;
        }

        /** The answer to {@code get_universe_size}: by default the job's size. */
        default int universeSize(int jobSize) {
            return jobSize;
        }
    }

    private final int size;
    private final String kvsName;
    private final String secret;
    private final Listener listener;
    private final ServerSocket serverSocket;
    private final Map<String, String> kvs = new ConcurrentHashMap<>();
    private final boolean[] initialized;
    private final boolean[] finalized;
    private final List<Connection> barrierWaiting = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();
    private volatile boolean closed;

    /** A server on the loopback interface for a job whose connections present {@code secret}. */
    public PmiServer(int size, String kvsName, String secret, Listener listener) throws IOException {
        this(size, kvsName, secret, listener, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    /** A server listening on {@code bind} (port 0: any free port). */
    public PmiServer(int size, String kvsName, String secret, Listener listener, InetSocketAddress bind)
            throws IOException {
        if (size < 1) {
            throw new IllegalArgumentException("job size must be >= 1: " + size);
        }
        this.size = size;
        this.kvsName = kvsName;
        this.secret = JobSecret.check(secret);
        this.listener = listener;
        this.initialized = new boolean[size];
        this.finalized = new boolean[size];
        this.serverSocket = new ServerSocket();
        serverSocket.bind(bind, size + 16);
        Thread acceptor = new Thread(this::acceptLoop, "pmi-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The value for the local ranks' {@code PMI_PORT} (loopback when listening on every address). */
    public String portAddress() {
        InetAddress a = serverSocket.getInetAddress();
        String host = a.isAnyLocalAddress() ? InetAddress.getLoopbackAddress().getHostAddress() : a.getHostAddress();
        return host + ":" + serverSocket.getLocalPort();
    }

    /**
     * Puts {@code key} = {@code value} into the key-value space before any rank does, as if a
     * rank had put it ({@code value} is encoded as the ranks' values are).
     */
    public void preset(String key, String value) {
        kvs.put(key, PmiWire.encode(value));
    }

    /** The port the server listens on. */
    public int port() {
        return serverSocket.getLocalPort();
    }

    /** The address and port the server listens on. */
    public String listenAddress() {
        return serverSocket.getInetAddress().getHostAddress() + ":" + serverSocket.getLocalPort();
    }

    /** Tells every joined mpirun that the job is over with {@code status}. */
    public void endJoined(int status) {
        List<Connection> all;
        synchronized (this) {
            all = new ArrayList<>(connections);
        }
        for (Connection c : all) {
            if (c.joinedFirst >= 0) {
                try {
                    c.send(PmiWire.format("end", "status", Integer.toString(status)));
                } catch (IOException e) {
                    // that mpirun is gone already
                }
            }
        }
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
        private boolean authenticated;
        /** The ranks of a joined mpirun's control connection (-1: a rank's connection). */
        private int joinedFirst = -1;
        private int joinedLast = -1;
        private final java.util.Set<Integer> exited = new java.util.HashSet<>();

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
            if (joinedFirst >= 0 && !closed && exited.size() < joinedLast - joinedFirst + 1) {
                listener.joinLost(joinedFirst, joinedLast, peer());
            }
        }

        private String peer() {
            return socket.getInetAddress().getHostAddress();
        }

        private void join(Map<String, String> m) throws IOException {
            int first = parseRank(m.get("first"));
            int last = parseRank(m.get("last"));
            String refused = first < 0 || last < first ? "bad rank range " + m.get("first") + "-" + m.get("last")
                    + " for a job of " + size : joinedFirst >= 0 ? "this connection joined already"
                    : listener.joined(first, last, peer());
            if (refused != null) {
                send(PmiWire.format("join_ack", "rc", "-1", "msg", PmiWire.encode(refused)));
                return;
            }
            joinedFirst = first;
            joinedLast = last;
            send(PmiWire.format("join_ack", "rc", "0", "kvsname", kvsName, "size", Integer.toString(size)));
        }

        private void rankExit(Map<String, String> m) {
            int r = parseRank(m.get("rank"));
            if (joinedFirst < 0 || r < joinedFirst || r > joinedLast) {
                fail("rank_exit for rank " + m.get("rank") + " outside the joined ranks");
                return;
            }
            int status;
            try {
                status = Integer.parseInt(m.getOrDefault("status", "1"));
            } catch (NumberFormatException e) {
                status = 1;
            }
            exited.add(r);
            listener.remoteExit(r, status, PmiWire.decode(m.getOrDefault("what", "%")));
        }

        private void handle(String text) throws IOException {
            if (text.isBlank() || socket.isClosed()) {
                return;
            }
            Map<String, String> m = PmiWire.parse(text);
            String cmd = m.getOrDefault("cmd", "");
            if (!authenticated) {
                authenticate(cmd, m);
                return;
            }
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
                case "get_appnum" -> send(PmiWire.format("appnum", "appnum",
                        Integer.toString(rank >= 0 ? listener.appNum(rank) : 0)));
                case "get_my_kvsname" -> send(PmiWire.format("my_kvsname", "kvsname", kvsName));
                case "get_universe_size" -> send(PmiWire.format("universe_size", "size",
                        Integer.toString(listener.universeSize(size))));
                case "put" -> put(m);
                case "get" -> get(m);
                case "mget" -> mget(m);
                case "barrier_in" -> barrierIn();
                case "finalize" -> {
                    if (rank >= 0) {
                        synchronized (PmiServer.this) {
                            finalized[rank] = true;
                        }
                    }
                    send(PmiWire.format("finalize_ack"));
                }
                case "join" -> join(m);
                case "rank_exit" -> rankExit(m);
                case "abort" -> {
                    int code;
                    try {
                        code = Integer.parseInt(m.getOrDefault("exitcode", "1"));
                    } catch (NumberFormatException e) {
                        code = 1;
                    }
                    listener.abort(rank, code);
                }
                default -> {
                    String reply = listener.command(rank, cmd, m);
                    send(reply != null ? reply
                            : PmiWire.format("error", "rc", "-1", "msg", "unknown_command_" + PmiWire.encode(cmd)));
                }
            }
        }

        /** The first command must be {@code auth} with the job's secret; else refuse and close. */
        private void authenticate(String cmd, Map<String, String> m) throws IOException {
            String why = !cmd.equals("auth") ? "its first command was '" + cmd + "', not auth"
                    : JobSecret.matches(secret, m.get("secret")) ? null : "wrong secret";
            if (why == null) {
                authenticated = true;
                send(PmiWire.format("auth_result", "rc", "0"));
                return;
            }
            try {
                send(PmiWire.format("auth_result", "rc", "-1", "msg", "not_this_job"));
            } catch (IOException ignored) {
                // it is closed below anyway
            }
            listener.refused(peer(), why);
            closeQuietly();
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

        /**
         * Verbatim's extension (used only by ranks that authenticated, so never sent to Hydra): the
         * values of keys {@code k0..kN} in one reply, {@code v<i>} left out for a key not found.
         */
        private void mget(Map<String, String> m) throws IOException {
            if (!kvsName.equals(m.get("kvsname"))) {
                send(PmiWire.format("mget_result", "rc", "-1", "msg", "unknown_kvsname"));
                return;
            }
            StringBuilder reply = new StringBuilder("cmd=mget_result rc=0");
            for (int i = 0; m.containsKey("k" + i); i++) {
                if (i >= MGET_MAX_KEYS) {
                    send(PmiWire.format("mget_result", "rc", "-1", "msg", "more_than_" + MGET_MAX_KEYS + "_keys"));
                    return;
                }
                String value = kvs.get(m.get("k" + i));
                if (value != null) {
                    reply.append(" v").append(i).append('=').append(value);
                }
            }
            send(reply.toString());
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
