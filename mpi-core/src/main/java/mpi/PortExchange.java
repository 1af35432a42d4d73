package mpi;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * What the two roots of MPI_Comm_connect/accept say to each other through the port: each
 * side's context-id proposal (the largest free id over its group) and the process cards of its
 * group in rank order. The connecting root speaks first and presents the port's nonce; the
 * accepting root answers with status 0 and its side, or status -1 for a stale nonce (and goes on
 * accepting).
 *
 * <pre>
 * connect -> accept:  int MAGIC, UTF nonce, int proposal, int n, n x UTF card
 * accept -> connect:  int status (0 or -1), [int proposal, int n, n x UTF card]
 * </pre>
 */
final class PortExchange {
    private static final int MAGIC = 0x56425054; // "VBPT"
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    /** One side's offer: its context proposal and its processes' cards. */
    record Side(int proposal, List<String> cards) {
    }

    private PortExchange() {
    }

    /** The accepting root: waits for a connecting root with the right nonce, then answers. */
    static Side accept(ServerSocket server, String nonce, Side mine) throws IOException {
        while (true) {
            try (Socket s = server.accept()) {
                s.setTcpNoDelay(true);
                DataInputStream in = new DataInputStream(s.getInputStream());
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                if (in.readInt() != MAGIC || !nonce.equals(in.readUTF())) {
                    out.writeInt(-1);
                    out.flush();
                    continue;
                }
                Side theirs = read(in);
                out.writeInt(0);
                write(out, mine);
                out.flush();
                return theirs;
            } catch (java.io.EOFException e) {
                // a stranger or a connecting root that gave up: wait for the next one
            }
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
                out.writeUTF(port.nonce());
                write(out, mine);
                out.flush();
                if (in.readInt() != 0) {
                    throw new IOException("the port at " + a + " is not this port any more (closed and "
                            + "reused)");
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
