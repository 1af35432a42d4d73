package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The same bootstrap under MPICH's process manager, mpiexec.hydra (Debian package mpich), which
 * speaks PMI-1: through an inherited descriptor (PMI_FD, its default) and through -pmi-port
 * (PMI_PORT + PMI_ID). Skipped only where mpiexec.hydra is not installed; CI installs it
 * (.ci/packages.d/launcher.txt) and there a missing one fails.
 */
@Timeout(120)
class HydraTest {
    private static final int LIMIT_SECONDS = 90;
    private static String hydra;

    @BeforeAll
    static void findHydra() {
        hydra = find("mpiexec.hydra");
        if (hydra == null && "true".equals(System.getenv("CI"))) {
            fail("mpiexec.hydra not found on PATH although CI installs the Debian package mpich");
        }
        Assumptions.assumeTrue(hydra != null,
                "mpiexec.hydra not installed (Debian package mpich): skipping the Hydra PMI-1 tests");
    }

    @Test
    void bootstrapWorksOverPmiFd() throws Exception {
        bootstrapUnderHydra(3, List.of(), "PMI_FD");
    }

    @Test
    void bootstrapWorksOverPmiPort() throws Exception {
        bootstrapUnderHydra(4, List.of("-pmi-port"), "PMI_PORT");
    }

    @Test
    void mpiProgramRunsOverPmiFd() throws Exception {
        mpiRingUnderHydra(3, List.of());
    }

    @Test
    void mpiProgramRunsOverPmiPort() throws Exception {
        mpiRingUnderHydra(4, List.of("-pmi-port"));
    }

    @Test
    void mpiAbortEndsTheHydraJobWithItsCode() throws Exception {
        Result r = hydra(3, List.of(), mpiProbe("abort", "1", "5"));
        assertTrue(r.finished, r.report);
        assertEquals(5, r.status, r.report);
        assertTrue(r.stderr.contains("rank 1 aborts the job (code 5)"), r.report);
    }

    /**
     * MPI_Comm_spawn under Hydra: MPICH's PMI-1 spawn (mcmd=spawn), the parents' port in the
     * children's key-value space; the children run in the info's wdir and both sides use the
     * inter-communicator.
     */
    @Test
    void spawnWorksUnderHydraOverPmiFd() throws Exception {
        spawnUnderHydra(List.of());
    }

    @Test
    void spawnWorksUnderHydraOverPmiPort() throws Exception {
        spawnUnderHydra(List.of("-pmi-port"));
    }

    @Test
    void namesWorkUnderHydra() throws Exception {
        Result r = hydra(2, List.of(), spawnProbe("names"));
        assertTrue(r.finished, r.report);
        assertEquals(0, r.status, r.report);
        assertTrue(r.stdout.contains("names ok"), r.report);
    }

    private static void spawnUnderHydra(List<String> hydraOptions) throws Exception {
        Result r = hydra(2, hydraOptions, spawnProbe("parent", "localhost", "2"));
        assertTrue(r.finished, () -> "mpiexec.hydra did not finish in " + LIMIT_SECONDS + " s\n" + r.report);
        assertEquals(0, r.status, r.report);
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(r.stdout.contains("child rank " + rank + " of 2 ssh=false cwd=/tmp parents=2"), r.report);
            assertTrue(r.stdout.contains("child rank " + rank + " sum of parents=201"), r.report);
            assertTrue(r.stdout.contains("parent rank " + rank + " children=2 sum of children=1"), r.report);
        }
    }

    private static List<String> spawnProbe(String... args) {
        List<String> cmd = new ArrayList<>(JobRun.probeCommand(args));
        cmd.set(cmd.indexOf(BootstrapProbe.class.getName()), SpawnProbe.class.getName());
        return cmd;
    }

    private static void bootstrapUnderHydra(int ranks, List<String> hydraOptions, String via) throws Exception {
        Result r = hydra(ranks, hydraOptions, JobRun.probeCommand("kv"));
        try {
            assertTrue(r.finished, () -> "mpiexec.hydra did not finish in " + LIMIT_SECONDS + " s\n" + r.report);
            assertEquals(0, r.status, r.report);
            Matcher job = Pattern.compile("rank 0 of " + ranks + " ok job=(\\S+) via " + via).matcher(r.stdout);
            assertTrue(job.find(), r.report);
            for (int rank = 1; rank < ranks; rank++) {
                assertTrue(r.stdout.contains("rank " + rank + " of " + ranks + " ok job=" + job.group(1) + " via " + via), r.report);
            }
        } finally {
            // Hydra does not know Verbatim's shm files; remove the probe's markers ourselves.
            Matcher m = Pattern.compile("shm file (\\S+)").matcher(r.stdout);
            while (m.find()) {
                Files.deleteIfExists(Path.of(m.group(1)));
            }
        }
    }

    private static void mpiRingUnderHydra(int ranks, List<String> hydraOptions) throws Exception {
        Result r = hydra(ranks, hydraOptions, mpiProbe("ring"));
        assertTrue(r.finished, () -> "mpiexec.hydra did not finish in " + LIMIT_SECONDS + " s\n" + r.report);
        assertEquals(0, r.status, r.report);
        for (int rank = 0; rank < ranks; rank++) {
            assertTrue(r.stdout.contains("mpi rank " + rank + " of " + ranks + " ring ok"), r.report);
        }
    }

    private static List<String> mpiProbe(String... args) {
        List<String> cmd = new ArrayList<>(JobRun.probeCommand(args));
        cmd.set(cmd.indexOf(BootstrapProbe.class.getName()), MpiProbe.class.getName());
        return cmd;
    }

    private record Result(boolean finished, int status, String stdout, String stderr, String report) {
    }

    private static Result hydra(int ranks, List<String> hydraOptions, List<String> program) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(hydra, "-launcher", "fork", "-n", Integer.toString(ranks)));
        cmd.addAll(hydraOptions);
        cmd.addAll(program);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        // ranks must not think they run under our mpirun
        pb.environment().keySet().removeIf(k -> k.startsWith("PMI_"));
        Process p = pb.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
        boolean done = p.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        String stdout = out.get(10, TimeUnit.SECONDS);
        String stderr = err.get(10, TimeUnit.SECONDS);
        int status = p.isAlive() ? -1 : p.exitValue();
        String report = String.join(" ", cmd) + "\nstatus " + status + "\n--- stdout ---\n" + stdout + "--- stderr ---\n" + stderr;
        return new Result(done, status, stdout, stderr, report);
    }

    private static String drain(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(output lost: " + e + ")";
        }
    }

    private static String find(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            File f = new File(dir, program);
            if (f.canExecute()) {
                return f.getAbsolutePath();
            }
        }
        return null;
    }
}
