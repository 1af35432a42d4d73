package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A peer killed mid-transfer over ib ends the job with a message naming the rank, and the survivor
 * does not hang inside ib: the job ends long before its time limit. Once with RGET (rank 0
 * RDMA-reading rank 1's rendezvous messages, eager ones queued behind them) and once with RPUT
 * (rank 1 RDMA-writing into the buffers rank 0's CTS named, rank 0 waiting for the closing
 * write-with-immediate). On rxe0 in the RDMA guest.
 */
@Tag("rdma")
@Timeout(300)
class IbPeerFailureTest {
    /** Generous for TCG (two JVM starts take most of it); the job time limit is far above. */
    private static final Duration PROMPT = Duration.ofSeconds(120);

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"srq, rget", "ardma-sr, rput"})
    void peerKilledMidTransferEndsTheJobNamingTheRank(String channel, String rendezvous) throws Exception {
        List<String> env = new ArrayList<>(IbJobs.env(channel));
        env.add("VERBATIM_CORE_RENDEZVOUS=" + rendezvous);
        MpiJob job = MpiJob.run(2, 240, env, "256m", IbKillProgram.class);
        assertTrue(job.out().contains("rank 1 dies with"), job::report);
        assertEquals(128 + 9, job.status(), job::report);
        assertTrue(Pattern.compile("mpirun: rank 1 \\(pid \\d+\\) was killed by signal 9").matcher(job.err())
                .find(), job::report);
        assertTrue(job.elapsed().compareTo(PROMPT) < 0, job::report);
        assertFalse(job.out().contains("the test must fail"), job::report);
        // the selection table names the pinned protocol for contiguous native data above eager
        assertTrue(job.err().contains(": " + rendezvous.toUpperCase(java.util.Locale.ROOT)
                + " zero-copy"), job::report);
    }
}
