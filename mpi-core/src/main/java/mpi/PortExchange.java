package mpi;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the two roots of MPI_Comm_connect/accept say to each other through the port: each
 * side's context-id proposal (the largest free id over its group) and the process cards of its
 * group in rank order. The connecting root speaks first and presents the port's token, the
 * random part of the port name, which only those who were given the name know; the accepting
 * root answers with status 0 and its side. A connection that does not present the token (a
 * stranger who found the socket, a stale name of a closed port whose number was reused, or
 * silence for {@value #HELLO_TIMEOUT_MILLIS} ms) is answered -1 where it can be, closed, and
 * reported in one line; nothing else happens and the root goes on accepting.
 *
 * <pre>
 * connect -> accept:  int MAGIC, UTF token, int proposal, int n, n x UTF card
 * accept -> connect:  int status (0 or -1), [int proposal, int n, n x UTF card]
 * </pre>
 */
final class PortExchange {
    private static final int MAGIC = 0x56425054; // "VBPT"
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    /** How long an accepted connection may take to present the token. */
    static final int HELLO_TIMEOUT_MILLIS = 10_000;

    /** One side's offer: its context proposal and its processes' cards. */
    record Side(int proposal, List<String> cards) {
    }

    private PortExchange() {
    }

    /**
     * The accepting root: waits for a connecting root that presents {@code token}, then swaps
     * sides with it. Each refused connection is one line to {@code refusals}.
     */
    static Side accept(ServerSocket server, String token, Side mine, Consumer<String> refusals)
            throws IOException {
        while (true) {
            try (Socket s = server.accept()) {
                s.setTcpNoDelay(true);
                s.setSoTimeout(HELLO_TIMEOUT_MILLIS);
                DataInputStream in = new DataInputStream(s.getInputStream());
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                String why = hello(in, token);
                if (why != null) {
                    refusals.accept("verbatim: refused a connection to port " + Ports.withoutToken(server)
                            + " from " + s.getInetAddress().getHostAddress() + " (" + why
                            + "); still accepting");
                    refuse(s, out);
                    continue;
                }
                s.setSoTimeout(0);
                Side theirs = read(in);
                out.writeInt(0);
                write(out, mine);
                out.flush();
                return theirs;
            }
        }
    }

    /**
     * Answers a refused connection: -1, then the end of the stream; what it still sends is read
     * and dropped (for at most {@link #REFUSAL_DRAIN_MILLIS}), so that closing does not reset the
     * connection, which could throw the -1 away before the other side reads it.
     */
    private static void refuse(Socket s, DataOutputStream out) {
        try {
            out.writeInt(-1);
            out.flush();
            s.shutdownOutput();
            s.setSoTimeout(REFUSAL_DRAIN_MILLIS);
            java.io.InputStream in = s.getInputStream();
            byte[] sink = new byte[512];
            long dropped = 0;
            int n;
            while (dropped < REFUSAL_DRAIN_BYTES && (n = in.read(sink)) >= 0) {
                dropped += n;
            }
        } catch (IOException gone) {
            // it hung up already, or kept quiet past the drain time: closing is all that is left
        }
    }

    private static final int REFUSAL_DRAIN_MILLIS = 200;
    private static final int REFUSAL_DRAIN_BYTES = 64 * 1024;

    /** Null when the connection presented the token, else why not. */
    private static String hello(DataInputStream in, String token) {
        try {
            if (in.readInt() != MAGIC) {
                return "not a Verbatim MPI_Comm_connect";
            }
            String given = in.readUTF();
            return MessageDigest.isEqual(token.getBytes(StandardCharsets.US_ASCII),
                    given.getBytes(StandardCharsets.UTF_8)) ? null : "wrong port token";
        } catch (SocketTimeoutException e) {
            return "no port token within " + HELLO_TIMEOUT_MILLIS / 1000 + " s";
        } catch (IOException e) {
            return "it hung up before presenting the port token";
        }
    }

    /** The connecting root: reaches the port and swaps sides with its accepting root. */
    static Side connect(Ports.Address port, Side mine) throws IOException {
        IOException last = null;
        for (InetSocketAddress a : port.addresses()) {
            Socket s = new Socket();
            try {
                s.connect(a, CONNECT_TIMEOUT_MILLIS);
            } catch (IOException e) {
                s.close();
                last = e;
                continue;
            }
            try (s) {
                s.setTcpNoDelay(true);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                DataInputStream in = new DataInputStream(s.getInputStream());
                out.writeInt(MAGIC);
                out.writeUTF(port.token());
                write(out, mine);
                out.flush();
                if (in.readInt() != 0) {
                    throw new IOException("the port at " + a + " refused this connection: it is not "
                            + "that port any more (closed, and its number reused)");
                }
                return read(in);
            }
        }
        throw new IOException("cannot reach the port at " + port.addresses() + ": "
                + (last == null ? "no address" : last.getMessage()));
    }

    private static void write(DataOutputStream out, Side side) throws IOException {
        out.writeInt(side.proposal());
        out.writeInt(side.cards().size());
        for (String c : side.cards()) {
            out.writeUTF(c);
        }
    }

    private static Side read(DataInputStream in) throws IOException {
        int proposal = in.readInt();
        int n = in.readInt();
        if (n < 1 || n > 1 << 20) {
            throw new IOException("bad group size " + n + " from the other root");
        }
        List<String> cards = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            cards.add(in.readUTF());
        }
        return new Side(proposal, cards);
    }
}
