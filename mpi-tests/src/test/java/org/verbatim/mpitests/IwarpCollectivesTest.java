package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link CollectivesProgram} with the iwarp transport forced, on siw0 in the RDMA guest: 3 ranks
 * connecting on demand (a non-power-of-two count), 4 ranks connecting all at once.
 */
@Tag("rdma")
@Timeout(600)
class IwarpCollectivesTest {
    @ParameterizedTest(name = "{0} ranks, connections {1}")
    @CsvSource({"3, on-demand", "4, all"})
    void everyCollectiveOverIwarp(int ranks, String connect) throws Exception {
        MpiJob job = MpiJob.run(ranks, 500, IwarpJobs.env(connect), "256m", CollectivesProgram.class)
                .assertAllPassed(ranks, 60);
        assertTrue(job.err().contains("transport iwarp"), job::report);
    }
}
