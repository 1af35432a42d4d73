package org.verbatim.bootstrap;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** PMI over a TCP connection to {@code PMI_PORT=host:port}. */
final class SocketPmiChannel implements PmiChannel {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String where;
    private final LineBuffer lines = new LineBuffer(4096);

    SocketPmiChannel(String hostPort, int connectTimeoutMillis) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new IOException("PMI_PORT is not host:port: " + hostPort);
        }
        String host = hostPort.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IOException("PMI_PORT has no valid port: " + hostPort, e);
        }
        this.where = "PMI_PORT " + hostPort;
        this.socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
        } catch (IOException e) {
            socket.close();
            throw new IOException("cannot connect to the process manager at " + hostPort + ": " + e.getMessage(), e);
        }
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    @Override
    public void writeLine(String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public String readLine() throws IOException {
        String line = lines.nextLine();
        while (line == null) {
            byte[] buf = lines.array();
            int n = in.read(buf);
            if (n < 0) {
                throw new EOFException("process manager closed the connection (" + where + ")");
            }
            lines.filled(n);
            line = lines.nextLine();
        }
        return line;
    }

    @Override
    public String describe() {
        return where;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
