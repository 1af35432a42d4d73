package org.verbatim.transport.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.verbs.raw.verbs_h_constants;

class OutstandingRequestsTest {
    private final List<long[]> completions = new ArrayList<>();
    private final CompletionHandler handler = new CompletionHandler() {
        @Override
        public void onReceive(int source, MemorySegment message) {
        }

        @Override
        public void onImmediate(int source, int immediate) {
        }

        @Override
        public void onComplete(long wrId, int status) {
            completions.add(new long[] {wrId, status});
        }

        @Override
        public void onPeerFailure(int peer, String reason) {
        }
    };

    @Test
    void aSignalledCompletionRetiresEverythingBeforeIt() {
        var r = new OutstandingRequests(8);
        r.record(r.next(), OutstandingRequests.BUFFER, -1, 0, null); // inline eager send
        r.record(r.next(), OutstandingRequests.USER, -1, 41, null);
        r.record(r.next(), OutstandingRequests.USER, -1, 42, null);
        assertEquals(3, r.outstanding());
        assertEquals(2, r.retire(1, CompletionStatus.OK, null, handler));
        assertEquals(1, completions.size());
        assertEquals(41, completions.get(0)[0]);
        assertEquals(1, r.retire(2, CompletionStatus.OK, null, handler));
        assertEquals(0, r.outstanding());
        assertTrue(r.room(7));
        assertFalse(r.room(8), "one slot stays free");
    }

    @Test
    void anErrorCompletesTheOperationWithItsStatusAndMarksLostMessages() {
        var r = new OutstandingRequests(8);
        r.record(r.next(), OutstandingRequests.BUFFER, -1, 0, null);
        r.record(r.next(), OutstandingRequests.USER, -1, 7, null);
        r.record(r.next(), OutstandingRequests.BUFFER, -1, 0, null);
        r.record(r.next(), OutstandingRequests.USER, -1, 8, null);
        int first = r.retire(1, CompletionStatus.REMOTE_ACCESS_ERROR, null, handler);
        assertEquals(2, first, "the eager send before the error completed: nothing lost");
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, completions.get(0)[1]);
        int flushed = r.retire(2, CompletionStatus.CANCELLED, null, handler);
        assertTrue((flushed & OutstandingRequests.LOST) != 0, "a flushed eager send is lost");
        int last = r.retire(3, CompletionStatus.CANCELLED, null, handler);
        assertEquals(1, last);
        assertEquals(8, completions.get(1)[0]);
        assertEquals(CompletionStatus.CANCELLED, completions.get(1)[1]);
    }

    @Test
    void workCompletionStatusesMapToTheSpi() {
        assertEquals(CompletionStatus.OK, CompletionStatuses.of(verbs_h_constants.IBV_WC_SUCCESS));
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, CompletionStatuses.of(verbs_h_constants.IBV_WC_REM_ACCESS_ERR));
        assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, CompletionStatuses.of(verbs_h_constants.IBV_WC_REM_OP_ERR));
        assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR,
                CompletionStatuses.of(verbs_h_constants.IBV_WC_REM_INV_REQ_ERR));
        assertEquals(CompletionStatus.CANCELLED, CompletionStatuses.of(verbs_h_constants.IBV_WC_WR_FLUSH_ERR));
        assertEquals(CompletionStatus.LOCAL_ERROR, CompletionStatuses.of(verbs_h_constants.IBV_WC_LOC_PROT_ERR));
        assertEquals(CompletionStatus.LOCAL_ERROR, CompletionStatuses.of(verbs_h_constants.IBV_WC_LOC_LEN_ERR));
        assertTrue(CompletionStatuses.peerGone(verbs_h_constants.IBV_WC_RETRY_EXC_ERR));
        assertTrue(CompletionStatuses.peerGone(verbs_h_constants.IBV_WC_RNR_RETRY_EXC_ERR));
        assertFalse(CompletionStatuses.peerGone(verbs_h_constants.IBV_WC_REM_ACCESS_ERR));
        assertEquals("remote access error", CompletionStatuses.describe(verbs_h_constants.IBV_WC_REM_ACCESS_ERR));
    }

    @Test
    void flushedWritesAndReadsWaitToBePostedAgainInOrder() {
        var r = new OutstandingRequests(8);
        r.record(r.next(), OutstandingRequests.USER, -1, 1, null); // fails
        r.replays.log(0, 4, 2, 0x1000, 64, 5, 0x2000, 6);
        r.record(r.next(), OutstandingRequests.USER, -1, 2, null, true); // a read, flushed
        r.replays.log(1, 4, 2, 0x1100, 8, 5, 0x2100, 6);
        r.record(r.next(), OutstandingRequests.USER, -1, 3, null); // an atomic, flushed: not logged
        r.retire(0, CompletionStatus.REMOTE_ACCESS_ERROR, null, handler);
        r.retire(1, CompletionStatus.CANCELLED, null, handler);
        r.retire(2, CompletionStatus.CANCELLED, null, handler);
        assertEquals(2, completions.size(), "the flushed read waits; the atomic completes CANCELLED");
        assertEquals(1, completions.get(0)[0]);
        assertEquals(3, completions.get(1)[0]);
        assertEquals(CompletionStatus.CANCELLED, completions.get(1)[1]);
        assertEquals(0, r.readsOutstanding());
        assertEquals(1, r.replays.pending());
        assertEquals(2, r.replays.userId());
        assertEquals(0x2100, r.replays.remote());
        assertTrue(r.replays.read());
        r.replays.pop();
        assertEquals(0, r.replays.pending());
    }

    /**
     * iWARP (Soft-iWARP): a write completes once sent, ahead of the read posted before it. The
     * write's completion must not retire the read (its data is not there yet); the read's own
     * completion does, and the ring's tail then moves past both.
     */
    @Test
    void outOfOrderDevicesRetireAReadOnlyByItsOwnCompletion() {
        var r = new OutstandingRequests(8, true);
        r.record(r.next(), OutstandingRequests.USER, -1, 10, null, true); // read
        r.record(r.next(), OutstandingRequests.USER, -1, 11, null); // write
        r.record(r.next(), OutstandingRequests.BUFFER, -1, 0, null); // unsignalled send
        r.record(r.next(), OutstandingRequests.USER, -1, 12, null); // write
        assertEquals(1, r.retire(1, CompletionStatus.OK, null, handler), "only the write");
        assertEquals(List.of(11L), completions.stream().map(c -> c[0]).toList());
        assertEquals(1, r.readsOutstanding());
        assertEquals(4, r.outstanding(), "the tail waits at the read");
        assertEquals(2, r.retire(3, CompletionStatus.OK, null, handler), "the send and the second write");
        assertEquals(1, r.retire(0, CompletionStatus.OK, null, handler), "the read, by its own completion");
        assertEquals(List.of(11L, 12L, 10L), completions.stream().map(c -> c[0]).toList());
        assertEquals(0, r.outstanding());
        assertEquals(0, r.readsOutstanding());
        assertFalse(r.room(8));
        assertTrue(r.room(7));
    }

    @Test
    void inOrderDevicesRetireEverythingBeforeACompletion() {
        var r = new OutstandingRequests(8, false);
        r.record(r.next(), OutstandingRequests.USER, -1, 10, null, true); // read
        r.record(r.next(), OutstandingRequests.USER, -1, 11, null); // write
        assertEquals(2, r.retire(1, CompletionStatus.OK, null, handler));
        assertEquals(0, r.readsOutstanding());
    }

    @Test
    void aDrainRetiresAWaitingReadCancelled() {
        var r = new OutstandingRequests(8, true);
        r.record(r.next(), OutstandingRequests.USER, -1, 10, null, true); // read, never completed
        r.record(r.next(), OutstandingRequests.BUFFER, -1, 0, null); // unsignalled send
        assertEquals(2, r.retireAll(1, CompletionStatus.OK, null, handler));
        assertEquals(CompletionStatus.CANCELLED, completions.get(0)[1]);
        assertEquals(0, r.outstanding());
    }
}
