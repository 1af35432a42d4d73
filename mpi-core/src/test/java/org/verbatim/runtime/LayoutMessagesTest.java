package org.verbatim.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.p2p.BlockList;
import org.verbatim.runtime.p2p.Layout;
import org.verbatim.runtime.p2p.RecvOp;
import org.verbatim.runtime.p2p.SelectionTable;
import org.verbatim.runtime.p2p.SendOp;

/** Noncontiguous message data (a layout over a base) through eager and both rendezvous. */
class LayoutMessagesTest {
    private static final int CTX = 0;

    @ParameterizedTest
    @CsvSource({"3, 8, auto", "200, 8, auto", "5000, 24, rget", "5000, 24, rput"})
    void layoutToContiguousAndBackArriveIntact(int count, int blockInts, String rendezvous)
            throws Exception {
        Map<String, String> config = Map.of("verbatim.core.eager-limit", "1k",
                "verbatim.core.idle", "backoff", "verbatim.core.rendezvous", rendezvous,
                "verbatim.core.rput-threshold", "0");
        int strideInts = blockInts + 3;
        Layout vector = BlockList.vector(count, 4L * blockInts, 4L * strideInts);
        long bytes = vector.size();
        InJvmJob.run(2, config, 0, new LoopbackFabric(2, 8, 2048), p -> {
            var p2p = p.engine().p2p();
            if (p.rank() == 0) {
                int[] base = new int[count * strideInts];
                for (int i = 0; i < base.length; i++) {
                    base[i] = (i % strideInts) < blockInts ? i : -1;
                }
                SendOp s = p2p.send(CTX, 0, 1, 1, MemorySegment.ofArray(base), vector, null,
                        Mode.STANDARD);
                p.engine().await(s);
                assertEquals(bytes, s.bytes());
                assertTrue(bytes <= 1024 ? !s.protocol().rendezvous() : s.protocol().rendezvous(),
                        s.protocol().toString());
                // and back: contiguous from rank 1 into a layout here, gaps untouched
                int[] back = new int[count * strideInts];
                java.util.Arrays.fill(back, 7);
                RecvOp r = p2p.receive(CTX, 1, 2, MemorySegment.ofArray(back), vector, null, null);
                p.engine().await(r);
                assertEquals(bytes, r.bytes());
                for (int i = 0; i < back.length; i++) {
                    int expected = (i % strideInts) < blockInts ? i : 7;
                    assertEquals(expected, back[i], "element " + i);
                }
            } else {
                MemorySegment in = Arena.ofAuto().allocate(bytes, 4);
                RecvOp r = p2p.receive(CTX, 0, 1, in, null, null);
                p.engine().await(r);
                assertEquals(bytes, r.bytes());
                int k = 0;
                for (int b = 0; b < count; b++) {
                    for (int j = 0; j < blockInts; j++) {
                        assertEquals(b * strideInts + j, in.getAtIndex(ValueLayout.JAVA_INT, k++));
                    }
                }
                p.engine().await(p2p.send(CTX, 1, 0, 2, in, null, Mode.STANDARD));
            }
        });
    }

    @ParameterizedTest
    @CsvSource({"100", "4000"})
    void aLayoutReceiveOfAShorterMessageKeepsTheRest(int ints) throws Exception {
        Map<String, String> config = Map.of("verbatim.core.eager-limit", "1k",
                "verbatim.core.idle", "backoff");
        InJvmJob.run(2, config, 0, new LoopbackFabric(2, 8, 2048), p -> {
            var p2p = p.engine().p2p();
            Layout everyOther = BlockList.vector(ints, 4, 8);
            if (p.rank() == 0) {
                int[] msg = new int[ints / 2];
                java.util.Arrays.fill(msg, 5);
                p.engine().await(p2p.send(CTX, 0, 1, 3, MemorySegment.ofArray(msg), null,
                        Mode.STANDARD));
            } else {
                int[] base = new int[2 * ints];
                RecvOp r = p2p.receive(CTX, 0, 3, MemorySegment.ofArray(base), everyOther, null,
                        null);
                p.engine().await(r);
                assertEquals(4L * (ints / 2), r.bytes());
                for (int i = 0; i < 2 * ints; i++) {
                    assertEquals(i % 2 == 0 && i / 2 < ints / 2 ? 5 : 0, base[i], "element " + i);
                }
                String table = p2p.selectionFor(0);
                assertTrue(table.contains("layout"), table);
                assertTrue(table.contains(SelectionTable.Protocol.EAGER_PACK.toString()), table);
            }
        });
    }
}
