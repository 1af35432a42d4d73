package org.verbatim.runtime;

import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.p2p.Unexpected;
import org.verbatim.runtime.p2p.RecvOp;
import org.verbatim.runtime.p2p.SendOp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Matching and protocols of the engine, with several ranks in one JVM. */
class EngineTest {
    private static final int CTX = 0;
    private static final Map<String, String> CONFIG = Map.of("verbatim.core.eager-limit", "1k",
            "verbatim.core.idle", "backoff");

    private static MemorySegment pattern(long n, int seed) {
        byte[] b = new byte[(int) n];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return MemorySegment.ofArray(b);
    }

    private static void send(MpiProcess p, int dest, int tag, MemorySegment data) {
        p.engine().await(p.engine().p2p().send(CTX, p.rank(), dest, tag, data, null, Mode.STANDARD));
    }

    private static RecvOp recv(MpiProcess p, int src, int tag, MemorySegment into) {
        RecvOp r = p.engine().p2p().receive(CTX, src, tag, into, null, null);
        p.engine().await(r);
        return r;
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 1023, 1024, 1025, 100_000, 1 << 20})
    void messagesOfEverySizeClassArriveIntact(long size) throws Exception {
        InJvmJob.run(2, CONFIG, 0, new LoopbackFabric(2, 4, 2048), p -> {
            if (p.rank() == 0) {
                send(p, 1, 5, pattern(size, 1));
                MemorySegment back = Arena.ofAuto().allocate(Math.max(1, size)).asSlice(0, size);
                RecvOp r = recv(p, 1, 6, back);
                assertEquals(size, r.bytes());
                assertEquals(-1, back.mismatch(pattern(size, 2)));
            } else {
                MemorySegment in = MemorySegment.ofArray(new byte[(int) size]);
                RecvOp r = recv(p, 0, 5, in);
                assertEquals(0, r.source());
                assertEquals(5, r.tag());
                assertEquals(-1, in.mismatch(pattern(size, 1)));
                send(p, 0, 6, Arena.ofAuto().allocate(Math.max(1, size)).asSlice(0, size)
                        .copyFrom(pattern(size, 2)));
            }
        });
    }

    @Test
    void nonOvertakingOrderHoldsForEagerAndRendezvousMixed() throws Exception {
        int n = 50;
        InJvmJob.run(2, CONFIG, 0, new LoopbackFabric(2, 3, 2048), p -> {
            if (p.rank() == 0) {
                List<RequestState> sends = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    long size = (i % 3 == 0) ? 5000 : 8;
                    MemorySegment m = MemorySegment.ofArray(new long[(int) size / 8]);
                    m.set(ValueLayout.JAVA_LONG, 0, i);
                    sends.add(p.engine().p2p().send(CTX, 0, 1, 9, m, null, Mode.STANDARD));
                }
                sends.forEach(p.engine()::await);
            } else {
                for (int i = 0; i < n; i++) {
                    MemorySegment in = MemorySegment.ofArray(new long[5000 / 8]);
                    RecvOp r = recv(p, Engine.ANY_SOURCE, 9, in);
                    assertEquals(i, in.get(ValueLayout.JAVA_LONG, 0), "message " + i + " out of order");
                    assertEquals((i % 3 == 0) ? 5000 : 8, r.bytes());
                }
            }
        });
    }

    @Test
    void wildcardsAndTagsMatchTheFirstFittingMessage() throws Exception {
        InJvmJob.run(3, CONFIG, 0, new LoopbackFabric(3, 16, 2048), p -> {
            if (p.rank() > 0) {
                send(p, 0, p.rank() * 10, MemorySegment.ofArray(new int[] {p.rank()}));
                send(p, 0, 99, MemorySegment.ofArray(new int[] {p.rank() + 100}));
            } else {
                Set<Integer> seen = new HashSet<>();
                for (int i = 0; i < 2; i++) {
                    MemorySegment in = MemorySegment.ofArray(new int[1]);
                    RecvOp r = recv(p, Engine.ANY_SOURCE, 99, in);
                    assertEquals(r.source() + 100, in.get(ValueLayout.JAVA_INT, 0));
                    seen.add(r.source());
                }
                assertEquals(Set.of(1, 2), seen);
                MemorySegment in = MemorySegment.ofArray(new int[1]);
                RecvOp r = recv(p, 2, Engine.ANY_TAG, in);
                assertEquals(20, r.tag());
                r = recv(p, Engine.ANY_SOURCE, Engine.ANY_TAG, in);
                assertEquals(1, r.source());
                assertEquals(10, r.tag());
            }
        });
    }

    @Test
    void probeSeesTheFirstMatchingMessageAndMatchedProbeTakesIt() throws Exception {
        InJvmJob.run(2, CONFIG, 0, new LoopbackFabric(2, 16, 2048), p -> {
            if (p.rank() == 0) {
                send(p, 1, 1, MemorySegment.ofArray(new byte[3]));
                send(p, 1, 2, MemorySegment.ofArray(new byte[5000]));
            } else {
                Unexpected[] u = new Unexpected[1];
                p.engine().awaitCondition(() -> (u[0] = p.engine().p2p().probe(CTX, 0, 2, false)) != null);
                assertEquals(5000, u[0].length());
                Unexpected first = p.engine().p2p().probe(CTX, Engine.ANY_SOURCE, Engine.ANY_TAG, false);
                assertEquals(1, first.tag());
                Unexpected taken = p.engine().p2p().probe(CTX, 0, 2, true);
                assertNotNull(taken);
                assertNull(p.engine().p2p().probe(CTX, 0, 2, false), "matched probe removed it");
                MemorySegment big = MemorySegment.ofArray(new byte[5000]);
                RecvOp r = p.engine().p2p().receiveMatched(taken, big, null, null);
                p.engine().await(r);
                assertEquals(5000, r.bytes());
                recv(p, 0, 1, MemorySegment.ofArray(new byte[3]));
            }
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 4000})
    void truncationWritesNothingPastTheBufferAndReportsIt(int size) throws Exception {
        InJvmJob.run(2, CONFIG, 0, new LoopbackFabric(2, 16, 2048), p -> {
            if (p.rank() == 0) {
                send(p, 1, 3, pattern(size, 7));
            } else {
                byte[] whole = new byte[size];
                MemorySegment into = MemorySegment.ofArray(whole).asSlice(0, size / 2);
                RecvOp r = recv(p, 0, 3, into);
                assertEquals(ErrorClass.ERR_TRUNCATE, r.error());
                assertEquals(size / 2, r.bytes());
                for (int i = size / 2; i < size; i++) {
                    assertEquals(0, whole[i], "byte written past the receive buffer");
                }
            }
        });
    }

    @Test
    void synchronousSendCompletesOnlyAfterTheMatch() throws Exception {
        InJvmJob.run(2, CONFIG, 0, new LoopbackFabric(2, 16, 2048), p -> {
            if (p.rank() == 0) {
                SendOp s = p.engine().p2p().send(CTX, 0, 1, 4, MemorySegment.ofArray(new byte[8]), null,
                        Mode.SYNCHRONOUS);
                for (int i = 0; i < 200; i++) {
                    p.engine().progress();
                }
                assertFalse(s.isComplete(), "ssend completed before the receive was posted");
                send(p, 1, 5, MemorySegment.ofArray(new byte[1]));
                p.engine().await(s);
            } else {
                recv(p, 0, 5, MemorySegment.ofArray(new byte[1]));
                recv(p, 0, 4, MemorySegment.ofArray(new byte[8]));
            }
        });
    }

    @Test
    void cancelledReceiveNeverMatches() throws Exception {
        InJvmJob.run(2, CONFIG, 0, new LoopbackFabric(2, 16, 2048), p -> {
            if (p.rank() == 1) {
                RecvOp r = p.engine().p2p().receive(CTX, 0, 1, MemorySegment.ofArray(new byte[4]), null, null);
                assertTrue(r.cancel());
                assertTrue(r.cancelled());
                Agreement.barrier(p.engine(), 1, InJvmJob.identity(2), 1);
                RecvOp r2 = recv(p, 0, 1, MemorySegment.ofArray(new byte[4]));
                assertEquals(4, r2.bytes());
            } else {
                Agreement.barrier(p.engine(), 1, InJvmJob.identity(2), 0);
                send(p, 1, 1, MemorySegment.ofArray(new byte[4]));
            }
        });
    }

    @Test
    void manyOutstandingRequestsUnderBackPressure() throws Exception {
        int n = 500;
        InJvmJob.run(2, CONFIG, 0, new LoopbackFabric(2, 2, 2048), p -> {
            List<RequestState> reqs = new ArrayList<>();
            int peer = 1 - p.rank();
            int[][] in = new int[n][1];
            for (int i = 0; i < n; i++) {
                reqs.add(p.engine().p2p().receive(CTX, peer, i, MemorySegment.ofArray(in[i]), null, null));
            }
            for (int i = n - 1; i >= 0; i--) {
                reqs.add(p.engine().p2p().send(CTX, p.rank(), peer, i,
                        MemorySegment.ofArray(new int[] {i * 2 + p.rank()}), null, Mode.STANDARD));
            }
            reqs.forEach(p.engine()::await);
            for (int i = 0; i < n; i++) {
                assertEquals(i * 2 + peer, in[i][0]);
            }
        });
    }

    @Test
    void threadMultipleSeveralThreadsSendAndReceiveAtOnce() throws Exception {
        int threads = 4;
        int perThread = 200;
        Map<String, Integer> got = new ConcurrentHashMap<>();
        InJvmJob.run(2, CONFIG, 3, new LoopbackFabric(2, 8, 2048), p -> {
            List<Thread> ts = new ArrayList<>();
            List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
            int peer = 1 - p.rank();
            for (int t = 0; t < threads; t++) {
                int tag = t;
                Thread th = new Thread(() -> {
                    try {
                        for (int i = 0; i < perThread; i++) {
                            long size = i % 10 == 0 ? 3000 : 16;
                            MemorySegment out = MemorySegment.ofArray(new long[(int) size / 8]);
                            out.set(ValueLayout.JAVA_LONG, 0, i);
                            SendOp s = p.engine().p2p().send(CTX, p.rank(), peer, tag, out, null, Mode.STANDARD);
                            MemorySegment in = MemorySegment.ofArray(new long[3000 / 8]);
                            RecvOp r = p.engine().p2p().receive(CTX, peer, tag, in, null, null);
                            p.engine().await(s);
                            p.engine().await(r);
                            assertEquals(i, in.get(ValueLayout.JAVA_LONG, 0));
                            got.merge(p.rank() + "/" + tag, 1, Integer::sum);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                });
                ts.add(th);
                th.start();
            }
            for (Thread th : ts) {
                th.join(60_000);
            }
            assertEquals(List.of(), errors);
        });
        assertEquals(2 * threads, got.size());
        got.values().forEach(v -> assertEquals(perThread, v));
    }

    @Test
    void agreementComputesTheMaximumAtOddSizes() throws Exception {
        for (int size : new int[] {1, 3, 7}) {
            InJvmJob.run(size, CONFIG, 0, new LoopbackFabric(size, 16, 2048), p -> {
                long m = Agreement.allreduceMax(p.engine(), 1, InJvmJob.identity(p.size()), p.rank(),
                        p.rank() * 3L + 1);
                assertEquals((p.size() - 1) * 3L + 1, m);
            });
        }
    }

    @Test
    void selfSendsGoThroughTheSelfTransport() throws Exception {
        InJvmJob.run(1, CONFIG, 0, new LoopbackFabric(1, 16, 2048), p -> {
            MemorySegment out = pattern(10_000, 3);
            SendOp s = p.engine().p2p().send(CTX, 0, 0, 1, out, null, Mode.STANDARD);
            MemorySegment in = MemorySegment.ofArray(new byte[10_000]);
            RecvOp r = recv(p, 0, 1, in);
            p.engine().await(s);
            assertEquals(-1, in.mismatch(out));
            assertEquals("self", p.engine().p2p().transportFor(0));
            assertArrayEquals(new byte[0], new byte[0]);
        });
    }
}
