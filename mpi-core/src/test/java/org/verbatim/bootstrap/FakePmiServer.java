package org.verbatim.bootstrap;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A one-rank PMI-1 server answering the way Hydra does (replies quoted from a real
 * mpiexec.hydra), recording every line it receives. Serves one TCP connection or one channel.
 */
final class FakePmiServer implements AutoCloseable {
    final List<String> received = new CopyOnWriteArrayList<>();
    final Map<String, String> kvs = new ConcurrentHashMap<>();
    volatile String initRc = "0";
    volatile int valueMax = 1024;
    volatile boolean hangUpOnBarrier;
    /** Answer Verbatim's mpirun's mget extension (else it gets the unknown-command reply). */
    volatile boolean mget;
    /** Stop serving (without closing the channel) once the client's start-up is answered. */
    volatile boolean stopAfterStartUp;
    private final int size;
    private final int rank;
    private ServerSocket serverSocket;
    private Thread thread;

    FakePmiServer(int rank, int size) {
        this.rank = rank;
        this.size = size;
    }

    /** Listens on loopback; returns host:port for PMI_PORT. */
    String listen() throws IOException {
        serverSocket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        thread = new Thread(() -> {
            try (Socket s = serverSocket.accept()) {
                serve(new SocketLines(s));
            } catch (IOException e) {
                // the client went away; the test checks what was received
            }
        }, "fake-pmi");
        thread.setDaemon(true);
        thread.start();
        return "127.0.0.1:" + serverSocket.getLocalPort();
    }

    /** Serves an already connected channel (the far end of a socketpair) on a new thread. */
    void serveInBackground(PmiChannel channel) {
        thread = new Thread(() -> {
            try {
                serve(new Lines() {
                    @Override
                    public String read() throws IOException {
                        return channel.readLine();
                    }

                    @Override
                    public void write(String line) throws IOException {
                        channel.writeLine(line);
                    }
                });
            } catch (IOException e) {
                // as above
            }
        }, "fake-pmi-fd");
        thread.setDaemon(true);
        thread.start();
    }

    void join() throws InterruptedException {
        thread.join(10_000);
    }

    interface Lines {
        String read() throws IOException;

        void write(String line) throws IOException;
    }

    private void serve(Lines io) throws IOException {
        while (true) {
            String line = io.read();
            received.add(line);
            Map<String, String> m = PmiWire.parse(line);
            switch (m.get("cmd")) {
                case "initack" -> io.write("cmd=initack\ncmd=set size=" + size + "\ncmd=set rank=" + rank + "\ncmd=set debug=0");
                case "init" -> io.write("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=" + initRc);
                case "get_maxes" -> io.write("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=" + valueMax);
                case "get_appnum" -> io.write("cmd=appnum appnum=0");
                case "get_my_kvsname" -> {
                    io.write("cmd=my_kvsname kvsname=kvs_4242_0");
                    if (stopAfterStartUp) {
                        return;
                    }
                }
                case "put" -> {
                    kvs.put(m.get("key"), m.get("value"));
                    io.write("cmd=put_result rc=0 msg=success");
                }
                case "get" -> {
                    String v = kvs.get(m.get("key"));
                    io.write(v == null ? "cmd=get_result rc=-1 msg=key_" + m.get("key") + "_not_found value=unknown"
                            : "cmd=get_result rc=0 msg=success value=" + v);
                }
                case "auth" -> io.write("cmd=auth_result rc=0");
                case "mget" -> {
                    if (!mget) {
                        io.write("cmd=error rc=-1 msg=unknown_command_mget");
                        break;
                    }
                    StringBuilder sb = new StringBuilder("cmd=mget_result rc=0");
                    for (int i = 0; m.containsKey("k" + i); i++) {
                        String v = kvs.get(m.get("k" + i));
                        if (v != null) {
                            sb.append(" v").append(i).append('=').append(v);
                        }
                    }
                    io.write(sb.toString());
                }
                case "barrier_in" -> {
                    if (hangUpOnBarrier) {
                        return;
                    }
                    io.write("cmd=barrier_out");
                }
                case "finalize" -> {
                    io.write("cmd=finalize_ack");
                    return;
                }
                case "abort" -> {
                    return;
                }
                default -> io.write("cmd=unknown");
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (serverSocket != null) {
            serverSocket.close();
        }
    }

    private static final class SocketLines implements Lines {
        private final InputStream in;
        private final OutputStream out;

        SocketLines(Socket s) throws IOException {
            in = s.getInputStream();
            out = s.getOutputStream();
        }

        @Override
        public String read() throws IOException {
            StringBuilder sb = new StringBuilder();
            int c;
            while ((c = in.read()) != '\n') {
                if (c < 0) {
                    throw new IOException("client closed");
                }
                sb.append((char) c);
            }
            return new String(sb.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        }

        @Override
        public void write(String line) throws IOException {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }
}
