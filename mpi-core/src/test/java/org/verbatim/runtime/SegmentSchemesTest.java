package org.verbatim.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.verbatim.datatype.CommittedType;
import org.verbatim.datatype.TypeNode;
import org.verbatim.datatype.Types;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.p2p.BlockList;
import org.verbatim.runtime.p2p.Layout;
import org.verbatim.runtime.p2p.RecvOp;
import org.verbatim.runtime.p2p.SelectionTable.Protocol;
import org.verbatim.runtime.p2p.SendOp;
import org.verbatim.runtime.p2p.TypeLayout;
import org.verbatim.runtime.p2p.WireHeader;

/**
 * The segment schemes (bc-spup, rwg-up) and multi-w's layout by reference, on the loopback
 * fabric: with and without write-with-immediate and gather writes, segments cut at odd points
 * across the blocks, receivers that are layouts, contiguous native (direct) or heap memory,
 * pools too small (dynamic buffers), shorter and longer messages; every receiver's gaps checked
 * untouched and every pool segment given back.
 */
class SegmentSchemesTest {
    private static final int CTX = 0;
    private static final int GAP = 0x5A5A5A5A;

    private static Map<String, String> config(String scheme, String segment, String pool) {
        Map<String, String> c = new HashMap<>(Map.of("verbatim.core.eager-limit", "1k",
                "verbatim.core.idle", "backoff", "verbatim.core.datatype-scheme", scheme,
                "verbatim.core.datatype-min-block", "0"));
        c.put("verbatim.core.datatype-segment", segment);
        c.put("verbatim.core.datatype-pool", pool);
        return c;
    }

    /** A native base of {@code ints} ints: i at message int i inside the blocks, GAP elsewhere. */
    static MemorySegment base(int ints, Layout layout, boolean numbered) {
        MemorySegment m = Arena.ofAuto().allocate(4L * ints, 8);
        for (int i = 0; i < ints; i++) {
            m.setAtIndex(ValueLayout.JAVA_INT, i, GAP);
        }
        if (numbered) {
            long k = 0;
            for (int b = 0; b < layout.blockCount(); b++) {
                for (long o = 0; o < layout.blockLength(b); o += 4) {
                    m.set(ValueLayout.JAVA_INT, layout.blockOffset(b) + o, (int) k++);
                }
            }
        }
        return m;
    }

    /** The first {@code n} message bytes landed in order, every other int is GAP. */
    static void checkLanded(MemorySegment m, Layout layout, long n) {
        boolean[] inMessage = new boolean[(int) (m.byteSize() / 4)];
        long k = 0;
        for (int b = 0; b < layout.blockCount(); b++) {
            for (long o = 0; o < layout.blockLength(b) && 4 * k < n; o += 4) {
                long at = layout.blockOffset(b) + o;
                assertEquals((int) k, m.get(ValueLayout.JAVA_INT, at), "message int " + k);
                inMessage[(int) (at / 4)] = true;
                k++;
            }
        }
        for (int i = 0; i < inMessage.length; i++) {
            if (!inMessage[i]) {
                assertEquals(GAP, m.getAtIndex(ValueLayout.JAVA_INT, i), "gap int " + i);
            }
        }
    }

    private static void checkPoolsBack(MpiProcess p, int[] atStart) {
        assertArrayEquals(atStart, p.engine().p2p().segmentPoolsAvailable(),
                "every pack and unpack segment given back");
    }

    @ParameterizedTest(name = "{0}, immediates {1}, gather {2}, segment {3}")
    @CsvSource({
        "bc-spup, true, 0, 8k", "bc-spup, false, 0, 8k", "bc-spup, true, 0, 1000",
        "bc-spup, false, 4, 1000", "rwg-up, true, 4, 8k", "rwg-up, false, 4, 1000",
        "rwg-up, true, 0, 1000", "rwg-up, true, 64, 24k", "rwg-up, false, 3, 100", "rwg-up, true, 2, 72"})
    void layoutIntoLayoutContiguousAndHeap(String scheme, boolean immediates, int gather,
                                           String segment) throws Exception {
        // 300 blocks of 72 bytes, stride 100 bytes: cut points fall anywhere in a block
        Layout vector = BlockList.vector(300, 72, 100);
        Layout halves = BlockList.vector(600, 36, 52);
        long bytes = vector.size();
        int ints = 300 * 25 + 8;
        LoopbackFabric fabric = new LoopbackFabric(2, 8, 2048, immediates, gather);
        Protocol expected = scheme.equals("bc-spup") ? Protocol.RPUT_SEGMENTS_PACKED
                : Protocol.RPUT_SEGMENTS_GATHERED;
        InJvmJob.run(2, config(scheme, segment, "64k"), 0, fabric, p -> {
            var p2p = p.engine().p2p();
            int[] pools = p2p.segmentPoolsAvailable();
            if (p.rank() == 0) {
                MemorySegment out = base(ints, vector, true);
                SendOp[] s = new SendOp[3];
                for (int t = 0; t < 3; t++) {
                    s[t] = p2p.send(CTX, 0, 1, t, out, vector, null, Mode.STANDARD);
                }
                for (SendOp op : s) {
                    p.engine().await(op);
                    assertEquals(bytes, op.bytes());
                    assertEquals(ErrorClass.SUCCESS, op.error());
                    assertEquals(expected, op.protocol());
                }
                // a heap base: rwg-up cannot gather from it and packs (bc-spup)
                int[] heap = new int[ints];
                MemorySegment.copy(out, ValueLayout.JAVA_INT, 0, heap, 0, ints);
                SendOp h = p2p.send(CTX, 0, 1, 3, MemorySegment.ofArray(heap), vector, null,
                        Mode.STANDARD);
                p.engine().await(h);
                assertEquals(Protocol.RPUT_SEGMENTS_PACKED, h.protocol());
            } else {
                MemorySegment in = base(600 * 13 + 8, halves, false);
                RecvOp r = p2p.receive(CTX, 0, 0, in, halves, null, null);
                p.engine().await(r);
                assertEquals(bytes, r.bytes());
                assertEquals(ErrorClass.SUCCESS, r.error());
                checkLanded(in, halves, bytes);
                // contiguous native: the segments land in place (direct)
                MemorySegment flat = Arena.ofAuto().allocate(bytes + 64, 8);
                flat.fill((byte) 0x5A);
                RecvOp r2 = p2p.receive(CTX, 0, 1, flat.asSlice(0, bytes), null, null);
                p.engine().await(r2);
                assertEquals(bytes, r2.bytes());
                for (int i = 0; i < bytes / 4; i++) {
                    assertEquals(i, flat.getAtIndex(ValueLayout.JAVA_INT, i), "int " + i);
                }
                for (long i = bytes; i < bytes + 64; i++) {
                    assertEquals((byte) 0x5A, flat.get(ValueLayout.JAVA_BYTE, i), "after end");
                }
                // heap: through unpack slots
                int[] onHeap = new int[(int) (bytes / 4)];
                RecvOp r3 = p2p.receive(CTX, 0, 2, MemorySegment.ofArray(onHeap), null, null);
                p.engine().await(r3);
                for (int i = 0; i < onHeap.length; i++) {
                    assertEquals(i, onHeap[i], "heap int " + i);
                }
                MemorySegment in4 = base(ints, vector, false);
                RecvOp r4 = p2p.receive(CTX, 0, 3, in4, vector, null, null);
                p.engine().await(r4);
                checkLanded(in4, vector, bytes);
            }
            checkPoolsBack(p, pools);
        });
        if (immediates) {
            assertTrue(fabric.writesWithImmediate.get() + fabric.gatherWrites.get() > 0);
            assertEquals(0, fabric.messagesByKind[8].get(), "no SEG_DONE with immediates");
        } else {
            assertTrue(fabric.messagesByKind[8].get() > 0, "SEG_DONE signals each segment");
        }
        if (scheme.equals("rwg-up") && gather > 1 && !segment.equals("72")) {
            assertTrue(fabric.gatherWrites.get() > 0, "gather writes used");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"bc-spup", "rwg-up"})
    void emptyPoolsFallBackToDynamicBuffers(String scheme) throws Exception {
        Layout vector = BlockList.vector(400, 100, 132);
        long bytes = vector.size();
        int ints = 400 * 33 + 8;
        // pools of 3 segments of 1000 bytes: the second message in flight finds them empty
        long[] registrations = new long[2];
        for (String pool : new String[] {"1m", "3000"}) {
            LoopbackFabric fabric = new LoopbackFabric(2, 16, 2048, true, 4);
            InJvmJob.run(2, config(scheme, "1000", pool), 0, fabric, p -> {
                var p2p = p.engine().p2p();
                int[] pools = p2p.segmentPoolsAvailable();
                if (p.rank() == 0) {
                    MemorySegment out = base(ints, vector, true);
                    SendOp[] s = new SendOp[4];
                    for (int t = 0; t < s.length; t++) {
                        s[t] = p2p.send(CTX, 0, 1, t, out, vector, null, Mode.STANDARD);
                    }
                    for (SendOp op : s) {
                        p.engine().await(op);
                        assertEquals(ErrorClass.SUCCESS, op.error());
                    }
                } else {
                    MemorySegment[] in = new MemorySegment[4];
                    RecvOp[] r = new RecvOp[4];
                    for (int t = 0; t < r.length; t++) {
                        in[t] = base(ints, vector, false);
                        r[t] = p2p.receive(CTX, 0, t, in[t], vector, null, null);
                    }
                    for (int t = 0; t < r.length; t++) {
                        p.engine().await(r[t]);
                        assertEquals(bytes, r[t].bytes());
                        checkLanded(in[t], vector, bytes);
                    }
                }
                checkPoolsBack(p, pools);
            });
            registrations[pool.equals("1m") ? 0 : 1] = fabric.registrations.get();
        }
        assertTrue(registrations[1] > registrations[0], "dynamic buffers registered when the "
                + "pools ran out: " + registrations[1] + " against " + registrations[0]);
    }

    @ParameterizedTest(name = "{0}, every {1}th write refused")
    @CsvSource({"bc-spup, 3", "rwg-up, 3", "rwg-up, 2", "multi-w, 3", "bc-spup, 2"})
    void writesTheTransportRefusesAreRetriedFromThePendingQueue(String scheme, int every)
            throws Exception {
        Layout vector = BlockList.vector(300, 72, 100);
        Layout halves = BlockList.vector(600, 36, 52);
        long bytes = vector.size();
        int ints = 300 * 25 + 8;
        LoopbackFabric fabric = new LoopbackFabric(2, 8, 2048, true, 3);
        fabric.refuseEveryWrite = every;
        InJvmJob.run(2, config(scheme, "1000", "8000"), 0, fabric, p -> {
            var p2p = p.engine().p2p();
            int[] pools = p2p.segmentPoolsAvailable();
            if (p.rank() == 0) {
                MemorySegment out = base(ints, vector, true);
                SendOp[] s = new SendOp[3];
                for (int t = 0; t < s.length; t++) {
                    s[t] = p2p.send(CTX, 0, 1, t, out, vector, null, Mode.STANDARD);
                }
                for (SendOp op : s) {
                    p.engine().await(op);
                    assertEquals(ErrorClass.SUCCESS, op.error());
                }
            } else {
                for (int t = 0; t < 3; t++) {
                    MemorySegment in = base(600 * 13 + 8, halves, false);
                    RecvOp r = p2p.receive(CTX, 0, t, in, halves, null, null);
                    p.engine().await(r);
                    assertEquals(bytes, r.bytes());
                    checkLanded(in, halves, bytes);
                }
            }
            checkPoolsBack(p, pools);
        });
        assertTrue(fabric.refusedWrites.get() > 0, "writes were refused");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"bc-spup", "rwg-up"})
    void shorterMessagesFillTheFrontAndLongerOnesAreTruncated(String scheme) throws Exception {
        Layout big = BlockList.vector(100, 64, 96);
        Layout small = BlockList.vector(90, 64, 96);
        int ints = 100 * 24 + 8;
        InJvmJob.run(2, config(scheme, "1000", "64k"), 0, new LoopbackFabric(2, 8, 2048, true, 4),
                p -> {
            var p2p = p.engine().p2p();
            if (p.rank() == 0) {
                p.engine().await(p2p.send(CTX, 0, 1, 1, base(ints, small, true), small, null,
                        Mode.STANDARD));
                SendOp longer = p2p.send(CTX, 0, 1, 2, base(ints, big, true), big, null,
                        Mode.STANDARD);
                p.engine().await(longer);
                assertEquals(ErrorClass.SUCCESS, longer.error());
            } else {
                MemorySegment in = base(ints, big, false);
                RecvOp shorter = p2p.receive(CTX, 0, 1, in, big, null, null);
                p.engine().await(shorter);
                assertEquals(small.size(), shorter.bytes());
                assertEquals(ErrorClass.SUCCESS, shorter.error());
                checkLanded(in, big, small.size());
                MemorySegment in2 = base(ints, small, false);
                RecvOp longer = p2p.receive(CTX, 0, 2, in2, small, null, null);
                p.engine().await(longer);
                assertEquals(ErrorClass.ERR_TRUNCATE, longer.error());
                assertEquals(small.size(), longer.bytes());
                checkLanded(in2, small, small.size());
            }
        });
    }

    @Test
    void multiWSendsTheReceiversLayoutOncePerType() throws Exception {
        TypeNode intType = Types.predefined("int", 4, 4);
        CommittedType columns = CommittedType.of(Types.vector(64, 40, 100, intType));
        CommittedType other = CommittedType.of(Types.vector(32, 80, 90, intType));
        TypeLayout a = new TypeLayout(columns.shape(1));
        TypeLayout b = new TypeLayout(other.shape(1));
        long bytes = a.size();
        assertEquals(bytes, b.size());
        LoopbackFabric fabric = new LoopbackFabric(2, 8, 2048, true);
        Map<String, String> c = config("multi-w", "128k", "4m");
        c.put("verbatim.core.rendezvous", "rput");
        c.put("verbatim.core.rput-threshold", "0");
        int rounds = 5;
        InJvmJob.run(2, c, 0, fabric, p -> {
            var p2p = p.engine().p2p();
            if (p.rank() == 0) {
                MemorySegment out = base((int) (bytes / 4) * 3, a, true);
                for (int t = 0; t < 2 * rounds; t++) {
                    SendOp s = p2p.send(CTX, 0, 1, t, out, a, null, Mode.STANDARD);
                    p.engine().await(s);
                    assertEquals(Protocol.RPUT_LAYOUT, s.protocol());
                }
            } else {
                for (int t = 0; t < 2 * rounds; t++) {
                    TypeLayout mine = t % 2 == 0 ? a : b;
                    MemorySegment in = base(64 * 100 + 8, mine, false);
                    RecvOp r = p2p.receive(CTX, 0, t, in, mine, null, null);
                    p.engine().await(r);
                    assertEquals(bytes, r.bytes());
                    checkLanded(in, mine, bytes);
                }
            }
        });
        long ctsBytes = fabric.bytesByKind[WireHeader.CTS].get();
        long refOnly = WireHeader.CTS_SIZE + 32;
        long flatA = columns.flatten().byteSize();
        long flatB = other.flatten().byteSize();
        assertEquals(2L * rounds, fabric.messagesByKind[WireHeader.CTS].get());
        assertEquals(2L * rounds * refOnly + flatA + flatB, ctsBytes,
                "each receiver layout sent once, then by reference");
    }
}
