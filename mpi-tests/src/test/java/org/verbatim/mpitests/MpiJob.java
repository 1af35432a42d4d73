package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.verbatim.launcher.Mpirun;

/**
 * One job run in-process through {@link Mpirun#run} with a hard time limit, every rank's output
 * captured; {@link #report()} goes into every assertion message so a failure shows all of it.
 */
record MpiJob(int status, String out, String err, Duration elapsed, List<String> shmLeft) {
    /** mpirun's exit status when --timeout ends a job. */
    static final int TIMEOUT_STATUS = 124;

    /** Runs {@code program} on {@code ranks} ranks; {@code env} holds VAR=VALUE pairs for -x. */
    static MpiJob run(int ranks, int timeoutSeconds, List<String> env, String heap,
                      Class<?> program, String... args) throws InterruptedException {
        return run(ranks, timeoutSeconds, env, heap, System.getProperty("java.class.path"),
                program, args);
    }

    /** As {@link #run(int, int, List, String, Class, String...)} on class path {@code classPath}. */
    static MpiJob run(int ranks, int timeoutSeconds, List<String> env, String heap,
                      String classPath, Class<?> program, String... args)
            throws InterruptedException {
        List<String> a = new ArrayList<>(List.of("-np", Integer.toString(ranks), "--timeout",
                Integer.toString(timeoutSeconds)));
        for (String e : env) {
            a.add("-x");
            a.add(e);
        }
        a.addAll(List.of(System.getProperty("java.home") + "/bin/java",
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Xss2m", "-Xmx" + heap, "-XX:MaxDirectMemorySize=" + heap,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", classPath, program.getName()));
        a.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int status = Mpirun.run(a.toArray(String[]::new), out, err, false);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        return new MpiJob(status, out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8), elapsed, shmFilesOfThisJvm());
    }

    /**
     * The launcher names a job {@code vb<its pid>x<random>} and the shm transport its files
     * {@code verbatim-<job>-*}: every job of this JVM is ours, and none may leave a file.
     */
    static List<String> shmFilesOfThisJvm() {
        String prefix = "verbatim-vb" + ProcessHandle.current().pid() + "x";
        try (Stream<Path> files = Files.list(Path.of("/dev/shm"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix))
                    .toList();
        } catch (IOException e) {
            return List.of("cannot list /dev/shm: " + e);
        }
    }

    /** Asserts a clean run: status 0, every rank's summary with no failure, nothing left over. */
    MpiJob assertAllPassed(int ranks, int minimumPassesPerRank) {
        assertEquals(0, status, this::report);
        assertTrue(!out.contains("FAIL rank"), this::report);
        for (int i = 0; i < ranks; i++) {
            int r = i;
            Matcher m = Pattern.compile("SUMMARY rank " + r + " passed=(\\d+) failed=(\\d+)")
                    .matcher(out);
            assertTrue(m.find(), () -> "no summary from rank " + r + "\n" + report());
            int passed = Integer.parseInt(m.group(1));
            assertEquals("0", m.group(2), this::report);
            assertTrue(passed >= minimumPassesPerRank, () -> "rank " + r + " ran only " + passed
                    + " checks (expected at least " + minimumPassesPerRank + ")\n" + report());
        }
        assertNoShmLeft();
        return this;
    }

    void assertNoShmLeft() {
        assertTrue(shmLeft.isEmpty(), () -> "left in /dev/shm: " + shmLeft + "\n" + report());
    }

    /**
     * Everything, for assertion messages: status, time, every rank's stderr, the lines of stdout
     * that are not PASS lines, then all of stdout. stderr and failures come first because a CI
     * log keeps only part of a long message, and the cause is nearly always in them.
     */
    String report() {
        StringBuilder notPassed = new StringBuilder();
        out.lines().filter(l -> !l.startsWith("PASS "))
                .forEach(l -> notPassed.append(l).append('\n'));
        return "mpirun status " + status + " after " + elapsed.toMillis() + " ms\n"
                + "--- stderr ---\n" + err + "--- stdout without PASS lines ---\n" + notPassed
                + "--- stdout ---\n" + out;
    }
}
