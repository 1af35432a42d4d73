package org.verbatim.transport.iwarp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.verbatim.verbs.raw.rdma_cma_h_constants.RDMA_CM_EVENT_REJECTED;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.verbatim.verbs.CmConnectParameters;
import org.verbatim.verbs.CmEvent;

/** Which REJECTED events answer a CALL_ME (host test: no device). */
class CallMeAnswerTest {
    private static CmEvent rejected(int status, byte[] data) {
        return new CmEvent(RDMA_CM_EVENT_REJECTED, status, 1, 0, new CmConnectParameters(0, 0, data, 0, 0));
    }

    private static byte[] data(int kind, int rank) {
        return ByteBuffer.allocate(8).putInt(kind).putInt(rank).array();
    }

    @Test
    void theCalledPeersRejectWithTheAnswerMarkerAnswers() {
        assertTrue(CallMeRequests.answers(rejected(-111, data(CallMeRequests.ANSWER, 3)), 3));
    }

    @Test
    void aResetDuringTheMpaExchangeIsNoAnswer() {
        // Soft-iWARP: a connection reset while the MPA request is out comes as REJECTED, status -104
        assertFalse(CallMeRequests.answers(rejected(-104, new byte[0]), 3));
        assertFalse(CallMeRequests.answers(new CmEvent(RDMA_CM_EVENT_REJECTED, -104, 1, 0), 3));
    }

    @Test
    void anotherRanksOrAnotherKindsRejectIsNoAnswer() {
        assertFalse(CallMeRequests.answers(rejected(-111, data(CallMeRequests.ANSWER, 2)), 3));
        assertFalse(CallMeRequests.answers(rejected(-111, data(CmConnections.CONNECT, 3)), 3));
        assertFalse(CallMeRequests.answers(rejected(-111, new byte[] {0x49, 0x57, 0, 3}), 3));
    }
}
