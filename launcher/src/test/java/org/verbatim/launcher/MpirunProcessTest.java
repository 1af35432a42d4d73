package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Real multi-process jobs: mpirun starts JVMs running {@link BootstrapProbe}. */
@Timeout(90)
class MpirunProcessTest {
    /** A job that must end early must do so well within this (the probe ranks would block forever). */
    private static final Duration PROMPT_END = Duration.ofSeconds(30);

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void ranksExchangeValuesThroughPutBarrierGet(int ranks) throws Exception {
        JobRun run = JobRun.mpirun(JobRun.probe(ranks, "kv"));
        assertEquals(0, run.status(), run::report);
        for (int r = 0; r < ranks; r++) {
            assertTrue(run.out().contains("rank " + r + " of " + ranks + " ok job="), run::report);
            assertTrue(run.err().contains("rank " + r + " stderr line"), run::report);
        }
        assertLeftNoShmFiles(run, ranks);
    }

    @Test
    void tagOutputPrefixesEveryLineWithItsRank() throws Exception {
        String[] args = JobRun.probe(3, "kv");
        JobRun run = JobRun.mpirun(prepend("--tag-output", args));
        assertEquals(0, run.status(), run::report);
        for (int r = 0; r < 3; r++) {
            assertTrue(Pattern.compile("(?m)^\\[" + r + "] rank " + r + " of 3 ok job=").matcher(run.out()).find(), run::report);
            assertTrue(Pattern.compile("(?m)^\\[" + r + "] rank " + r + " stderr line$").matcher(run.err()).find(), run::report);
        }
        for (String line : run.out().split("\n")) {
            assertTrue(line.matches("\\[[0-2]] .*"), () -> "untagged line '" + line + "'\n" + run.report());
        }
    }

    @Test
    void rankExitingNonZeroEndsTheJobWithItsStatus() throws Exception {
        JobRun run = JobRun.mpirun(JobRun.probe(3, "exit", "1", "3"));
        assertEquals(3, run.status(), run::report);
        assertTrue(Pattern.compile("rank 1 \\(pid \\d+\\) exited with status 3").matcher(run.err()).find(), run::report);
        assertTrue(run.elapsed().compareTo(PROMPT_END) < 0, run::report);
        assertLeftNoShmFiles(run, 3);
    }

    @Test
    void rankKilledBySigkillEndsTheJobWithinSeconds() throws Exception {
        JobRun run = JobRun.mpirun(JobRun.probe(4, "kill", "2"));
        assertEquals(128 + 9, run.status(), run::report);
        assertTrue(Pattern.compile("rank 2 \\(pid \\d+\\) was killed by signal 9").matcher(run.err()).find(), run::report);
        assertTrue(run.elapsed().compareTo(PROMPT_END) < 0, run::report);
        assertLeftNoShmFiles(run, 4);
    }

    @Test
    void abortEndsTheJobWithTheAbortCode() throws Exception {
        JobRun run = JobRun.mpirun(JobRun.probe(3, "abort", "0", "7"));
        assertEquals(7, run.status(), run::report);
        assertTrue(Pattern.compile("rank 0 \\(pid \\d+\\) called abort with code 7").matcher(run.err()).find(), run::report);
        assertTrue(run.err().contains("rank 0 aborts the job (code 7): probe asked for it"), run::report);
        assertTrue(run.elapsed().compareTo(PROMPT_END) < 0, run::report);
        assertLeftNoShmFiles(run, 3);
    }

    @Test
    void exitWithoutFinalizeAfterInitIsAFailure() throws Exception {
        JobRun run = JobRun.mpirun(JobRun.probe(2, "nofinalize"));
        assertEquals(1, run.status(), run::report);
        assertTrue(run.err().contains("without finalizing PMI"), run::report);
    }

    @Test
    void timeoutEndsAHangingJob() throws Exception {
        List<String> cmd = JobRun.probeCommand("sleep", "120");
        String[] args = prepend(new String[] {"-np", "2", "--timeout", "3"}, cmd.toArray(String[]::new));
        JobRun run = JobRun.mpirun(args);
        assertEquals(Job.TIMEOUT_STATUS, run.status(), run::report);
        assertTrue(run.err().contains("did not finish within 3 s"), run::report);
        assertTrue(run.elapsed().compareTo(PROMPT_END) < 0, run::report);
    }

    @Test
    void shorthandAddsJavaAndTheVerbatimClassPath() throws Exception {
        // RankCommand.fromSystem() uses this JVM and its class path, as bin/mpirun sets them.
        JobRun run = JobRun.mpirun("-np", "2", "--timeout", "60", "-Xmx64m", "-cp", "/nonexistent-dir",
                BootstrapProbe.class.getName(), "kv");
        assertEquals(0, run.status(), run::report);
        for (int r = 0; r < 2; r++) {
            assertTrue(Pattern.compile("rank " + r + " of 2 ok .* via PMI_PORT native-access=true").matcher(run.out()).find(), run::report);
        }
    }

    @Test
    void environmentReachesTheRanks() throws Exception {
        JobRun run = JobRun.mpirun("-np", "2", "--timeout", "60", "-x", "PROBE_GREETING=hello there",
                "sh", "-c", "echo \"$PMI_RANK/$PMI_SIZE $PROBE_GREETING id=$PMI_ID port=$PMI_PORT\"");
        assertEquals(0, run.status(), run::report);
        assertTrue(run.out().contains("0/2 hello there id=0 port=127.0.0.1:"), run::report);
        assertTrue(run.out().contains("1/2 hello there id=1 port=127.0.0.1:"), run::report);
    }

    @Test
    void programThatCannotStartIsReported() throws Exception {
        JobRun run = JobRun.mpirun("-np", "2", "/nonexistent/program");
        assertEquals(1, run.status(), run::report);
        assertTrue(run.err().contains("cannot start rank 0"), run::report);
    }

    @Test
    void printConfigListsEverySettingsProviderWithTheValueInForce() throws Exception {
        JobRun run = JobRun.mpirun("--print-config", "-x", "VERBATIM_PROBE_ANSWER=43");
        assertEquals(0, run.status(), run::report);
        assertTrue(run.out().contains("# probe"), run::report);
        assertTrue(run.out().contains("verbatim.probe.answer=43    # set;"), run::report);
        assertTrue(run.out().contains("verbatim.probe.question=unknown    # default;"), run::report);
    }

    private static void assertLeftNoShmFiles(JobRun run, int ranks) {
        List<String> files = run.shmFiles();
        assertEquals(ranks, files.size(), run::report);
        for (String f : files) {
            assertFalse(Files.exists(Path.of(f)), () -> f + " left behind\n" + run.report());
        }
    }

    private static String[] prepend(String first, String[] rest) {
        return prepend(new String[] {first}, rest);
    }

    private static String[] prepend(String[] first, String[] rest) {
        String[] all = new String[first.length + rest.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        return all;
    }
}
