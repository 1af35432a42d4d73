package org.verbatim.launcher;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code mpirun}: starts N local ranks and serves them PMI-1. Run through {@code bin/mpirun},
 * which finds a JDK >= 25 and puts the Verbatim jars on the class path.
 */
public final class Mpirun {
    private Mpirun() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = run(args, System.out, System.err, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = 130;
        }
        System.exit(status);
    }

    /**
     * Runs mpirun with {@code args}; the ranks' output goes to {@code out} and {@code err}, and
     * rank 0 reads this process's stdin if {@code forwardStdin}. Returns the exit status.
     */
    public static int run(String[] args, OutputStream out, OutputStream err, boolean forwardStdin)
            throws InterruptedException {
        PrintStream messages = new PrintStream(err, true, StandardCharsets.UTF_8);
        LaunchOptions options;
        List<String> command;
        try {
            options = LaunchOptions.parse(args);
            if (options.help()) {
                new PrintStream(out, true, StandardCharsets.UTF_8).print(LaunchOptions.USAGE);
                return 0;
            }
            if (options.printConfig()) {
                ConfigPrinter.print(new PrintStream(out, true, StandardCharsets.UTF_8), options.environment());
                if (options.program().isEmpty()) {
                    return 0;
                }
            }
            command = RankCommand.fromSystem().build(options.program());
        } catch (IllegalArgumentException e) {
            messages.println("mpirun: " + e.getMessage());
            return 2;
        }
        try {
            return new Job(options, command, out, err, ShmCleaner.SHM, forwardStdin).run();
        } catch (java.io.IOException e) {
            messages.println("mpirun: " + e.getMessage());
            return 1;
        }
    }
}
