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

    /** A fabric that delivers messages from 2 KiB on as a stream transport that places them. */
    private static LoopbackFabric placingFabric(int size) {
        LoopbackFabric f = fabric(size);
        f.placeFrom = 2048;
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
        truncation(fabric(2));
    }

    @Test
    void truncationPostedOrUnexpectedWhenTheTransportPlacesTheData() throws Exception {
        LoopbackFabric f = placingFabric(2);
        truncation(f);
        assertEquals(2, f.placementsStarted.get(), "both messages placed");
    }

    private static void truncation(LoopbackFabric fabric) throws Exception {
        InJvmJob.run(2, CONFIG, 0, fabric, p -> {
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
        anySourceProbesAndSynchronous(fabric(3));
    }

    @Test
    void anySourceProbesAndSynchronousSendsWhenTheTransportPlacesTheData() throws Exception {
        LoopbackFabric f = placingFabric(3);
        anySourceProbesAndSynchronous(f);
        assertEquals(2, f.placementsStarted.get(), "both messages placed");
    }

    private static void anySourceProbesAndSynchronous(LoopbackFabric fabric) throws Exception {
        InJvmJob.run(3, CONFIG, 0, fabric, p -> {
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

    /** Rank 1 tells rank 0 (tag 99) that its receives are posted. */
    private static void go(org.verbatim.runtime.MpiProcess p) {
        PointToPoint p2p = p.engine().p2p();
        if (p.rank() == 0) {
            p.engine().await(p2p.receive(CTX, 1, 99, Arena.ofAuto().allocate(8), null, null));
        } else {
            p.engine().await(p2p.send(CTX, 1, 0, 99, bytes(8, 0), null, Mode.STANDARD));
        }
    }

    @Test
    void aPlacedMessageGoesIntoThePostedReceiveOrIsStagedUntilAReceiveTakesIt() throws Exception {
        LoopbackFabric f = placingFabric(2);
        InJvmJob.run(2, CONFIG, 0, f, p -> {
            PointToPoint p2p = p.engine().p2p();
            int n = 4000; // four fit the window
            if (p.rank() == 0) {
                go(p);
                for (int tag : new int[] {1, 2, 3, 5}) {
                    SendOp s = p2p.send(CTX, 0, 1, tag, bytes(n, tag), null, Mode.STANDARD);
                    assertEquals(SelectionTable.Protocol.EAGER_COPY, s.protocol());
                    p.engine().await(s);
                }
                p.engine().await(p2p.send(CTX, 0, 1, 4, bytes(100, 4), null, Mode.STANDARD));
            } else {
                MemorySegment direct = Arena.ofAuto().allocate(n);
                MemorySegment heap = MemorySegment.ofArray(new byte[n]);
                RecvOp r1 = p2p.receive(CTX, 0, 1, direct, null, null);
                RecvOp r3 = p2p.receive(CTX, 0, 3, heap, null, null);
                MemorySegment ints = MemorySegment.ofArray(new int[n / 4]);
                RecvOp r5 = p2p.receive(CTX, 0, 5, ints, null, null);
                go(p);
                p.engine().await(r1);
                assertEquals(-1, direct.mismatch(bytes(n, 1)), "read into the receive's buffer");
                arrived(p, 0, 4); // tag 2 arrived unexpected before tag 4
                assertTrue(r3.isComplete());
                assertEquals(-1, heap.mismatch(bytes(n, 3)), "read into the byte[]");
                assertTrue(r5.isComplete());
                assertEquals(-1, ints.mismatch(bytes(n, 5)), "an int[]: staged, then copied");
                assertEquals(2, p2p.unexpectedTotal());
                MemorySegment in = Arena.ofAuto().allocate(n);
                RecvOp r2 = p2p.receive(CTX, 0, 2, in, null, null);
                p.engine().await(r2);
                assertEquals(n, r2.bytes());
                assertEquals(-1, in.mismatch(bytes(n, 2)), "unexpected: staged whole");
                assertEquals(2, p2p.placement().placedDirect(), "into the posted receives");
                assertEquals(2, p2p.placement().placedStaged(), "staged: the int[] and the unexpected one");
                MemorySegment small = Arena.ofAuto().allocate(100);
                p.engine().await(p2p.receive(CTX, 0, 4, small, null, null));
                assertEquals(-1, small.mismatch(bytes(100, 4)));
                assertEquals(0, p2p.peer(0).owed, "16000 B taken: given back");
            }
        });
        assertEquals(4, f.placementsStarted.get());
    }

    @Test
    void aReceivePostedWhileTheDataArrivesTakesItAndAMatchedOneIsNotCancelled() throws Exception {
        LoopbackFabric f = placingFabric(2);
        InJvmJob.run(2, CONFIG, 0, f, p -> {
            PointToPoint p2p = p.engine().p2p();
            int n = 6000;
            if (p.rank() == 0) {
                SendOp a = p2p.send(CTX, 0, 1, 1, bytes(n, 1), null, Mode.STANDARD);
                p.engine().await(a);
                go(p);
                SendOp b = p2p.send(CTX, 0, 1, 2, bytes(n, 2), null, Mode.SYNCHRONOUS);
                p.engine().await(b);
                assertEquals(ErrorClass.SUCCESS, b.error());
            } else {
                f.holdPlacement = true;
                p.engine().awaitCondition(() -> f.placementsStarted.get() == 1);
                assertEquals(0, p2p.unexpectedTotal(), "half arrived: not a message yet");
                MemorySegment in = Arena.ofAuto().allocate(n);
                RecvOp r = p2p.receive(CTX, 0, 1, in, null, null);
                assertFalse(r.isComplete());
                f.holdPlacement = false;
                p.engine().await(r);
                assertEquals(-1, in.mismatch(bytes(n, 1)), "posted meanwhile: it takes the message");
                assertEquals(0, p2p.unexpectedTotal());

                MemorySegment in2 = Arena.ofAuto().allocate(n);
                RecvOp r2 = p2p.receive(CTX, 0, 2, in2, null, null);
                f.holdPlacement = true;
                go(p);
                p.engine().awaitCondition(() -> f.placementsStarted.get() == 2);
                assertFalse(r2.cancel(), "matched: its data is arriving");
                assertFalse(r2.isComplete());
                f.holdPlacement = false;
                p.engine().await(r2);
                assertEquals(ErrorClass.SUCCESS, r2.error());
                assertEquals(-1, in2.mismatch(bytes(n, 2)));
            }
        });
    }

    @Test
    void aTruncatedPlacedMessageLeavesTheNextOnesIntact() throws Exception {
        LoopbackFabric f = placingFabric(2);
        InJvmJob.run(2, CONFIG, 0, f, p -> {
            PointToPoint p2p = p.engine().p2p();
            if (p.rank() == 0) {
                go(p);
                p.engine().await(p2p.send(CTX, 0, 1, 1, bytes(7000, 1), null, Mode.STANDARD));
                p.engine().await(p2p.send(CTX, 0, 1, 1, bytes(7000, 2), null, Mode.STANDARD));
                p.engine().await(p2p.send(CTX, 0, 1, 1, bytes(50, 3), null, Mode.STANDARD));
            } else {
                MemorySegment cut = Arena.ofAuto().allocate(3000);
                RecvOp r = p2p.receive(CTX, 0, 1, cut, null, null);
                go(p);
                p.engine().await(r);
                assertEquals(ErrorClass.ERR_TRUNCATE, r.error());
                assertEquals(-1, cut.mismatch(bytes(7000, 1).asSlice(0, 3000)));
                MemorySegment whole = Arena.ofAuto().allocate(7000);
                p.engine().await(p2p.receive(CTX, 0, 1, whole, null, null));
                assertEquals(-1, whole.mismatch(bytes(7000, 2)), "the next message is whole");
                MemorySegment small = Arena.ofAuto().allocate(50);
                p.engine().await(p2p.receive(CTX, 0, 1, small, null, null));
                assertEquals(-1, small.mismatch(bytes(50, 3)), "and so is the one after");
            }
        });
        assertEquals(2, f.placementsStarted.get());
    }
}
