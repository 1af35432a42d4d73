package org.verbatim.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.runtime.InJvmJob;
import org.verbatim.runtime.LoopbackFabric;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Mode;

/**
 * {@link EagerCredit}: eager sends above the eager limit within the receiver's window, the
 * rendezvous beyond it, the credit given back, and MPI's rules (order, unexpected messages,
 * ANY_SOURCE, truncation, probes, synchronous mode) for the credited messages.
 */
class EagerCreditTest {
    private static final int CTX = 0;
    /** Eager limit 1 KiB; records of 8 KiB, so credited messages up to 8160 B. */
    private static final Map<String, String> CONFIG = Map.of("verbatim.core.eager-limit", "1k",
            "verbatim.core.idle", "backoff");
    private static final int WINDOW = 16384;

    private static LoopbackFabric fabric(int size) {
        LoopbackFabric f = new LoopbackFabric(size, 64, 8192);
        f.eagerWindow = WINDOW;
        return f;
    }

    private static MemorySegment bytes(int n, int seed) {
        MemorySegment m = Arena.ofAuto().allocate(n);
        for (int i = 0; i < n; i++) {
            m.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + seed));
        }
        return m;
    }

    private static void arrived(org.verbatim.runtime.MpiProcess p, int source, int tag) {
        p.engine().awaitCondition(() -> p.engine().p2p().probe(CTX, source, tag, false) != null);
    }

    @Test
    void messagesWithinTheWindowGoEagerlyTheRestByRendezvousInOrderAndTheCreditComesBack()
            throws Exception {
        InJvmJob.run(2, CONFIG, 0, fabric(2), p -> {
            PointToPoint p2p = p.engine().p2p();
            int n = 4000; // four fit the 16 KiB window, the fifth does not
            if (p.rank() == 0) {
                SendOp[] s = new SendOp[6];
                for (int i = 0; i < 5; i++) {
                    s[i] = p2p.send(CTX, 0, 1, 7, bytes(n, i), null, Mode.STANDARD);
                }
                s[5] = p2p.send(CTX, 0, 1, 8, bytes(9000, 5), null, Mode.STANDARD);
                for (int i = 0; i < 4; i++) {
                    assertEquals(SelectionTable.Protocol.EAGER_COPY, s[i].protocol(), "send " + i);
                    assertTrue(s[i].isComplete(), "a credited eager send is complete at once");
                }
                assertTrue(s[4].protocol().rendezvous(), "out of credit: " + s[4].protocol());
                assertTrue(s[5].protocol().rendezvous(), "above the records: " + s[5].protocol());
                assertEquals(WINDOW - 4 * n, p2p.peer(1).credit);
                for (SendOp op : s) {
                    p.engine().await(op);
                }
                // the receiver took all four: two CREDITs of 8000 came before the FINs
                assertEquals(WINDOW, p2p.peer(1).credit, "the credit came back");
                SendOp again = p2p.send(CTX, 0, 1, 9, bytes(n, 9), null, Mode.STANDARD);
                assertEquals(SelectionTable.Protocol.EAGER_COPY, again.protocol());
            } else {
                arrived(p, 0, 8); // everything unexpected: the window bounds what is held
                assertEquals(6, p2p.unexpectedTotal(), "six arrived unexpected");
                for (int i = 0; i < 5; i++) {
                    MemorySegment in = Arena.ofAuto().allocate(n);
                    RecvOp r = p2p.receive(CTX, 0, 7, in, null, null);
                    p.engine().await(r);
                    assertEquals(ErrorClass.SUCCESS, r.error());
                    assertEquals(-1, in.mismatch(bytes(n, i)), "message " + i + " in order");
                }
                MemorySegment big = Arena.ofAuto().allocate(9000);
                p.engine().await(p2p.receive(CTX, 0, 8, big, null, null));
                assertEquals(-1, big.mismatch(bytes(9000, 5)));
                MemorySegment in = Arena.ofAuto().allocate(n);
                p.engine().await(p2p.receive(CTX, 0, 9, in, null, null));
                assertEquals(-1, in.mismatch(bytes(n, 9)));
                assertEquals(n, p2p.peer(0).owed, "4000 B below a quarter window: not sent yet");
            }
        });
    }

    @Test
    void aCreditedMessageLargerThanTheReceiveIsTruncatedPostedOrUnexpected() throws Exception {
        InJvmJob.run(2, CONFIG, 0, fabric(2), p -> {
            PointToPoint p2p = p.engine().p2p();
            if (p.rank() == 0) {
                SendOp a = p2p.send(CTX, 0, 1, 1, bytes(5000, 1), null, Mode.STANDARD);
                SendOp b = p2p.send(CTX, 0, 1, 2, bytes(5000, 2), null, Mode.STANDARD);
                assertFalse(a.protocol().rendezvous());
                assertFalse(b.protocol().rendezvous());
                p.engine().await(a);
                p.engine().await(b);
            } else {
                MemorySegment inA = Arena.ofAuto().allocate(3000);
                RecvOp posted = p2p.receive(CTX, 0, 1, inA, null, null);
                arrived(p, 0, 2);
                p.engine().await(posted);
                assertEquals(ErrorClass.ERR_TRUNCATE, posted.error());
                assertEquals(-1, inA.mismatch(bytes(5000, 1).asSlice(0, 3000)));
                MemorySegment inB = Arena.ofAuto().allocate(2000);
                RecvOp late = p2p.receive(CTX, 0, 2, inB, null, null);
                p.engine().await(late);
                assertEquals(ErrorClass.ERR_TRUNCATE, late.error());
                assertEquals(-1, inB.mismatch(bytes(5000, 2).asSlice(0, 2000)));
                assertEquals(0, p2p.peer(0).owed, "5000 B each, above a quarter window: given back"
                        + " at once, truncated or not");
            }
        });
    }

    @Test
    void anySourceProbesAndSynchronousSendsWorkOnCreditedMessages() throws Exception {
        InJvmJob.run(3, CONFIG, 0, fabric(3), p -> {
            PointToPoint p2p = p.engine().p2p();
            int n = 6000;
            if (p.rank() < 2) {
                SendOp s = p2p.send(CTX, p.rank(), 2, 5, bytes(n, p.rank()), null,
                        Mode.SYNCHRONOUS);
                assertFalse(s.protocol().rendezvous());
                p.engine().await(s); // completes only once rank 2 has matched it
                assertEquals(ErrorClass.SUCCESS, s.error());
            } else {
                arrived(p, 0, 5);
                arrived(p, 1, 5);
                Unexpected u = p2p.probe(CTX, PointToPoint.ANY_SOURCE, 5, true);
                assertNotNull(u);
                MemorySegment first = Arena.ofAuto().allocate(n);
                p.engine().await(p2p.receiveMatched(u, first, null, null));
                assertEquals(-1, first.mismatch(bytes(n, u.source())));
                MemorySegment second = Arena.ofAuto().allocate(n);
                RecvOp r = p2p.receive(CTX, PointToPoint.ANY_SOURCE, 5, second, null, null);
                p.engine().await(r);
                assertEquals(1 - u.source(), r.source());
                assertEquals(-1, second.mismatch(bytes(n, r.source())));
                assertEquals(null, p2p.probe(CTX, PointToPoint.ANY_SOURCE, 5, false));
                assertEquals(0, p2p.peer(0).owed + p2p.peer(1).owed, "6000 B each: given back");
            }
        });
    }
}
