package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link CollectivesProgram} with the ib transport forced, on rxe0 in the RDMA guest: 2 ranks over
 * ardma-srq (the RDMA fast path after 4 messages, the SRQ before it and for control), 3 ranks over
 * ardma-sr (a non-power-of-two count; per-connection buffers and credits between every pair).
 */
@Tag("rdma")
@Timeout(600)
class IbCollectivesTest {
    @ParameterizedTest(name = "{0} ranks over {1}")
    @CsvSource({"2, ardma-srq", "3, ardma-sr"})
    void everyCollectiveOverIb(int ranks, String channel) throws Exception {
        MpiJob job = MpiJob.run(ranks, 500, IbJobs.env(channel), "256m", CollectivesProgram.class)
                .assertAllPassed(ranks, 60);
        assertTrue(job.err().contains("transport ib"), job::report);
    }
}
