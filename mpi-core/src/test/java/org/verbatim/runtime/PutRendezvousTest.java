package org.verbatim.runtime;

import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.p2p.Unexpected;
import org.verbatim.runtime.p2p.RecvOp;
import org.verbatim.runtime.p2p.SendOp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The RPUT rendezvous in the engine, several ranks in one JVM over the loopback fabric. */
class PutRendezvousTest {
    private static final int CTX = 0;
    private static final Map<String, String> RPUT = Map.of("verbatim.core.eager-limit", "1k",
            "verbatim.core.idle", "backoff", "verbatim.core.rendezvous", "rput");

    private static MemorySegment pattern(long n, int seed) {
        byte[] b = new byte[(int) n];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return MemorySegment.ofArray(b);
    }

    private static MemorySegment nativeCopy(MemorySegment m) {
        return Arena.ofAuto().allocate(Math.max(1, m.byteSize())).asSlice(0, m.byteSize()).copyFrom(m);
    }

    private static RecvOp recv(MpiProcess p, int src, int tag, MemorySegment into) {
        RecvOp r = p.engine().p2p().receive(CTX, src, tag, into, null, null);
        p.engine().await(r);
        return r;
    }

    private static void send(MpiProcess p, int dest, int tag, MemorySegment data) {
        p.engine().await(p.engine().p2p().send(CTX, p.rank(), dest, tag, data, null, Mode.STANDARD));
    }

    /**
     * Both directions, heap and native memory on each side, one chunk and many (the fabric's
     * maxRdma is 64 KiB, four writes in flight), closed by immediate or by PUT_FIN.
     */
    @ParameterizedTest
    @CsvSource({"2000,true", "2000,false", "100000,true", "1048576,true", "1048576,false"})
    void dataArrivesIntactBothWaysByWrites(int size, boolean immediates) throws Exception {
        LoopbackFabric fabric = new LoopbackFabric(2, 4, 2048, immediates);
        InJvmJob.run(2, RPUT, 0, fabric, p -> {
            int peer = 1 - p.rank();
            for (int round = 0; round < 4; round++) {
                boolean nativeSend = (round & 1) != 0;
                boolean nativeReceive = (round & 2) != 0;
                int seed = round * 2 + p.rank();
                MemorySegment out = pattern(size, seed);
                SendOp s = p.engine().p2p().send(CTX, p.rank(), peer, round,
                        nativeSend ? nativeCopy(out) : out, null, Mode.STANDARD);
                MemorySegment in = nativeReceive
                        ? Arena.ofAuto().allocate(size) : MemorySegment.ofArray(new byte[size]);
                RecvOp r = recv(p, peer, round, in);
                p.engine().await(s);
                assertEquals(size, r.bytes());
                assertEquals(ErrorClass.SUCCESS, r.error());
                assertEquals(-1, in.mismatch(pattern(size, round * 2 + peer)),
                        "round " + round + " (native send " + nativeSend + ", native receive "
                                + nativeReceive + ")");
            }
        });
        assertEquals(0, fabric.reads.get(), "RPUT must not read");
        assertTrue(fabric.writes.get() + fabric.writesWithImmediate.get() >= 8);
        assertEquals(immediates ? 8 : 0, fabric.writesWithImmediate.get(),
                "one closing write-with-immediate per message exactly when the fabric has them");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void truncationWritesOnlyWhatTheReceiveHolds(boolean immediates) throws Exception {
        int size = 300_000;
        InJvmJob.run(2, RPUT, 0, new LoopbackFabric(2, 4, 2048, immediates), p -> {
            if (p.rank() == 0) {
                send(p, 1, 3, pattern(size, 7));
                send(p, 1, 4, pattern(size, 8));
            } else {
                byte[] whole = new byte[size];
                RecvOp r = recv(p, 0, 3, MemorySegment.ofArray(whole).asSlice(0, size / 3));
                assertEquals(ErrorClass.ERR_TRUNCATE, r.error());
                assertEquals(size / 3, r.bytes());
                assertEquals(-1, MemorySegment.ofArray(whole).asSlice(0, size / 3)
                        .mismatch(pattern(size, 7).asSlice(0, size / 3)));
                for (int i = size / 3; i < size; i++) {
                    assertEquals(0, whole[i], "byte written past the receive buffer");
                }
                MemorySegment none = Arena.ofAuto().allocate(1).asSlice(0, 0);
                RecvOp zero = recv(p, 0, 4, none);
                assertEquals(ErrorClass.ERR_TRUNCATE, zero.error());
                assertEquals(0, zero.bytes());
            }
        });
    }

    @Test
    void unexpectedRtsIsAnsweredWhenTheReceiveIsPosted() throws Exception {
        int size = 70_000;
        LoopbackFabric fabric = new LoopbackFabric(2, 16, 2048, true);
        InJvmJob.run(2, RPUT, 0, fabric, p -> {
            if (p.rank() == 0) {
                SendOp s = p.engine().p2p().send(CTX, 0, 1, 5, pattern(size, 1), null, Mode.STANDARD);
                for (int i = 0; i < 100; i++) {
                    p.engine().progress();
                }
                assertFalse(s.isComplete(), "an RPUT send completed before the receiver matched");
                Agreement.barrier(p.engine(), 1, InJvmJob.identity(2), 0);
                p.engine().await(s);
            } else {
                Unexpected[] u = new Unexpected[1];
                p.engine().awaitCondition(() -> (u[0] = p.engine().p2p().probe(CTX, 0, 5, false)) != null);
                assertEquals(size, u[0].length());
                Agreement.barrier(p.engine(), 1, InJvmJob.identity(2), 1);
                MemorySegment in = MemorySegment.ofArray(new byte[size]);
                RecvOp r = recv(p, 0, 5, in);
                assertEquals(size, r.bytes());
                assertEquals(-1, in.mismatch(pattern(size, 1)));
            }
        });
        assertEquals(0, fabric.reads.get());
    }

    @Test
    void cancelledReceiveNeverGetsTheDataAndAMatchedOneCannotBeCancelled() throws Exception {
        int size = 50_000;
        InJvmJob.run(2, RPUT, 0, new LoopbackFabric(2, 16, 2048, true), p -> {
            if (p.rank() == 1) {
                byte[] cancelledBuffer = new byte[size];
                RecvOp c = p.engine().p2p().receive(CTX, 0, 1, MemorySegment.ofArray(cancelledBuffer),
                        null, null);
                assertTrue(c.cancel());
                assertTrue(c.cancelled());
                Agreement.barrier(p.engine(), 1, InJvmJob.identity(2), 1);
                MemorySegment in = MemorySegment.ofArray(new byte[size]);
                RecvOp r = p.engine().p2p().receive(CTX, 0, 1, in, null, null);
                p.engine().awaitCondition(() -> !r.isPosted());
                assertFalse(r.cancel(), "a matched RPUT receive was cancelled");
                p.engine().await(r);
                assertEquals(-1, in.mismatch(pattern(size, 2)));
                for (byte b : cancelledBuffer) {
                    assertEquals(0, b, "data landed in a cancelled receive");
                }
            } else {
                Agreement.barrier(p.engine(), 1, InJvmJob.identity(2), 0);
                send(p, 1, 1, pattern(size, 2));
            }
        });
    }

    @Test
    void orderHoldsForEagerAndRputMixedUnderBackPressure() throws Exception {
        int n = 60;
        InJvmJob.run(2, RPUT, 0, new LoopbackFabric(2, 2, 2048, true), p -> {
            if (p.rank() == 0) {
                List<RequestState> sends = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    long size = (i % 3 == 0) ? 9000 : 8;
                    MemorySegment m = MemorySegment.ofArray(new long[(int) size / 8]);
                    m.set(ValueLayout.JAVA_LONG, 0, i);
                    if (size > 8) {
                        m.set(ValueLayout.JAVA_LONG, size - 8, -i);
                    }
                    sends.add(p.engine().p2p().send(CTX, 0, 1, 9, m, null, Mode.STANDARD));
                }
                sends.forEach(p.engine()::await);
            } else {
                for (int i = 0; i < n; i++) {
                    MemorySegment in = MemorySegment.ofArray(new long[9000 / 8]);
                    RecvOp r = recv(p, Engine.ANY_SOURCE, 9, in);
                    long size = (i % 3 == 0) ? 9000 : 8;
                    assertEquals(size, r.bytes());
                    assertEquals(i, in.get(ValueLayout.JAVA_LONG, 0), "message " + i + " out of order");
                    if (size > 8) {
                        assertEquals(-i, in.get(ValueLayout.JAVA_LONG, size - 8));
                    }
                }
            }
        });
    }

    @Test
    void selfSendsUseRputThroughTheSelfTransport() throws Exception {
        InJvmJob.run(1, RPUT, 0, new LoopbackFabric(1, 16, 2048), p -> {
            MemorySegment out = pattern(200_000, 3);
            SendOp s = p.engine().p2p().send(CTX, 0, 0, 1, out, null, Mode.STANDARD);
            assertTrue(s.usesPut());
            MemorySegment in = MemorySegment.ofArray(new byte[200_000]);
            RecvOp r = recv(p, 0, 1, in);
            p.engine().await(s);
            assertNotNull(r);
            assertEquals(-1, in.mismatch(out));
        });
    }
}
