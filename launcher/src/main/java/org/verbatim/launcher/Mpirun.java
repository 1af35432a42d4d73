package org.verbatim.launcher;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

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
        RankCommand rankCommand = RankCommand.fromSystem();
        Map<String, String> config = LauncherSettings.current();
        boolean aot;
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
            command = rankCommand.build(options.program());
            aot = options.aot() != null ? options.aot() : LauncherSettings.AOT.getBoolean(config);
        } catch (IllegalArgumentException e) {
            messages.println("mpirun: " + e.getMessage());
            return 2;
        }
        if (aot) {
            Path cache = aotCache(options, rankCommand, config, messages);
            if (cache != null) {
                command = rankCommand.build(options.program(), cache);
            }
        }
        try {
            return new Job(options, command, out, err, ShmCleaner.SHM, forwardStdin).run();
        } catch (java.io.IOException e) {
            messages.println("mpirun: " + e.getMessage());
            return 1;
        }
    }

    /**
     * The AOT cache for the job's ranks, or null: only the -cp/-jar shorthand gets one (there
     * mpirun lays out the class path the cache needs). Reasons for none are printed when the
     * cache was asked for explicitly (--aot or the setting), failures to make one always.
     */
    private static Path aotCache(LaunchOptions options, RankCommand rankCommand, Map<String, String> config,
            PrintStream messages) throws InterruptedException {
        boolean explicit = options.aot() != null || config.containsKey(LauncherSettings.AOT.name());
        RankCommand.Shorthand shorthand = RankCommand.shorthand(options.program());
        if (shorthand == null) {
            if (explicit && !options.program().isEmpty()) {
                messages.println("mpirun: no AOT cache: it is for the -cp/-jar shorthand, where mpirun lays out "
                        + "the class path; starting without one");
            }
            return null;
        }
        return AotTraining.prepare(rankCommand, shorthand, explicit, config, System.getenv(), messages);
    }
}
