package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** bin/mpirun itself, after package (failsafe): the script, the packaged jars and the shorthand. */
@Timeout(120)
class BinMpirunIT {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void runsAJobThroughTheShorthand() throws Exception {
        String[] r = run(ROOT, "-np", "3", "--tag-output", "--timeout", "60",
                "-cp", Path.of("target/test-classes").toAbsolutePath().toString(), BootstrapProbe.class.getName(), "kv");
        assertEquals("0", r[0], () -> String.join("\n", r));
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(r[1].contains("[" + rank + "] rank " + rank + " of 3 ok"), () -> String.join("\n", r));
        }
        for (String line : r[1].split("\n")) {
            if (line.contains("shm file ")) {
                assertTrue(!Files.exists(Path.of(line.substring(line.indexOf("shm file ") + 9))), line);
            }
        }
    }

    @Test
    void mpijavacCompilesAProgramThatMpirunRuns(@TempDir Path work) throws Exception {
        Files.writeString(work.resolve("Ping.java"), """
                import mpi.*;

                public class Ping {
                    public static void main(String[] args) throws MPIException {
                        MPI.Init(args);
                        int[] v = {MPI.COMM_WORLD.getRank() + 40};
                        MPI.COMM_WORLD.allReduce(v, 1, MPI.INT, MPI.SUM);
                        if (MPI.COMM_WORLD.getRank() == 0) {
                            System.out.println("sum " + v[0]);
                        }
                        MPI.Finalize();
                    }
                }
                """);
        Path classes = work.resolve("classes");
        Process javac = new ProcessBuilder("bash", ROOT.resolve("bin/mpijavac").toString(), "-d", classes.toString(),
                work.resolve("Ping.java").toString()).redirectErrorStream(true).start();
        String javacOut = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, javac.waitFor(), javacOut);
        String[] r = run(ROOT, "-np", "2", "--timeout", "60", "-cp", classes.toString(), "Ping");
        assertEquals("0", r[0], () -> String.join("\n", r));
        assertEquals("sum 81", r[1].strip(), () -> String.join("\n", r));

        Process showme = new ProcessBuilder("bash", ROOT.resolve("bin/mpijavac").toString(), "--showme", "-cp", "x",
                "A.java").redirectErrorStream(true).start();
        String line = new String(showme.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, showme.waitFor(), line);
        assertTrue(line.matches("(?s).*/bin/javac -cp x:\\S*/verbatim-mpi-core-[^/]*\\.jar A\\.java\\s*"), line);
    }

    @Test
    void printsUsage() throws Exception {
        String[] r = run(ROOT, "-h");
        assertEquals("0", r[0], () -> String.join("\n", r));
        assertTrue(r[1].contains("Usage: mpirun -np N"), r[1]);
    }

    @Test
    void saysClearlyWhenTheProjectIsNotBuilt(@TempDir Path emptyRoot) throws Exception {
        Files.createDirectories(emptyRoot.resolve("bin"));
        for (String script : List.of("mpirun", "jdk-home", "verbatim-jars")) {
            Files.copy(ROOT.resolve("bin").resolve(script), emptyRoot.resolve("bin").resolve(script));
        }
        String[] r = run(emptyRoot, "-np", "2", "hostname");
        assertEquals("2", r[0], () -> String.join("\n", r));
        assertTrue(r[2].contains("Verbatim is not built") && r[2].contains("mvnw"), r[2]);
    }

    /** Returns {status, stdout, stderr}; without the AOT cache, which AotIT tests. */
    private static String[] run(Path root, String... args) throws IOException, InterruptedException {
        return run(root, Map.of("VERBATIM_LAUNCHER_AOT", "false"), args);
    }

    /** Runs bin/mpirun with {@code env} added; returns {status, stdout, stderr}. */
    static String[] run(Path root, Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", root.resolve("bin/mpirun").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("VERBATIM_JDK", System.getProperty("java.home"));
        pb.environment().putAll(env);
        Path out = Files.createTempFile("mpirun-out", ".txt");
        Path err = Files.createTempFile("mpirun-err", ".txt");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            return new String[] {p.isAlive() ? "timeout" : Integer.toString(p.exitValue()),
                Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8)};
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
