package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PointToPointProgram} on 2 ranks with the iwarp transport forced, on siw0 in the RDMA
 * guest: connections on demand and all at once, eager and rendezvous around iwarp's 8156 B eager
 * limit; and with RPUT forced, which closes with a FIN message (iWARP has no write with
 * immediate).
 */
@Tag("rdma")
@Timeout(600)
class IwarpPointToPointTest {
    @ParameterizedTest
    @ValueSource(strings = {"on-demand", "all"})
    void pointToPointOverIwarp(String connect) throws Exception {
        MpiJob job = MpiJob.run(2, 500, IwarpJobs.env(connect), "256m", PointToPointProgram.class,
                "2", IwarpJobs.EAGER_LIMIT).assertAllPassed(2, 300);
        assertTrue(job.err().contains("rank 0 -> rank 1: transport iwarp, eager <= " + IwarpJobs.EAGER_LIMIT + " B"),
                job::report);
    }

    @Test
    void pointToPointWithRputClosedByFin() throws Exception {
        List<String> env = new ArrayList<>(IwarpJobs.env("on-demand"));
        env.add("VERBATIM_CORE_RENDEZVOUS=rput");
        MpiJob job = MpiJob.run(2, 500, env, "256m", PointToPointProgram.class, "2", IwarpJobs.EAGER_LIMIT)
                .assertAllPassed(2, 300);
        assertTrue(job.err().contains("RPUT zero-copy closed by FIN"), job::report);
    }
}
