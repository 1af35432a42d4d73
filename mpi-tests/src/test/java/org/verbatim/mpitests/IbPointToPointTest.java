package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PointToPointProgram} on 2 ranks with the ib transport forced, once per eager channel
 * (srq, ardma-srq, ardma-sr), on rxe0 in the RDMA guest (docs/rdma-guest.md). TCG makes each job
 * take half a minute or more, so the set is small: the transport's own guest tests cover SRQ
 * exhaustion, the fast-path switch-over and the registration cache.
 * ib's eager buffers (8 KiB, runtime header included) cap the eager limit at 8160 B, which the
 * program's boundary sizes (limit - 1, limit, limit + 1) are computed from, so both eager and
 * rendezvous run over ib (RPUT at every size on rxe0, which says RDMA_READ_DEFERRED; RGET is
 * forced in IbPeerFailureTest). The fast path starts after 4 messages, early in the program.
 */
@Tag("rdma")
@Timeout(600)
class IbPointToPointTest {
    @ParameterizedTest
    @ValueSource(strings = {"srq", "ardma-srq", "ardma-sr"})
    void pointToPointOverEachEagerChannel(String channel) throws Exception {
        MpiJob job = MpiJob.run(2, 500, IbJobs.env(channel), "256m", PointToPointProgram.class,
                "2", "8160").assertAllPassed(2, 300);
        assertTrue(job.err().contains("rank 0 -> rank 1: transport ib"), job::report);
    }

    /**
     * RPUT forced: every rendezvous is RTS, CTS, RDMA writes closed by write-with-immediate (on
     * ardma-sr the immediate costs a receive credit, so the credit path runs too).
     */
    @ParameterizedTest
    @ValueSource(strings = {"srq", "ardma-sr"})
    void pointToPointWithRput(String channel) throws Exception {
        List<String> env = new ArrayList<>(IbJobs.env(channel));
        env.add("VERBATIM_CORE_RENDEZVOUS=rput");
        MpiJob job = MpiJob.run(2, 500, env, "256m", PointToPointProgram.class, "2", "8160")
                .assertAllPassed(2, 300);
        assertTrue(job.err().contains("rank 0 -> rank 1: transport ib, eager <= 8160 B, "),
                job::report);
        assertTrue(job.err().contains("8161.. B: RPUT zero-copy closed by write-with-immediate"),
                job::report);
    }
}
