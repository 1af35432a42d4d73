package org.verbatim.verbs.generator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the external tools the generator needs (castxml, gcc) and returns their standard output. */
final class Tools {

    private Tools() { }

    static String run(List<String> command) throws IOException, InterruptedException {
        Process p;
        java.nio.file.Path errors = java.nio.file.Files.createTempFile("verbs-generator", ".err");
        try {
            p = new ProcessBuilder(command).redirectError(errors.toFile()).start();
        } catch (IOException e) {
            throw new IOException("cannot run " + command.getFirst()
                    + " (install it: see .ci/packages.d/verbs.txt)", e);
        }
        var stdout = p.getInputStream().readAllBytes();
        boolean done = p.waitFor(120, TimeUnit.SECONDS);
        String stderr = java.nio.file.Files.readString(errors);
        java.nio.file.Files.deleteIfExists(errors);
        if (!done || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed:\n" + stderr);
        }
        return new String(stdout, StandardCharsets.UTF_8);
    }
}
