package org.verbatim.transport.iwarp;

import java.util.function.IntPredicate;

/**
 * The hidden first messages of each connection, a three-way handshake on top of the RDMA CM's:
 * the client sends one as soon as its side is ESTABLISHED (MPA wants the client to send first),
 * the server counts the connection as up when it arrives and sends one back, the answer. Neither
 * reaches the runtime. All at once, a rank's open waits for the answers of every lower rank, so
 * an open never ends (and no rank enters the closing barrier) while a server still waits for a
 * client's first message; a first message or an answer that the send queue refuses for now is
 * posted again at every {@link CmConnections#poll}. Runs on the progressing thread.
 */
final class FirstMessages {
    /** Posts the hidden first message to a peer: true if posted, false to try again later. */
    private final IntPredicate send;
    private final int rank;
    private final ConnectionHistory history;
    /** This side owes the peer its first message (client) or its answer (server): not posted yet. */
    private final boolean[] owed;
    /** The peer (a lower rank, this side's server) answered this side's first message. */
    private final boolean[] answered;
    private int owing;
    private int answers;

    FirstMessages(IntPredicate send, int rank, int size, ConnectionHistory history) {
        this.send = send;
        this.rank = rank;
        this.history = history;
        this.owed = new boolean[size];
        this.answered = new boolean[size];
    }

    /** The connection to {@code peer} is up on this side: its first message (or answer) goes now or later. */
    void owe(int peer) {
        if (!owed[peer]) {
            owed[peer] = true;
            owing++;
        }
        if (!post(peer)) {
            history.note(peer, (peer < rank ? "first message" : "answer") + " not posted yet");
        }
    }

    /** Posts what is still owed; returns how many went out. */
    int retry() {
        if (owing == 0) {
            return 0;
        }
        int sent = 0;
        for (int p = 0; p < owed.length && owing > 0; p++) {
            if (owed[p] && post(p)) {
                sent++;
            }
        }
        return sent;
    }

    private boolean post(int peer) {
        if (!send.test(peer)) {
            return false;
        }
        owed[peer] = false;
        owing--;
        history.note(peer, peer < rank ? "first message posted" : "answer posted");
        return true;
    }

    /** A first message arrived from {@code peer}: from a lower rank it is the answer to ours. */
    void received(int peer) {
        if (peer < rank && !answered[peer]) {
            answered[peer] = true;
            answers++;
            history.note(peer, "answer received");
        }
    }

    /** The connection to {@code peer} went down (or failed): nothing is owed, no answer counts. */
    void reset(int peer) {
        if (owed[peer]) {
            owed[peer] = false;
            owing--;
        }
        if (answered[peer]) {
            answered[peer] = false;
            answers--;
        }
    }

    /** Lower ranks that answered this side's first message. */
    int answers() {
        return answers;
    }

    /** True if {@code peer} (a lower rank) answered. */
    boolean answered(int peer) {
        return answered[peer];
    }
}
