package org.verbatim.transport.iwarp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.verbatim.transport.iwarp.ConnectRequest.Action.*;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** What a server does with a connect request in each state of its connection (host test: no device). */
class ConnectRequestTest {
    private static final int RANK = 2;
    private static final int SIZE = 5;

    private static ConnectRequest request(int kind, int from) {
        return ConnectRequest.of(ByteBuffer.allocate(8).putInt(kind).putInt(from).array(), RANK, SIZE);
    }

    @Test
    void readsKindAndRankAndChecksTheRank() {
        ConnectRequest r = request(CmConnections.CONNECT, 4);
        assertEquals(CmConnections.CONNECT, r.kind());
        assertEquals(4, r.from());
        assertTrue(r.valid());
        assertEquals("CONNECT", r.what());
        assertFalse(request(CmConnections.CONNECT, RANK).valid(), "this rank itself");
        assertFalse(request(CmConnections.CONNECT, SIZE).valid(), "past the job");
        assertFalse(request(CmConnections.CONNECT, -3).valid(), "negative");
        ConnectRequest empty = ConnectRequest.of(new byte[0], RANK, SIZE);
        assertFalse(empty.valid());
        assertEquals(-1, empty.from());
        assertEquals(REJECT, empty.action(RANK, null));
    }

    @Test
    void aHigherRanksConnectIsAcceptedUnlessItsConnectionIsUpOrFailed() {
        ConnectRequest r = request(CmConnections.CONNECT, 3);
        assertEquals(BEGIN_AND_ACCEPT, r.action(RANK, ConnectionState.NONE));
        assertEquals(ACCEPT, r.action(RANK, ConnectionState.AWAITING_REQUEST));
        assertEquals(ACCEPT, r.action(RANK, ConnectionState.CALLING), "asked it to connect: it does");
        assertEquals(ACCEPT, r.action(RANK, ConnectionState.RETRY_WAIT));
        assertEquals(DROP_AND_ACCEPT, r.action(RANK, ConnectionState.ACCEPTED), "it gave up on the last accept");
        assertEquals(HOLD, r.action(RANK, ConnectionState.CONNECTED), "reconnecting after an error not seen here yet");
        assertEquals(HOLD, r.action(RANK, ConnectionState.RECOVERING));
        assertEquals(REJECT, r.action(RANK, ConnectionState.FAILED));
    }

    @Test
    void aLowerRanksConnectIsRejected() {
        // the lower rank is the server of the pair: it never connects
        for (ConnectionState s : ConnectionState.values()) {
            assertEquals(REJECT, request(CmConnections.CONNECT, 1).action(RANK, s), s.name());
        }
    }

    @Test
    void aCallMeIsAnsweredAndConnectedOnlyWhenNothingIsUnderWay() {
        ConnectRequest r = request(CmConnections.CALL_ME, 0);
        assertEquals("CALL_ME", r.what());
        assertEquals(REJECT_AND_CONNECT, r.action(RANK, ConnectionState.NONE));
        for (ConnectionState s : ConnectionState.values()) {
            if (s != ConnectionState.NONE) {
                assertEquals(REJECT, r.action(RANK, s), s.name() + ": already connecting, the reject still answers it");
            }
        }
        assertEquals(REJECT, request(CmConnections.CALL_ME, 4).action(RANK, ConnectionState.NONE),
                "a higher rank connects itself, it never asks");
    }

    @Test
    void anUnknownKindIsRejected() {
        ConnectRequest r = request(0x1234, 3);
        assertEquals("1234", r.what());
        assertEquals(REJECT, r.action(RANK, ConnectionState.NONE));
    }
}
