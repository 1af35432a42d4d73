package org.verbatim.verbs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The RC timers every queue pair gets (see {@link QueuePair#RETRY_COUNT}). */
class QueuePairTimersTest {
    @Test
    void retryCountIsFiniteOnSoftRoce() {
        // Soft-RoCE (rxe_comp.c) never counts a retry down from 7: a request its peer will never
        // answer would be retransmitted forever, a hang instead of an error completion.
        assertTrue(QueuePair.RETRY_COUNT >= 1 && QueuePair.RETRY_COUNT <= 6,
                "RETRY_COUNT " + QueuePair.RETRY_COUNT + " must be 1..6");
    }

    @Test
    void ackTimeoutOutlastsAGuestStall() {
        // 4.096 us * 2^TIMEOUT: below 18 (1.07 s) a TCG guest's stalls made rxe retransmit reads
        // and atomics.
        assertTrue(QueuePair.TIMEOUT >= 18 && QueuePair.TIMEOUT <= 31, "TIMEOUT " + QueuePair.TIMEOUT);
    }
}
