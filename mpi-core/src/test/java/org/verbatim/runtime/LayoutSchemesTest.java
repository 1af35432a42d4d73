package org.verbatim.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.p2p.BlockList;
import org.verbatim.runtime.p2p.Layout;
import org.verbatim.runtime.p2p.RecvOp;
import org.verbatim.runtime.p2p.SelectionTable.Protocol;
import org.verbatim.runtime.p2p.SendOp;

/**
 * The datatype schemes (generic, multi-w, p-rrs, auto) on native memory: a layout or contiguous
 * sender into a layout or contiguous receiver, with the receiver's gaps checked untouched, and
 * messages shorter and longer than the receive layout.
 */
class LayoutSchemesTest {
    private static final int CTX = 0;
    private static final int GAP = 0x5A5A5A5A;

    private static Map<String, String> config(String scheme, String rendezvous) {
        return Map.of("verbatim.core.eager-limit", "1k", "verbatim.core.idle", "backoff",
                "verbatim.core.datatype-scheme", scheme, "verbatim.core.datatype-min-block", "0",
                "verbatim.core.rendezvous", rendezvous, "verbatim.core.rput-threshold", "0");
    }

    /** A native base of {@code ints} ints: value i at element i inside blocks, GAP elsewhere. */
    private static MemorySegment base(int ints, Layout layout, boolean numbered) {
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

    /** Checks that the first {@code n} message bytes landed in order and every other int is GAP. */
    private static void checkLanded(MemorySegment m, Layout layout, long n) {
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

    @ParameterizedTest(name = "{0}, {1}: {2} blocks of {3} ints, stride {4}")
    @CsvSource({
        "multi-w, rget, 40, 64, 80", "multi-w, rget, 200, 16, 20", "multi-w, rget, 3, 5000, 5003",
        "p-rrs, rget, 40, 64, 80", "p-rrs, rget, 3, 5000, 5003",
        "generic, rget, 40, 64, 80", "generic, rput, 40, 64, 80",
        "auto, rget, 40, 64, 80", "auto, rput, 40, 64, 80", "p-rrs, rput, 40, 64, 80"})
    void layoutToLayoutAndLayoutToContiguousAndBack(String scheme, String rendezvous, int blocks,
                                                    int blockInts, int strideInts) throws Exception {
        Layout vector = BlockList.vector(blocks, 4L * blockInts, 4L * strideInts);
        // the receiver's layout: same bytes, other shape (two blocks for each of the sender's)
        Layout halves = BlockList.vector(2 * blocks, 2L * blockInts, 4L * ((strideInts + 1) / 2) + 12);
        long bytes = vector.size();
        int ints = blocks * strideInts + 8;
        InJvmJob.run(2, config(scheme, rendezvous), 0, new LoopbackFabric(2, 8, 2048), p -> {
            var p2p = p.engine().p2p();
            if (p.rank() == 0) {
                MemorySegment out = base(ints, vector, true);
                SendOp s1 = p2p.send(CTX, 0, 1, 1, out, vector, null, Mode.STANDARD);
                SendOp s2 = p2p.send(CTX, 0, 1, 2, out, vector, null, Mode.STANDARD);
                p.engine().await(s1);
                p.engine().await(s2);
                assertEquals(bytes, s1.bytes());
                if (scheme.equals("multi-w")) {
                    assertEquals(Protocol.RPUT_LAYOUT, s1.protocol());
                } else if (!scheme.equals("auto")) {
                    assertTrue(s1.protocol() != Protocol.RPUT_LAYOUT, s1.protocol().toString());
                }
                // contiguous from rank 1 into the layout here
                MemorySegment back = base(ints, vector, false);
                RecvOp r = p2p.receive(CTX, 1, 3, back, vector, null, null);
                p.engine().await(r);
                assertEquals(bytes, r.bytes());
                checkLanded(back, vector, bytes);
            } else {
                MemorySegment in = base(2 * blocks * ((strideInts + 1) / 2 + 3) + 8, halves, false);
                RecvOp r = p2p.receive(CTX, 0, 1, in, halves, null, null);
                p.engine().await(r);
                assertEquals(bytes, r.bytes());
                checkLanded(in, halves, bytes);
                MemorySegment flat = Arena.ofAuto().allocate(bytes, 8);
                RecvOp r2 = p2p.receive(CTX, 0, 2, flat, null, null);
                p.engine().await(r2);
                for (int i = 0; i < bytes / 4; i++) {
                    assertEquals(i, flat.getAtIndex(ValueLayout.JAVA_INT, i), "int " + i);
                }
                p.engine().await(p2p.send(CTX, 1, 0, 3, flat, null, Mode.STANDARD));
            }
        });
    }

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"multi-w, rput", "p-rrs, rget", "auto, rget", "auto, rput"})
    void shorterMessagesFillTheFrontAndLongerOnesAreTruncated(String scheme, String rendezvous)
            throws Exception {
        Layout vector = BlockList.vector(100, 64, 96);
        long bytes = vector.size();
        InJvmJob.run(2, config(scheme, rendezvous), 0, new LoopbackFabric(2, 8, 2048), p -> {
            var p2p = p.engine().p2p();
            if (p.rank() == 0) {
                MemorySegment out = Arena.ofAuto().allocate(2 * bytes, 8);
                for (int i = 0; i < out.byteSize() / 4; i++) {
                    out.setAtIndex(ValueLayout.JAVA_INT, i, i);
                }
                p.engine().await(p2p.send(CTX, 0, 1, 1, out.asSlice(0, bytes - 1000), null,
                        Mode.STANDARD));
                p.engine().await(p2p.send(CTX, 0, 1, 2, out, null, Mode.STANDARD));
            } else {
                MemorySegment in = base(100 * 24 + 8, vector, false);
                RecvOp shorter = p2p.receive(CTX, 0, 1, in, vector, null, null);
                p.engine().await(shorter);
                assertEquals(bytes - 1000, shorter.bytes());
                assertEquals(ErrorClass.SUCCESS, shorter.error());
                checkLanded(in, vector, bytes - 1000);
                MemorySegment in2 = base(100 * 24 + 8, vector, false);
                RecvOp longer = p2p.receive(CTX, 0, 2, in2, vector, null, null);
                p.engine().await(longer);
                assertEquals(ErrorClass.ERR_TRUNCATE, longer.error());
                checkLanded(in2, vector, bytes);
            }
        });
    }
}
