package org.verbatim.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball, unpacked into an empty directory far from the source tree, with its bin/ on PATH:
 * Ring runs from the shipped examples, and a user program compiles with mpijavac and runs.
 */
@Timeout(300)
class DistributionIT {
    private static final String VERSION = System.getProperty("verbatim.version");
    private static final String HELLO = """
            import mpi.*;

            public class Hello {
                public static void main(String[] args) throws MPIException {
                    MPI.Init(args);
                    int rank = MPI.COMM_WORLD.getRank();
                    int[] token = {42};
                    if (rank == 0) {
                        MPI.COMM_WORLD.send(token, 1, MPI.INT, 1, 0);
                    } else if (rank == 1) {
                        Status s = MPI.COMM_WORLD.recv(token, 1, MPI.INT, 0, 0);
                        System.out.println("got " + token[0] + " from " + s.getSource());
                    }
                    MPI.Finalize();
                }
            }
            """;

    @Test
    void unpackedAnywhereItRunsRingAndAProgramCompiledWithMpijavac(@TempDir Path empty) throws Exception {
        Path tarball = Path.of("target", "verbatim-" + VERSION + ".tar.gz").toAbsolutePath();
        assertTrue(Files.isRegularFile(tarball), tarball + " was not built");
        String[] unpacked = run(empty, Map.of(), "tar", "xzf", tarball.toString());
        assertEquals("0", unpacked[2], () -> String.join("\n", unpacked));
        Path dist = empty.resolve("verbatim-" + VERSION);
        for (String f : List.of("bin/mpirun", "bin/mpijavac", "bin/jdk-home", "bin/verbatim-jars")) {
            assertTrue(Files.isExecutable(dist.resolve(f)), f);
        }
        for (String f : List.of("README.md", "docs/launcher.md", "docs/configuration.md",
                "examples/verbatim-examples.jar", "lib/verbatim-mpi-core-" + VERSION + ".jar",
                "lib/verbatim-launcher-" + VERSION + ".jar", "lib/verbatim-transport-shm-" + VERSION + ".jar")) {
            assertTrue(Files.isRegularFile(dist.resolve(f)), f);
        }
        try (Stream<Path> lib = Files.list(dist.resolve("lib"))) {
            List<String> extra = lib.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith("-sources.jar") || n.endsWith("-javadoc.jar") || n.endsWith("-tests.jar"))
                    .toList();
            assertEquals(List.of(), extra, "lib/ holds only what runs");
        }

        Path work = Files.createDirectories(empty.resolve("work"));
        Map<String, String> env = Map.of("PATH", dist.resolve("bin") + ":/usr/bin:/bin",
                "VERBATIM_JDK", System.getProperty("java.home"), "VERBATIM_LAUNCHER_AOT", "false",
                "HOME", work.toString());
        String[] ring = run(work, env, "bash", "-c",
                "mpirun -np 3 --timeout 120 -cp ../verbatim-" + VERSION + "/examples/verbatim-examples.jar "
                        + "org.verbatim.examples.Ring 2");
        assertEquals("0", ring[2], () -> String.join("\n", ring));
        assertTrue(ring[0].contains("Rank 0 sends 2 to rank 1 (3 ranks in the ring)"), () -> String.join("\n", ring));
        assertTrue(ring[0].contains("Rank 2 exits"), () -> String.join("\n", ring));

        Files.writeString(work.resolve("Hello.java"), HELLO);
        String[] compiled = run(work, env, "bash", "-c", "mpijavac -d classes Hello.java");
        assertEquals("0", compiled[2], () -> String.join("\n", compiled));
        assertTrue(Files.isRegularFile(work.resolve("classes/Hello.class")));
        String[] hello = run(work, env, "bash", "-c", "mpirun -np 2 --timeout 120 -cp classes Hello");
        assertEquals("0", hello[2], () -> String.join("\n", hello));
        assertEquals("got 42 from 0", hello[0].strip(), () -> String.join("\n", hello));
    }

    /** {stdout, stderr, status} of {@code command} run in {@code dir} with exactly {@code env}. */
    private static String[] run(Path dir, Map<String, String> env, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        if (!env.isEmpty()) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        Path out = Files.createTempFile("dist-out", ".txt");
        Path err = Files.createTempFile("dist-err", ".txt");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            return new String[] {Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), p.isAlive() ? "timeout" : Integer.toString(p.exitValue())};
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
