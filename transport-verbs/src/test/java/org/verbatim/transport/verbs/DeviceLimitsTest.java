package org.verbatim.transport.verbs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which devices get their zero-length reads (flushes) sent as one-byte reads of a registered byte
 * ({@link ReadTargets}). Soft-RoCE refuses a retransmitted zero-length read (remote access error,
 * its queue pair in error), which stopped long loops of lock epochs with RDMA in the TCG guest.
 */
class DeviceLimitsTest {
    private static DeviceLimits of(int vendorId) {
        return new DeviceLimits(16_384, 32, 0, 16_384, 65_536, 1, 128, 128, vendorId);
    }

    @Test
    void softRoceFlushesGoAsOneByteReads() {
        DeviceLimits rxe = of(DeviceLimits.RXE_VENDOR_ID);
        assertTrue(rxe.zeroLengthReadsAnswered(), "rxe answers a zero-length read the first time");
        assertFalse(rxe.zeroLengthReadsReplayed(), "rxe refuses it retransmitted (no key to look up)");
        assertTrue(rxe.zeroLengthReadsNeedTarget());
    }

    @Test
    void softIwarpFlushesGoAsOneByteReads() {
        DeviceLimits siw = of(DeviceLimits.SIW_VENDOR_ID);
        assertFalse(siw.zeroLengthReadsAnswered());
        assertTrue(siw.zeroLengthReadsNeedTarget());
    }

    @Test
    void hardwareKeepsZeroLengthReads() {
        DeviceLimits mellanox = of(0x02c9);
        assertTrue(mellanox.zeroLengthReadsAnswered());
        assertTrue(mellanox.zeroLengthReadsReplayed());
        assertFalse(mellanox.zeroLengthReadsNeedTarget(), "a real HCA's flush stays a zero-length read");
    }
}
