package org.verbatim.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.runtime.InJvmJob;
import org.verbatim.runtime.LoopbackFabric;
import org.verbatim.runtime.MpiProcess;
import org.verbatim.runtime.base.Mode;

/** {@link ReceivePath}: matching at posting, the reuse of receives, probes, cancel; and the
 *  blocking receive of {@link PointToPoint#receiveBlocking} (one reused object). */
class ReceivePathTest {
    private static final int CTX = 0;
    private static final Map<String, String> CONFIG = Map.of("verbatim.core.eager-limit", "1k",
            "verbatim.core.idle", "backoff");

    private static MemorySegment bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + seed);
        }
        return MemorySegment.ofArray(b);
    }

    /** Sends {@code n} bytes to itself (self transport) and waits for the send. */
    private static void sendToSelf(MpiProcess p, int tag, MemorySegment data) {
        p.engine().await(p.engine().p2p().send(CTX, 0, 0, tag, data, null, Mode.STANDARD));
    }

    /** Makes progress until a message with {@code tag} waits in the unexpected queue. */
    private static void arrived(MpiProcess p, int tag) {
        p.engine().awaitCondition(() -> p.engine().p2p().probe(CTX, 0, tag, false) != null);
    }

    @Test
    void aReceiveFindsTheMessageThatArrivedBeforeIt() throws Exception {
        InJvmJob.run(1, CONFIG, 0, new LoopbackFabric(1, 16, 2048), p -> {
            PointToPoint p2p = p.engine().p2p();
            MemorySegment out = bytes(100, 1);
            sendToSelf(p, 3, out);
            arrived(p, 3);
            assertEquals(1, p2p.unexpectedTotal());
            MemorySegment in = MemorySegment.ofArray(new byte[100]);
            RecvOp r = p2p.receive(CTX, 0, 3, in, null, null);
            assertTrue(r.isComplete(), "matched at posting");
            assertFalse(r.isPosted());
            assertEquals(-1, in.mismatch(out));
            assertEquals(100, r.bytes());
        });
    }

    @Test
    void aCompletedEagerReceiveIsReusedAndAPendingOneIsNot() throws Exception {
        InJvmJob.run(1, CONFIG, 0, new LoopbackFabric(1, 16, 2048), p -> {
            PointToPoint p2p = p.engine().p2p();
            RecvOp first = p2p.receive(CTX, 0, 1, MemorySegment.ofArray(new byte[8]), null, null);
            p2p.recycle(first); // still posted: not taken back
            sendToSelf(p, 1, bytes(8, 2));
            p.engine().await(first);
            RecvOp second = p2p.receive(CTX, 0, 2, MemorySegment.ofArray(new byte[8]), null, null);
            assertNotSame(first, second, "a posted receive was taken back");
            p2p.recycle(first);
            MemorySegment in = MemorySegment.ofArray(new byte[8]);
            RecvOp third = p2p.receive(CTX, 0, 3, in, null, null);
            assertSame(first, third, "a completed eager receive is reused");
            assertTrue(third.isPosted());
            assertFalse(third.isComplete());
            MemorySegment out = bytes(8, 3);
            sendToSelf(p, 3, out);
            p.engine().await(third);
            assertEquals(-1, in.mismatch(out));
            assertEquals(3, third.tag());
            sendToSelf(p, 2, bytes(8, 4));
            p.engine().await(second);
        });
    }

    @Test
    void blockingReceivesShareOneObjectBelowThreadMultipleOnly() throws Exception {
        for (int level : new int[] {0, 3}) {
            InJvmJob.run(1, CONFIG, level, new LoopbackFabric(1, 16, 2048), p -> {
                PointToPoint p2p = p.engine().p2p();
                MemorySegment a = bytes(16, 5);
                sendToSelf(p, 1, a);
                MemorySegment inA = MemorySegment.ofArray(new byte[16]);
                RecvOp r1 = p2p.receiveBlocking(CTX, 0, 1, inA, null, null);
                p.engine().await(r1);
                assertEquals(-1, inA.mismatch(a));
                MemorySegment b = bytes(16, 6);
                sendToSelf(p, 2, b);
                MemorySegment inB = MemorySegment.ofArray(new byte[16]);
                RecvOp r2 = p2p.receiveBlocking(CTX, 0, 2, inB, null, null);
                p.engine().await(r2);
                assertEquals(-1, inB.mismatch(b));
                if (level < 3) {
                    assertSame(r1, r2);
                } else {
                    assertNotSame(r1, r2);
                }
            });
        }
    }

    @Test
    void aMatchedProbeTakesTheMessageForItsOwnReceive() throws Exception {
        InJvmJob.run(1, CONFIG, 0, new LoopbackFabric(1, 16, 2048), p -> {
            PointToPoint p2p = p.engine().p2p();
            assertNull(p2p.probe(CTX, 0, 9, false));
            MemorySegment out = bytes(32, 7);
            sendToSelf(p, 9, out);
            arrived(p, 9);
            Unexpected u = p2p.probe(CTX, PointToPoint.ANY_SOURCE, PointToPoint.ANY_TAG, true);
            assertEquals(9, u.tag);
            assertNull(p2p.probe(CTX, 0, 9, false), "the matched probe removed it");
            MemorySegment in = MemorySegment.ofArray(new byte[32]);
            RecvOp r = p2p.receiveMatched(u, in, null, null);
            p.engine().await(r);
            assertEquals(-1, in.mismatch(out));
        });
    }

    @Test
    void aCancelledReceiveLeavesThePostedQueue() throws Exception {
        InJvmJob.run(1, CONFIG, 0, new LoopbackFabric(1, 16, 2048), p -> {
            PointToPoint p2p = p.engine().p2p();
            RecvOp r = p2p.receive(CTX, 0, 4, MemorySegment.ofArray(new byte[4]), null, null);
            assertEquals(1, p2p.openOn(CTX, true).size());
            assertTrue(r.cancel());
            assertFalse(r.cancel(), "cancelled twice");
            assertTrue(p2p.openOn(CTX, true).isEmpty());
            MemorySegment out = bytes(4, 8);
            sendToSelf(p, 4, out);
            arrived(p, 4);
            assertEquals(1, p2p.unexpectedTotal(), "the message did not match the cancelled receive");
            MemorySegment in = MemorySegment.ofArray(new byte[4]);
            p.engine().await(p2p.receive(CTX, 0, 4, in, null, null));
            assertEquals(-1, in.mismatch(out));
        });
    }
}
