package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ib counters reduced to rank 0, and on-demand connections seen from MPI: 4 ranks over ib
 * where ranks talk only to their partner (rank ^ 1) and, at finalize, along the barrier's and the
 * profile reduction's binomial tree (0-1, 2-3, 0-2): 3 of the 6 pairs, so 6 RC queue pairs in the
 * job where connecting at open made 12.
 */
@Tag("rdma")
@Timeout(600)
class IbProfileTest {
    @Test
    void onlyPairsThatTalkAreConnected() throws Exception {
        List<String> env = new ArrayList<>(IbJobs.env("ardma-srq"));
        env.add("VERBATIM_CORE_PROFILE=true");
        MpiJob job = MpiJob.run(4, 500, env, "128m", ProfileProgram.class, "20").assertAllPassed(4, 20);
        String err = job.err();
        assertTrue(err.contains("verbatim profile, 4 ranks"), job::report);
        assertTrue(err.contains("[verbatim ib] 4 ranks: "), job::report);
        assertTrue(err.contains(", queue pairs 6 (avg 1, max 2 per rank), connection requests "), job::report);
        assertTrue(err.contains(", fast-path peers 4 (avg 1, max 1 per rank), "), job::report);
    }
}
