package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** MPI programs ({@link MpiProbe}) under mpirun, over the shared-memory transport. */
@Timeout(120)
class MpiProgramTest {
    private static final Duration PROMPT_END = Duration.ofSeconds(30);

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void ringOverSharedMemory(int ranks) throws Exception {
        JobRun run = JobRun.mpirun(args(ranks, "ring"));
        assertEquals(0, run.status(), run::report);
        for (int r = 0; r < ranks; r++) {
            assertTrue(run.out().contains("mpi rank " + r + " of " + ranks + " ring ok"), run::report);
        }
        assertNoShmFilesOfThisJvmsJobs(run);
    }

    @Test
    void sigkilledRankEndsTheMpiJobWithinSeconds() throws Exception {
        JobRun run = JobRun.mpirun(args(3, "kill", "1"));
        assertEquals(128 + 9, run.status(), run::report);
        assertTrue(Pattern.compile("rank 1 \\(pid \\d+\\) was killed by signal 9").matcher(run.err()).find(), run::report);
        assertTrue(run.elapsed().compareTo(PROMPT_END) < 0, run::report);
        assertNoShmFilesOfThisJvmsJobs(run);
    }

    @Test
    void commWorldAbortEndsTheJobWithItsCode() throws Exception {
        JobRun run = JobRun.mpirun(args(3, "abort", "2", "5"));
        assertEquals(5, run.status(), run::report);
        assertTrue(Pattern.compile("rank 2 \\(pid \\d+\\) called abort with code 5").matcher(run.err()).find(), run::report);
        assertTrue(run.elapsed().compareTo(PROMPT_END) < 0, run::report);
        assertNoShmFilesOfThisJvmsJobs(run);
    }

    private static String[] args(int ranks, String... probeArgs) {
        List<String> a = new ArrayList<>(List.of("-np", Integer.toString(ranks), "--timeout", "60"));
        List<String> cmd = new ArrayList<>(JobRun.probeCommand(probeArgs));
        cmd.set(cmd.indexOf(BootstrapProbe.class.getName()), MpiProbe.class.getName());
        a.addAll(cmd);
        return a.toArray(String[]::new);
    }

    /** Job ids of jobs started from this JVM begin with "vb" + its pid (see {@link Job}). */
    private static void assertNoShmFilesOfThisJvmsJobs(JobRun run) throws IOException {
        String prefix = "verbatim-vb" + ProcessHandle.current().pid() + "x";
        try (Stream<Path> files = Files.list(Path.of("/dev/shm"))) {
            List<String> left = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).toList();
            assertEquals(List.of(), left, run::report);
        }
    }
}
