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
        runUnderHydra(3, List.of(), "PMI_FD");
    }

    @Test
    void bootstrapWorksOverPmiPort() throws Exception {
        runUnderHydra(4, List.of("-pmi-port"), "PMI_PORT");
    }

    private static void runUnderHydra(int ranks, List<String> hydraOptions, String via) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(hydra, "-launcher", "fork", "-n", Integer.toString(ranks)));
        cmd.addAll(hydraOptions);
        cmd.addAll(JobRun.probeCommand("kv"));
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
        String report = String.join(" ", cmd) + "\n--- stdout ---\n" + stdout + "--- stderr ---\n" + stderr;
        try {
            assertTrue(done, () -> "mpiexec.hydra did not finish in " + LIMIT_SECONDS + " s\n" + report);
            assertEquals(0, p.exitValue(), report);
            Matcher job = Pattern.compile("rank 0 of " + ranks + " ok job=(\\S+) via " + via).matcher(stdout);
            assertTrue(job.find(), report);
            for (int r = 1; r < ranks; r++) {
                assertTrue(stdout.contains("rank " + r + " of " + ranks + " ok job=" + job.group(1) + " via " + via), report);
            }
        } finally {
            // Hydra does not know Verbatim's shm files; remove the probe's markers ourselves.
            Matcher m = Pattern.compile("shm file (\\S+)").matcher(stdout);
            while (m.find()) {
                Files.deleteIfExists(Path.of(m.group(1)));
            }
        }
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
