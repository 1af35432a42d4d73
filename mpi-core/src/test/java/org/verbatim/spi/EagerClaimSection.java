package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Claim, write in place, commit or abort ({@link Capability#EAGER_CLAIM}): committed claims arrive
 * exactly as sends would, in order with the sends around them; an aborted claim never arrives
 * (its room carries a marker that would show); a claim can be as large as {@code maxEager}; and
 * a claim on a full ring is refused with RETRY, leaving no claim active.
 */
public abstract class EagerClaimSection extends FlushSection {
    private static final int SENT = 1;
    private static final int COMMITTED = 2;
    private static final int ABORTED = 3;

    /** What message {@code seq} is: a send, a committed claim or an aborted claim. */
    private static int kindOf(int seq) {
        return switch (seq % 5) {
            case 0, 3 -> SENT;
            case 2 -> ABORTED;
            default -> COMMITTED;
        };
    }

    /** Length of message {@code seq} (an 8-byte header of sequence number and kind included). */
    private static int lengthOf(int seq, int maxEager) {
        return seq % 50 == 1 || seq % 50 == 2 ? maxEager : 8 + seq % Math.min(301, maxEager - 7);
    }

    @Test
    void claimsArriveInOrderWithSendsAndAbortedOnesNever() throws Exception {
        final int messages = 3000;
        runRanks(2, r -> {
            assumeTrue(r.caps().has(Capability.EAGER_CLAIM), "no EAGER_CLAIM");
            int maxEager = r.caps().maxEager();
            if (r.rank == 1) {
                checkArrivals(r, messages, maxEager);
            } else {
                EagerClaim claim = new EagerClaim();
                for (int seq = 0; seq <= messages; seq++) {
                    offer(r, claim, seq, maxEager);
                }
            }
        });
    }

    @Test
    void aClaimOnAFullRingIsRefusedAndLaterOnesKeepTheOrder() throws Exception {
        final long limitBytes = 256L << 20;
        runRanks(2, r -> {
            assumeTrue(r.caps().has(Capability.EAGER_CLAIM), "no EAGER_CLAIM");
            int maxEager = r.caps().maxEager();
            if (r.rank == 1) {
                r.awaitSignalWithoutProgress("refused");
                int sent = r.<int[]>shared("sent", () -> new int[1])[0];
                checkArrivals(r, sent, maxEager);
            } else {
                EagerClaim claim = new EagerClaim();
                Endpoint endpoint = r.transport.endpoint(1);
                long bytes = 0;
                int seq = 0;
                boolean refused = false;
                while (!refused) {
                    assertTrue(bytes < limitBytes, "no RETRY after " + seq + " messages nobody received");
                    // claims only (a send's message is claimed and committed): the receiver
                    // does not progress, so a refused send could not be retried here
                    int status = endpoint.claim(lengthOf(seq, maxEager), claim);
                    if (status == PostStatus.RETRY) {
                        assertFalse(claim.active(), "a refused claim left a claim active");
                        refused = true;
                    } else {
                        assertEquals(PostStatus.OK, status, "claim status");
                        fillAndFinish(claim, seq, maxEager);
                        bytes += lengthOf(seq, maxEager);
                        seq++;
                    }
                }
                int last = seq + 40;
                while (kindOf(last) != SENT) {
                    last++; // ends with a send, behind which an aborted claim would show
                }
                r.<int[]>shared("sent", () -> new int[1])[0] = last;
                r.signal("refused").countDown();
                for (; seq <= last; seq++) {
                    offer(r, claim, seq, maxEager);
                }
            }
        });
    }

    /** Sends, or claims and commits or aborts, message {@code seq} (retrying with progress). */
    private static void offer(Rank r, EagerClaim claim, int seq, int maxEager) {
        Endpoint endpoint = r.transport.endpoint(1);
        int length = lengthOf(seq, maxEager);
        if (kindOf(seq) == SENT) {
            byte[] message = message(seq, SENT, length);
            r.post(() -> endpoint.send(MemorySegment.ofArray(Arrays.copyOf(message, 8)),
                    MemorySegment.ofArray(Arrays.copyOfRange(message, 8, length))));
            return;
        }
        r.post(() -> {
            int status = endpoint.claim(length, claim);
            if (status != PostStatus.OK) {
                assertFalse(claim.active(), "a refused claim left a claim active");
            }
            return status;
        });
        fillAndFinish(claim, seq, maxEager);
    }

    /** Writes message {@code seq} into the granted claim, then commits or aborts it. */
    private static void fillAndFinish(EagerClaim claim, int seq, int maxEager) {
        int length = lengthOf(seq, maxEager);
        assertTrue(claim.active(), "claim granted but not active");
        assertEquals(length, claim.length(), "claimed length");
        assertTrue(claim.buffer().byteSize() - claim.offset() >= length, "claimed room smaller than asked");
        int kind = kindOf(seq);
        MemorySegment.copy(MemorySegment.ofArray(message(seq, kind, length)), 0, claim.buffer(), claim.offset(),
                length);
        if (kind == ABORTED) {
            claim.abort();
        } else {
            claim.commit();
        }
        assertFalse(claim.active(), "claim still active after commit or abort");
    }

    private static byte[] message(int seq, int kind, int length) {
        byte[] message = pattern(length, seq);
        System.arraycopy(ints(seq, kind), 0, message, 0, 8);
        return message;
    }

    /** Receives messages 0..last minus the aborted ones, in order and intact. */
    private static void checkArrivals(Rank r, int last, int maxEager) {
        int expected = 0;
        for (int seq = 0; seq <= last; seq++) {
            expected += kindOf(seq) == ABORTED ? 0 : 1;
        }
        r.awaitReceived(expected);
        int i = 0;
        for (int seq = 0; seq <= last; seq++) {
            int kind = kindOf(seq);
            if (kind == ABORTED) {
                continue;
            }
            Received m = r.recorder.received.get(i++);
            assertEquals(0, m.source());
            assertEquals(seq, m.intAt(0), "message in position " + (i - 1) + " (kind " + m.intAt(4) + ")");
            assertArrayEquals(message(seq, kind, lengthOf(seq, maxEager)), m.bytes(), "message " + seq);
        }
        r.progressFor(20);
        assertEquals(expected, r.recorder.received.size(), "messages beyond the last (an aborted claim?)");
    }
}
