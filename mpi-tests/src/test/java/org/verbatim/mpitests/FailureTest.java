package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A failing rank ends the whole job promptly, with a message naming the rank (and, for MPI
 * errors under ERRORS_ARE_FATAL, the call and the reason), and leaves nothing in /dev/shm.
 */
@Timeout(60)
class FailureTest {
    /** The others are blocked forever, so only the failure handling can end the job this fast. */
    private static final Duration PROMPT = Duration.ofSeconds(20);
    private static final int JOB_TIMEOUT = 30;

    @ParameterizedTest(name = "{0} on rank {1}")
    @CsvSource(delimiter = '|', value = {
        "rank     | 1 | MPI_Send: invalid destination rank 6 \\(communicator size 3\\) \\[MPI_ERR_RANK",
        "tag      | 2 | MPI_Isend: invalid tag -7 .*\\[MPI_ERR_TAG",
        "count    | 0 | MPI_Recv: negative count -2 \\[MPI_ERR_COUNT",
        "buffer   | 1 | MPI_Send: buffer too small: 36 bytes needed .*\\[MPI_ERR_BUFFER",
        "comm     | 2 | MPI_Send: invalid communicator .*\\[MPI_ERR_COMM",
        "truncate | 1 | MPI_Recv: message truncated.*\\[MPI_ERR_TRUNCATE",
    })
    void errorsAreFatalNamesRankCallAndReason(String mode, int victim, String reason)
            throws Exception {
        MpiJob job = MpiJob.run(3, JOB_TIMEOUT, List.of(), "128m", FailureProgram.class, mode,
                Integer.toString(victim));
        assertNotEquals(0, job.status(), job::report);
        assertNotEquals(MpiJob.TIMEOUT_STATUS, job.status(), job::report);
        // one line, once: the rank's abort line names rank, call and reason
        assertEquals(1, Pattern.compile("(?m)^\\[verbatim] rank " + victim + " aborts the job \\(code \\d+\\): "
                + reason).matcher(job.err()).results().count(), job::report);
        assertEquals(1, job.err().lines().filter(l -> l.contains(reason.substring(0, 8))).count(), job::report);
        assertTrue(Pattern.compile("mpirun: rank " + victim + " \\(pid \\d+\\)").matcher(job.err())
                .find(), job::report);
        assertEndedPromptly(job);
    }

    @Test
    void abortEndsTheJobWithItsCode() throws Exception {
        MpiJob job = MpiJob.run(3, JOB_TIMEOUT, List.of(), "128m", FailureProgram.class, "abort",
                "1");
        assertEquals(7, job.status(), job::report);
        assertTrue(job.err().contains("[verbatim] rank 1 aborts the job (code 7): MPI_Abort called on "
                + "MPI_COMM_WORLD with error code 7"), job::report);
        assertEndedPromptly(job);
    }

    @Test
    void rankKilledBySigkillEndsTheJobWithinSeconds() throws Exception {
        MpiJob job = MpiJob.run(4, JOB_TIMEOUT, List.of(), "128m", FailureProgram.class, "kill",
                "2");
        assertEquals(128 + 9, job.status(), job::report);
        assertTrue(Pattern.compile("rank 2 \\(pid \\d+\\) was killed by signal 9").matcher(job.err())
                .find(), job::report);
        assertEndedPromptly(job);
    }

    @Test
    void rankKilledInsideALockEpochEndsTheJob() throws Exception {
        MpiJob job = MpiJob.run(3, JOB_TIMEOUT, List.of(), "128m", RmaFailureProgram.class, "kill",
                "1");
        assertEquals(128 + 9, job.status(), job::report);
        assertTrue(Pattern.compile("rank 1 \\(pid \\d+\\) was killed by signal 9").matcher(job.err())
                .find(), job::report);
        assertEndedPromptly(job);
    }

    @Test
    void epochMisuseIsFatalByDefault() throws Exception {
        MpiJob job = MpiJob.run(3, JOB_TIMEOUT, List.of(), "128m", RmaFailureProgram.class, "sync",
                "2");
        assertNotEquals(0, job.status(), job::report);
        // one line, once: the rank's abort line names rank, call and reason
        assertEquals(1, Pattern.compile("(?m)^\\[verbatim] rank 2 aborts the job \\(code 47\\): "
                + "MPI_Win_unlock: unlock of rank 0 without lock \\[MPI_ERR_RMA_SYNC")
                .matcher(job.err()).results().count(), job::report);
        assertEndedPromptly(job);
    }

    private static void assertEndedPromptly(MpiJob job) {
        assertTrue(job.elapsed().compareTo(PROMPT) < 0, job::report);
        assertFalse(job.out().contains("the test must fail"), job::report);
        job.assertNoShmLeft();
    }
}
