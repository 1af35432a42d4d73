package org.verbatim.transport.iwarp;

import java.nio.ByteBuffer;

/**
 * A connect request as the server side reads it from its private data (what it asks for, then the
 * requester's rank), and what the server does with it given where its connection to the requester
 * stands ({@link #action}).
 *
 * @param kind  {@link CmConnections#CONNECT}, {@link CmConnections#CALL_ME} or anything else
 * @param from  the requester's rank, -1 if the data is too short
 * @param valid whether {@code from} is a rank of the job other than this one
 */
record ConnectRequest(int kind, int from, boolean valid) {

    /** What the server does with a request. */
    enum Action {
        /** Accept it on the connection's endpoint. */
        ACCEPT,
        /** Accept it; the set-up begins with it (nothing was under way). */
        BEGIN_AND_ACCEPT,
        /** The client gave up on the connection accepted before: drop that one, then accept this. */
        DROP_AND_ACCEPT,
        /** The client reconnects after an error this side may not have seen yet: hold it until drained. */
        HOLD,
        /** Reject it (a CALL_ME: with the answer). */
        REJECT,
        /** Reject a CALL_ME with the answer, then connect to the caller. */
        REJECT_AND_CONNECT
    }

    /** Reads a request's private data ({@code data} may be empty) at a rank of a job of {@code size}. */
    static ConnectRequest of(byte[] data, int rank, int size) {
        ByteBuffer b = ByteBuffer.wrap(data);
        int kind = data.length >= 8 ? b.getInt(0) : 0;
        int from = data.length >= 8 ? b.getInt(4) : -1;
        return new ConnectRequest(kind, from, from >= 0 && from < size && from != rank);
    }

    /** The request's kind, for messages. */
    String what() {
        return kind == CmConnections.CONNECT ? "CONNECT" : kind == CmConnections.CALL_ME ? "CALL_ME" : Integer.toHexString(kind);
    }

    /**
     * What a server of rank {@code rank} does with this request while its connection to the
     * requester is in state {@code s} ({@code null} when the request is not {@link #valid}).
     * Only a higher rank connects; only a lower one asks to be called.
     */
    Action action(int rank, ConnectionState s) {
        if (kind == CmConnections.CONNECT && valid && from > rank) {
            return switch (s) {
                case CONNECTED, RECOVERING -> Action.HOLD;
                case ACCEPTED -> Action.DROP_AND_ACCEPT;
                case AWAITING_REQUEST, CALLING, RETRY_WAIT -> Action.ACCEPT;
                case NONE -> Action.BEGIN_AND_ACCEPT;
                default -> Action.REJECT;
            };
        }
        if (kind == CmConnections.CALL_ME && valid && from < rank && s == ConnectionState.NONE) {
            return Action.REJECT_AND_CONNECT;
        }
        return Action.REJECT;
    }
}
