package org.verbatim.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.runtime.InJvmJob;
import org.verbatim.runtime.LoopbackFabric;
import org.verbatim.runtime.base.Mode;

/** The blocking send's fast path ({@link PointToPoint#sendNow}) and the protocol each send
 *  takes ({@link SendPath}). */
class SendPathTest {
    private static final int CTX = 0;
    private static final Map<String, String> CONFIG = Map.of("verbatim.core.eager-limit", "1k",
            "verbatim.core.idle", "backoff");

    private static MemorySegment bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 13 + seed);
        }
        return MemorySegment.ofArray(b);
    }

    @Test
    void theFastPathTakesEagerMessagesOnlyAndTheGeneralPathTheRest() throws Exception {
        InJvmJob.run(2, CONFIG, 0, new LoopbackFabric(2, 16, 2048), p -> {
            PointToPoint p2p = p.engine().p2p();
            MemorySegment small = bytes(1024, 1);
            MemorySegment large = bytes(1025, 2);
            if (p.rank() == 0) {
                assertTrue(p2p.sendNow(CTX, 0, 1, 1, small), "1 KiB is eager: taken at once");
                assertFalse(p2p.sendNow(CTX, 0, 1, 2, large), "above the eager limit");
                SendOp s = p2p.send(CTX, 0, 1, 2, large, null, Mode.STANDARD);
                assertTrue(s.protocol().rendezvous(), s.protocol().toString());
                p.engine().await(s);
                SendOp e = p2p.send(CTX, 0, 1, 3, small, null, Mode.STANDARD);
                assertEquals(SelectionTable.Protocol.EAGER_COPY, e.protocol());
                assertTrue(e.isComplete(), "an eager send the transport took is complete at once");
            } else {
                MemorySegment in1 = MemorySegment.ofArray(new byte[1024]);
                MemorySegment in2 = MemorySegment.ofArray(new byte[1025]);
                MemorySegment in3 = MemorySegment.ofArray(new byte[1024]);
                RecvOp r1 = p2p.receive(CTX, 0, 1, in1, null, null);
                RecvOp r2 = p2p.receive(CTX, 0, 2, in2, null, null);
                RecvOp r3 = p2p.receive(CTX, 0, 3, in3, null, null);
                p.engine().await(r1);
                p.engine().await(r2);
                p.engine().await(r3);
                assertEquals(-1, in1.mismatch(small));
                assertEquals(-1, in2.mismatch(large), "the refused fast path sent nothing");
                assertEquals(-1, in3.mismatch(small));
                assertEquals(0, p2p.unexpectedTotal(), "one message per send");
            }
        });
    }

    @Test
    void aRendezvousSendGivesBackItsStagingAndRegistration() throws Exception {
        InJvmJob.run(2, CONFIG, 0, new LoopbackFabric(2, 16, 2048), p -> {
            PointToPoint p2p = p.engine().p2p();
            int n = 100_000;
            if (p.rank() == 0) {
                MemorySegment heap = bytes(n, 3); // heap: staged into native memory
                MemorySegment direct = Arena.ofAuto().allocate(n).copyFrom(bytes(n, 4));
                SendOp a = p2p.send(CTX, 0, 1, 1, heap, null, Mode.STANDARD);
                SendOp b = p2p.send(CTX, 0, 1, 2, direct, null, Mode.STANDARD);
                p.engine().await(a);
                p.engine().await(b);
                assertTrue(a.protocol().rendezvous() && b.protocol().rendezvous());
                assertEquals(null, a.staging, "staging released at the end");
                assertEquals(null, a.registration, "registration closed at the end");
                assertEquals(null, b.registration, "registration closed at the end");
                assertEquals(0, p2p.inFlight(), "nothing left in the request table");
            } else {
                MemorySegment in1 = MemorySegment.ofArray(new byte[n]);
                MemorySegment in2 = MemorySegment.ofArray(new byte[n]);
                p.engine().await(p2p.receive(CTX, 0, 1, in1, null, null));
                p.engine().await(p2p.receive(CTX, 0, 2, in2, null, null));
                assertEquals(-1, in1.mismatch(bytes(n, 3)));
                assertEquals(-1, in2.mismatch(bytes(n, 4)));
            }
        });
    }
}
