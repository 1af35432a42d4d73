package org.verbatim.transport.iwarp;

import java.util.Arrays;

/**
 * The state of every peer's connection and the two counts kept from it: connections being set up
 * (in progress) and connections up. Every change that moves a peer into or out of those two sets
 * goes through one method here, so the counts cannot drift from the states.
 */
final class PeerStates {
    private final ConnectionState[] state;
    private int inProgress;
    private int connected;

    PeerStates(int size) {
        state = new ConnectionState[size];
        Arrays.fill(state, ConnectionState.NONE);
    }

    ConnectionState of(int peer) {
        return state[peer];
    }

    int size() {
        return state.length;
    }

    /** A step inside the set-up (no change to the counts). */
    void set(int peer, ConnectionState s) {
        state[peer] = s;
    }

    /** The set-up to {@code peer} begins: counted in progress ({@code NONE} becomes {@code CALLING}). */
    void begin(int peer) {
        inProgress++;
        if (state[peer] == ConnectionState.NONE) {
            state[peer] = ConnectionState.CALLING;
        }
    }

    /** The connection to {@code peer} is up. */
    void up(int peer) {
        state[peer] = ConnectionState.CONNECTED;
        inProgress--;
        connected++;
    }

    /** The connection to {@code peer}, up until now, went to error: it is set up again. */
    void lost(int peer) {
        state[peer] = ConnectionState.RECOVERING;
        inProgress++;
        connected--;
    }

    /** {@code peer} failed for good; false if it had already. */
    boolean fail(int peer) {
        ConnectionState s = state[peer];
        if (s == ConnectionState.FAILED) {
            return false;
        }
        if (s != ConnectionState.CONNECTED && s != ConnectionState.NONE) {
            inProgress--;
        }
        state[peer] = ConnectionState.FAILED;
        return true;
    }

    /** Connections being set up now. */
    int inProgress() {
        return inProgress;
    }

    /** Connections up. */
    int connected() {
        return connected;
    }
}
