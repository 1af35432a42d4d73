package org.verbatim.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.verbatim.bootstrap.JobSecret;
import org.verbatim.bootstrap.PmiWire;

/**
 * The control connection of an mpirun started with {@code --join HOST:PORT} to the mpirun that
 * serves the job: it announces the ranks started here, reports each one's end, and learns when
 * the whole job is over (and with which status). See {@link PmiServer} for the commands.
 */
final class JoinLink implements AutoCloseable {
    /** How long to keep trying while the serving mpirun is not listening yet. */
    static final long CONNECT_PATIENCE_SECONDS = 120;

    private final Socket socket;
    private final BufferedReader in;
    private final OutputStream out;
    private final String kvsName;
    private final int size;
    private volatile int endStatus = -1;
    private volatile boolean lost;

    private JoinLink(Socket socket, String kvsName, int size, BufferedReader in) throws IOException {
        this.socket = socket;
        this.in = in;
        this.out = socket.getOutputStream();
        this.kvsName = kvsName;
        this.size = size;
    }

    /**
     * Connects to {@code hostPort} (retrying while nothing listens there yet) and joins with ranks
     * {@code first..last} of a job of {@code size}, presenting the job's {@code secret};
     * IOException says why not.
     */
    static JoinLink join(String hostPort, int first, int last, int size, String secret)
            throws IOException, InterruptedException {
        int colon = hostPort.lastIndexOf(':');
        InetSocketAddress address = new InetSocketAddress(hostPort.substring(0, colon),
                Integer.parseInt(hostPort.substring(colon + 1)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CONNECT_PATIENCE_SECONDS);
        Socket socket;
        while (true) {
            socket = new Socket();
            try {
                socket.connect(address, 5_000);
                break;
            } catch (IOException e) {
                socket.close();
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("cannot reach the serving mpirun at " + hostPort + " within "
                            + CONNECT_PATIENCE_SECONDS + " s: " + e.getMessage(), e);
                }
                Thread.sleep(500);
            }
        }
        socket.setTcpNoDelay(true);
        BufferedReader reader = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        OutputStream o = socket.getOutputStream();
        o.write((PmiWire.format("auth", "secret", secret) + "\n").getBytes(StandardCharsets.UTF_8));
        o.flush();
        String auth = reader.readLine();
        if (auth == null || !"0".equals(PmiWire.parse(auth).get("rc"))) {
            socket.close();
            throw new IOException("the mpirun at " + hostPort + " refused this one: not the job's secret (set "
                    + JobSecret.VARIABLE + " to the value the serving mpirun uses)");
        }
        o.write((PmiWire.format("join", "first", Integer.toString(first), "last", Integer.toString(last))
                + "\n").getBytes(StandardCharsets.UTF_8));
        o.flush();
        String line = reader.readLine();
        Map<String, String> m = line == null ? Map.of() : PmiWire.parse(line);
        if (!"join_ack".equals(m.get("cmd")) || !"0".equals(m.get("rc"))) {
            socket.close();
            throw new IOException("the mpirun at " + hostPort + " refused ranks " + first + "-" + last + ": "
                    + (line == null ? "connection closed" : PmiWire.decode(m.getOrDefault("msg", "%"))));
        }
        int served = Integer.parseInt(m.get("size"));
        if (served != size) {
            socket.close();
            throw new IOException("the mpirun at " + hostPort + " serves a job of " + served + " ranks, not -np " + size);
        }
        JoinLink link = new JoinLink(socket, m.get("kvsname"), served, reader);
        Thread t = new Thread(link::listen, "mpirun-join");
        t.setDaemon(true);
        t.start();
        return link;
    }

    /** The job's PMI kvsname (the shm transport names its files after it). */
    String kvsName() {
        return kvsName;
    }

    int size() {
        return size;
    }

    /** Reports that {@code rank} ended with {@code status} ({@code what}: in words, for messages). */
    synchronized void reportExit(int rank, int status, String what) {
        try {
            out.write((PmiWire.format("rank_exit", "rank", Integer.toString(rank), "status",
                    Integer.toString(status), "what", PmiWire.encode(what)) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            lost = true;
        }
    }

    /** The job's status once the serving mpirun said it is over, else -1. */
    int endStatus() {
        return endStatus;
    }

    /** True if the connection closed before the end was announced. */
    boolean lost() {
        return lost && endStatus < 0;
    }

    private void listen() {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                Map<String, String> m = PmiWire.parse(line);
                if ("end".equals(m.get("cmd"))) {
                    try {
                        endStatus = Integer.parseInt(m.getOrDefault("status", "1"));
                    } catch (NumberFormatException e) {
                        endStatus = 1;
                    }
                }
                notifyWaiters();
            }
        } catch (IOException e) {
            // closed: lost unless the end came first
        }
        lost = true;
        notifyWaiters();
    }

    private Runnable waiter;

    /** Runs {@code r} whenever the link's state changes (the job's wait loop wakes up). */
    synchronized void onChange(Runnable r) {
        this.waiter = r;
    }

    private void notifyWaiters() {
        Runnable r;
        synchronized (this) {
            r = waiter;
        }
        if (r != null) {
            r.run();
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
