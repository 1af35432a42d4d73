package mpi;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.runtime.MpiProcess;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;

/**
 * MPI_Comm_accept and MPI_Comm_connect over an intra-communicator (and the spawn calls built on
 * them): every member proposes a context id (agreed over the group) and gives its process card
 * to the root; the root swaps both with the other side's root through the port ({@link
 * PortExchange}); the root then broadcasts the outcome, the agreed context (the larger of the
 * two proposals, free on both sides) and the other side's cards; each member adds the other
 * side's processes to its peer table (the transports connect on first send) and builds the
 * inter-communicator. A failure at the root (unknown port, unreachable port) reaches every
 * member as the same MPI error class: nobody is left waiting.
 */
final class ConnectAccept {
    /** What the root does with the local side to get the remote side. */
    interface RootExchange {
        PortExchange.Side exchange(PortExchange.Side mine) throws MPIException;
    }

    private ConnectAccept() {
    }

    /** The collective part; {@code exchange} runs at {@code root} only. */
    static Intercomm run(Intracomm comm, int root, String call, RootExchange exchange)
            throws MPIException {
        MPI.check();
        comm.checkUsable(call);
        if (root < 0 || root >= comm.getSize()) {
            throw comm.raise(call, ErrorClass.ERR_ROOT, "invalid root " + root + " (communicator size "
                    + comm.getSize() + ")");
        }
        MpiProcess process = comm.process;
        int proposal = comm.agreeContext(call);
        List<String> cards = gather(comm, root, process.addressCard());
        String outcome = null;
        if (comm.rank == root) {
            try {
                PortExchange.Side theirs = exchange.exchange(new PortExchange.Side(proposal, cards));
                StringBuilder sb = new StringBuilder("OK\n")
                        .append(Math.max(proposal, theirs.proposal()));
                for (String c : theirs.cards()) {
                    sb.append('\n').append(c);
                }
                outcome = sb.toString();
            } catch (MPIException e) {
                String why = String.valueOf(e.getMessage());
                if (why.startsWith(call + ": ")) {
                    why = why.substring(call.length() + 2); // raise() adds the call again
                }
                outcome = "ERR\n" + e.getErrorClass() + "\n" + why;
            }
        }
        String text = broadcast(comm, root, outcome);
        if (text.startsWith("ERR\n")) {
            String[] e = text.split("\n", 3);
            throw comm.raise(call, Integer.parseInt(e[1]), e[2]);
        }
        String[] lines = text.split("\n", -1);
        int context = Integer.parseInt(lines[1]);
        List<String> remoteCards = List.of(lines).subList(2, lines.length);
        int[] remote;
        try {
            remote = process.addPeers(remoteCards);
        } catch (MpiError e) {
            throw comm.raise(call, e);
        }
        process.contextTaken(context + 2);
        Intercomm ic = new Intercomm();
        ic.bind(process, context, comm.world.clone(), comm.rank, "");
        ic.remote = remote;
        ic.errhandler = comm.errhandler;
        return ic;
    }

    /** Every member's string at the root, in rank order (null elsewhere). */
    private static List<String> gather(Intracomm comm, int root, String mine) throws MPIException {
        byte[] bytes = mine.getBytes(StandardCharsets.UTF_8);
        int n = comm.getSize();
        int[] lengths = new int[n];
        comm.gather(new int[] {bytes.length}, 1, MPI.INT, lengths, 1, MPI.INT, root);
        int[] displs = new int[n];
        int total = 0;
        for (int i = 0; i < n; i++) {
            displs[i] = total;
            total += lengths[i];
        }
        byte[] all = new byte[comm.rank == root ? total : 0];
        comm.gatherv(bytes, bytes.length, MPI.BYTE, all, lengths, displs, MPI.BYTE, root);
        if (comm.rank != root) {
            return null;
        }
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new String(all, displs[i], lengths[i], StandardCharsets.UTF_8));
        }
        return out;
    }

    /** The root's string on every member. */
    private static String broadcast(Intracomm comm, int root, String text) throws MPIException {
        byte[] bytes = comm.rank == root ? text.getBytes(StandardCharsets.UTF_8) : null;
        int[] length = {bytes == null ? 0 : bytes.length};
        comm.bcast(length, 1, MPI.INT, root);
        if (bytes == null) {
            bytes = new byte[length[0]];
        }
        comm.bcast(bytes, bytes.length, MPI.BYTE, root);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
