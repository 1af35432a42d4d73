package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a user reads when something goes wrong: one clear line, not a stack trace per rank. */
@Timeout(120)
class DiagnosticsTest {

    @Test
    void aFatalErrorIsPrintedOnceByItsRank() throws Exception {
        JobRun run = JobRun.mpirun(args(2, List.of(), "fatal", "1"));
        assertEquals(6, run.status(), run::report); // MPI_ERR_RANK
        List<String> lines = lines(run.err(), "MPI_Send");
        assertEquals(1, lines.size(), run::report);
        assertTrue(lines.get(0).startsWith("[verbatim] rank 1 aborts the job (code 6): MPI_Send: "), run::report);
        assertFalse(run.err().contains("\tat "), run::report);
    }

    @Test
    void aBadValueIsOneLineNamingTheSettingAndWhatItAllows() throws Exception {
        JobRun run = JobRun.mpirun(args(3, List.of("-x", "VERBATIM_CORE_IDLE=sleepy"), "ring"));
        assertEquals(78, run.status(), run::report);
        assertEquals(List.of("verbatim: VERBATIM_CORE_IDLE=sleepy is not valid for verbatim.core.idle; "
                + "allowed: one of spin, spin-yield, yield, backoff, block, auto"), lines(run.err(), ""), run::report);
    }

    @Test
    void aBadSizeNamesTheSetting() throws Exception {
        JobRun run = JobRun.mpirun(args(2, List.of("-x", "VERBATIM_CORE_EAGER_LIMIT=lots"), "ring"));
        assertEquals(78, run.status(), run::report);
        assertEquals(List.of("verbatim: VERBATIM_CORE_EAGER_LIMIT=lots is not valid for verbatim.core.eager-limit; "
                + "allowed: a whole number with an optional k, m or g suffix (for example 64k)"),
                lines(run.err(), ""), run::report);
    }

    @Test
    void anUnknownVariableIsWarnedAboutOnceWithTheClosestName() throws Exception {
        JobRun run = JobRun.mpirun(args(2, List.of("-x", "VERBATIM_CORE_EAGER_LIMT=32k"), "ring"));
        assertEquals(0, run.status(), run::report);
        assertEquals(List.of("verbatim: warning: VERBATIM_CORE_EAGER_LIMT is not a Verbatim setting; "
                + "did you mean VERBATIM_CORE_EAGER_LIMIT?"), lines(run.err(), "warning"), run::report);
    }

    @Test
    void aClassPathWithoutTheShmTransportFailsAtInitNamingTheModule() throws Exception {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !e.contains("transport-shm") && !e.contains("transport-tcp"))
                .collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(JobRun.probeCommand("ring"));
        command.set(command.indexOf(System.getProperty("java.class.path")), classPath);
        command.set(command.indexOf(BootstrapProbe.class.getName()), MpiProbe.class.getName());
        List<String> a = new ArrayList<>(List.of("-np", "2", "--timeout", "60"));
        a.addAll(command);
        JobRun run = JobRun.mpirun(a.toArray(String[]::new));
        assertEquals(1, run.status(), run::report);
        List<String> lines = lines(run.err(), "MPI_Init");
        assertFalse(lines.isEmpty(), run::report);
        String line = lines.get(0);
        assertTrue(line.matches("\\[verbatim] rank [01] aborts the job \\(code 1\\): MPI_Init: no transport reaches "
                + "rank [01] on this host \\(opened: \\[self]\\): the shared-memory transport is not on the class "
                + "path \\(found: .*\\); add the module verbatim-transport-shm .*"), line);
        assertFalse(run.err().contains("\tat "), run::report);
    }

    @Test
    void ctrlCEndsTheJobWithOneLineSayingItWasInterrupted() throws Exception {
        // A process started in the background by a non-interactive shell (nohup ... &) has SIGINT
        // ignored, and mpirun inherits that: no Ctrl-C can reach it, as in a terminal it would.
        assumeFalse(sigintIgnored(), "SIGINT is ignored in this process (started in the background)");
        Path err = Files.createTempFile("ctrl-c", ".err");
        Path out = Files.createTempFile("ctrl-c", ".out");
        List<String> cmd = new ArrayList<>(List.of("setsid", JobRun.javaExecutable(), "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Mpirun.class.getName()));
        cmd.addAll(List.of(args(2, List.of(), "linger")));
        Process mpirun = new ProcessBuilder(cmd).redirectError(err.toFile()).redirectOutput(out.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (lines(Files.readString(out), "linger rank").size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(2, lines(Files.readString(out), "linger rank").size(), () -> read(out) + read(err));
            // A terminal's Ctrl-C: SIGINT to the whole foreground process group, mpirun and ranks.
            Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + mpirun.pid()).start();
            assertEquals(0, kill.waitFor());
            assertTrue(mpirun.waitFor(30, TimeUnit.SECONDS), () -> read(err));
            assertEquals(130, mpirun.exitValue(), () -> read(err));
            assertEquals(List.of("mpirun: interrupted (SIGINT, Ctrl-C); ending the job"), lines(read(err), ""),
                    () -> read(err));
        } finally {
            mpirun.descendants().forEach(ProcessHandle::destroyForcibly);
            mpirun.destroyForcibly();
            Files.deleteIfExists(err);
            Files.deleteIfExists(out);
        }
    }

    /** Whether SIGINT is ignored here (bit 2 of /proc/self/status's SigIgn mask); false off Linux. */
    private static boolean sigintIgnored() throws java.io.IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & 0x2) != 0;
            }
        }
        return false;
    }

    private static String[] args(int ranks, List<String> options, String... probeArgs) {
        List<String> a = new ArrayList<>(List.of("-np", Integer.toString(ranks), "--timeout", "60"));
        a.addAll(options);
        List<String> probe = new ArrayList<>(JobRun.probeCommand(probeArgs));
        probe.set(probe.indexOf(BootstrapProbe.class.getName()), MpiProbe.class.getName());
        a.addAll(probe);
        return a.toArray(String[]::new);
    }

    /** The non-blank lines of {@code text} that contain {@code part}. */
    private static List<String> lines(String text, String part) {
        return text.lines().filter(l -> !l.isBlank() && l.contains(part)).toList();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "(" + e + ")";
        }
    }
}
