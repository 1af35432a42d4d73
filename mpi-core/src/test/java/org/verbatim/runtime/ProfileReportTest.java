package org.verbatim.runtime;

import org.verbatim.runtime.base.Mode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** The profiler's counters combined over the ranks at rank 0 (sum, max, average). */
class ProfileReportTest {
    private static final Map<String, String> PROFILE = Map.of("verbatim.core.eager-limit", "1k",
            "verbatim.core.idle", "backoff", "verbatim.core.profile", "true");

    @Test
    void rankZeroPrintsTheTotalsOfEveryRank() throws Exception {
        int size = 5;
        Map<Integer, String> reports = new ConcurrentHashMap<>();
        InJvmJob.run(size, PROFILE, 0, new LoopbackFabric(size, 16, 2048), p -> {
            int[] world = InJvmJob.identity(size);
            // every rank sends rank+1 messages of 100 B to rank 0, rank 0 receives them all
            // before posting its receives (so they are unexpected), plus one 5000 B rendezvous
            if (p.rank() > 0) {
                for (int i = 0; i <= p.rank(); i++) {
                    p.engine().await(p.engine().p2p().send(0, p.rank(), 0, 1, MemorySegment.ofArray(new byte[100]),
                            null, Mode.STANDARD));
                }
                p.engine().await(p.engine().p2p().send(0, p.rank(), 0, 2, MemorySegment.ofArray(new byte[5000]),
                        null, Mode.STANDARD));
            } else {
                int expected = 2 + 3 + 4 + 5;
                for (int i = 0; i < expected; i++) {
                    p.engine().await(p.engine().p2p().receive(0, Engine.ANY_SOURCE, 1,
                            MemorySegment.ofArray(new byte[100]), null, null));
                }
                for (int i = 1; i < size; i++) {
                    p.engine().await(p.engine().p2p().receive(0, Engine.ANY_SOURCE, 2,
                            MemorySegment.ofArray(new byte[5000]), null, null));
                }
            }
            Agreement.barrier(p.engine(), 1, world, p.rank());
            long sentBefore = p.profiler().totalMessages();
            String report = ProfileReport.combine(p, 1, world, p.rank());
            if (p.rank() == 0) {
                reports.put(0, report);
            } else {
                assertNull(report, "only rank 0 prints");
            }
            assertTrue(p.profiler().totalMessages() >= sentBefore);
        });
        String r = reports.get(0);
        assertTrue(r.startsWith("verbatim profile, 5 ranks"), r);
        // 14 messages of 100 B and 4 of 5000 B, plus the barrier's 8 of 8 B before the snapshot
        assertTrue(r.matches("(?s).*<= 16 B +8 msgs +64 bytes.*"), r);
        assertTrue(r.matches("(?s).*<= 128 B +14 msgs +1400 bytes.*"), r);
        assertTrue(r.matches("(?s).*<= 8192 B +4 msgs +20000 bytes.*"), r);
        assertTrue(r.contains("messages sent         26"), r);
        assertTrue(r.contains("[verbatim loop] 5 ranks: posts 15, highest rank max 4, memory 100 KiB "
                + "(avg 20, max 40 per rank)"), r);
        assertTrue(r.matches("(?s).*unexpected received   \\d+ \\(\\d+\\.\\d% of the messages\\).*"), r);
        assertEquals(1, r.split("verbatim profile").length - 1);
    }
}
