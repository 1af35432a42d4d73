package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link PointToPointProgram} on 2, 3 and 4 ranks (4 is more ranks than the cores CI gives us),
 * with the default eager limit, with a configured one below the shm transport's cap, with the
 * shared-buffer fallback instead of cross-memory attach, and as a singleton without a launcher.
 * The protocol selection printed by verbatim.core.proto-info pins the eager limit the program's
 * boundary sizes (limit - 1, limit, limit + 1) are computed from.
 */
@Timeout(150)
class PointToPointTest {
    private static final String PROTO_INFO = "VERBATIM_CORE_PROTO_INFO=true";

    @Test
    void twoRanksWithSixtyFourMegabyteMessages() throws Exception {
        MpiJob job = MpiJob.run(2, 120, List.of(PROTO_INFO), "640m", PointToPointProgram.class,
                "2", "16384", "big").assertAllPassed(2, 300);
        assertTrue(job.err().contains("rank 0 -> rank 1: transport shm, eager <= 16352 B, "),
                job::report);
        // RGET at every size (RDMA_BY_CPU), for every data class
        assertTrue(job.err().contains("contiguous_native 0..16352 B: eager (copy into the "
                + "transport's buffer); 16353..: RGET zero-copy\n"), job::report);
        assertTrue(job.err().contains("16353..: RGET through a native staging copy\n"),
                job::report);
    }

    @Test
    void threeRanksWithAConfiguredEagerLimit() throws Exception {
        MpiJob job = MpiJob.run(3, 120, List.of("VERBATIM_CORE_EAGER_LIMIT=4096", PROTO_INFO),
                "256m", PointToPointProgram.class, "3", "4096").assertAllPassed(3, 300);
        assertTrue(job.err().contains("rank 2 -> rank 0: transport shm, eager <= 4096 B"),
                job::report);
    }

    /**
     * MPI_Init's warm-up exchange (forced on: the tests' 3 ranks on CI's 2 cores would leave it
     * off in auto mode) pairs world ranks 0 and 1 and leaves rank 2 out; the program then runs
     * as without it: the warm-up's messages all matched on its private communicator.
     */
    @Test
    void threeRanksAfterTheInitWarmUp() throws Exception {
        MpiJob job = MpiJob.run(3, 120, List.of("VERBATIM_CORE_WARMUP=on",
                        "VERBATIM_CORE_WARMUP_TRACE=true"), "256m", PointToPointProgram.class, "3",
                "16384").assertAllPassed(3, 300);
        assertTrue(job.err().contains("verbatim: warm-up with world rank 1 took"), job::report);
        assertTrue(job.err().contains("verbatim: warm-up with world rank 0 took"), job::report);
        assertTrue(!job.err().contains("warm-up with world rank 2"), job::report);
    }

    @Test
    void aBadWarmUpSettingIsNamed() throws Exception {
        MpiJob job = MpiJob.run(2, 60, List.of("VERBATIM_CORE_WARMUP=sometimes"), "256m",
                PointToPointProgram.class, "2", "16384");
        assertEquals(78, job.status(), job::report);
        assertTrue(job.err().contains("verbatim: VERBATIM_CORE_WARMUP=sometimes is not valid for "
                + "verbatim.core.warmup; allowed: one of auto, on, off"), job::report);
    }

    @Test
    void fourRanks() throws Exception {
        MpiJob.run(4, 120, List.of(), "256m", PointToPointProgram.class, "4", "16384")
                .assertAllPassed(4, 300);
    }

    /**
     * Idle strategy "block": waiting ranks sleep on their inbox's futex doorbell and are woken
     * by the sender's commit (a lost wake-up would still finish, by the 1 ms sleep timeout,
     * so DoorbellTest is what proves the wake itself; this proves the protocols under it).
     */
    @Test
    void threeRanksSleepingWhenIdle() throws Exception {
        MpiJob.run(3, 120, List.of("VERBATIM_CORE_IDLE=block"), "256m",
                PointToPointProgram.class, "3", "16384").assertAllPassed(3, 300);
    }

    /** Without cross-memory attach, large messages go through the shared-buffer fallback. */
    @Test
    void twoRanksWithoutCrossMemoryAttach() throws Exception {
        MpiJob job = MpiJob.run(2, 120, List.of("VERBATIM_SHM_CMA=false", PROTO_INFO), "256m",
                PointToPointProgram.class, "2", "16384").assertAllPassed(2, 300);
        assertTrue(job.err().contains("16353..: RGET zero-copy (emulated read)"), job::report);
    }

    /** MPI.Init with no launcher: a singleton whose every message goes to itself. */
    @Test
    void singletonWithoutALauncher() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(System.getProperty("java.home") + "/bin/java",
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                PointToPointProgram.class.getName(), "1", "16384");
        pb.environment().keySet().removeIf(k -> k.startsWith("PMI_") || k.startsWith("VERBATIM_"));
        java.nio.file.Path log = java.nio.file.Files.createTempFile("singleton", ".out");
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        Process p = pb.start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        String stacks = "";
        if (!ended) {
            Process js = new ProcessBuilder(System.getProperty("java.home") + "/bin/jstack",
                    Long.toString(p.pid())).redirectErrorStream(true).start();
            stacks = new String(js.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.destroyForcibly().waitFor();
        }
        String text = java.nio.file.Files.readString(log) + stacks;
        java.nio.file.Files.delete(log);
        assertTrue(ended, () -> "singleton did not finish in 60 s\n" + text);
        assertEquals(0, p.exitValue(), text);
        assertTrue(text.contains("SUMMARY rank 0 passed=") && !text.contains("FAIL rank"), text);
    }
}
