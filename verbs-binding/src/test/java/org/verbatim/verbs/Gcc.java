package org.verbatim.verbs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Test support: compiles C with gcc into target/ and runs programs, failing loudly on errors. */
public final class Gcc {

    private Gcc() { }

    /** The module directory (surefire runs tests there). */
    public static Path moduleDir() {
        return Path.of(System.getProperty("basedir", "")).toAbsolutePath();
    }

    /** Compiles {@code source} into {@code target/native/<output>} with the given extra flags. */
    public static Path compile(Path source, String output, String... flags) throws IOException, InterruptedException {
        Path dir = moduleDir().resolve("target/native");
        Files.createDirectories(dir);
        Path out = dir.resolve(output);
        var cmd = new ArrayList<>(List.of("gcc", "-O1", "-Wall", "-Werror", "-o", out.toString(), source.toString()));
        cmd.addAll(List.of(flags));
        run(cmd, Map.of());
        return out;
    }

    /** Runs a command with extra environment variables and returns its standard output. */
    public static String run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        Path errors = Files.createTempFile("verbs-test", ".err");
        var pb = new ProcessBuilder(command).redirectError(errors.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean done = p.waitFor(120, TimeUnit.SECONDS);
        String stderr = Files.readString(errors);
        Files.deleteIfExists(errors);
        if (!done || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed (" + (done ? "exit " + p.exitValue() : "timeout")
                    + "):\n" + stdout + stderr);
        }
        return stdout;
    }
}
