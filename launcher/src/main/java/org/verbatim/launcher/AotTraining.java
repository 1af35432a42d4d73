package org.verbatim.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Finds or makes the AOT cache for a job's ranks ({@code mpirun --aot}, on by default).
 *
 * <p>A missing cache is recorded by a 2-rank job of {@link org.verbatim.launcher.training.Training}
 * run through the same {@link Job} code as any job: rank 0 runs with
 * {@code -XX:AOTCacheOutput=<temporary file>} (JDK 25's one-step training, JEP 514; the JVM
 * assembles the cache when the rank exits), rank 1 without (one writer per file). The file is
 * checked by starting a JVM with {@code -XX:AOTMode=on}, which refuses a cache it cannot map, and
 * renamed into place: a concurrent mpirun waits on the cache's lock and then finds it, and no JVM
 * ever sees half a file. Any failure leaves a marker (later jobs start at once, without a cache),
 * prints one line and the job starts without a cache.
 */
final class AotTraining {
    static final String MAIN = "org.verbatim.launcher.training.Training";
    /** Longest a training job may take; on two busy cores it took 9-16 s. */
    static final long TIMEOUT_SECONDS = 120;
    /** Longest a job waits for another mpirun that is recording the same cache. */
    static final long LOCK_WAIT_MILLIS = 180_000;

    private AotTraining() {
    }

    /**
     * The cache file the ranks of {@code shorthand} should load, or null to start them without
     * one. {@code explicit}: {@code --aot} was given (or the setting), so say why when there is
     * none; by default only failures of a training are reported.
     */
    static Path prepare(RankCommand rc, RankCommand.Shorthand shorthand, boolean explicit, Map<String, String> config,
            Map<String, String> env, PrintStream messages) throws InterruptedException {
        String reason = AotCache.unusableClassPath(rc.verbatimClassPath());
        if (reason == null) {
            reason = AotCache.conflictingOption(shorthand.jvmOptions());
        }
        if (reason != null) {
            if (explicit) {
                messages.println("mpirun: no AOT cache: " + reason + "; starting without one");
            }
            return null;
        }
        List<String> shaping = shaping(shorthand.jvmOptions(), config);
        Path root = AotCache.root(config, env);
        AotCache cache;
        try {
            cache = new AotCache(root.resolve(AotCache.key(rc.javaExecutable(), rc.verbatimClassPath(), shaping)));
        } catch (IOException | RuntimeException e) {
            messages.println("mpirun: no AOT cache: " + e.getMessage() + "; starting without one");
            return null;
        }
        if (cache.present()) {
            return cache.cacheFile();
        }
        if (cache.failedRecently()) {
            if (explicit) {
                messages.println("mpirun: no AOT cache: its training failed within the last hour (see "
                        + cache.logFile() + "; remove " + cache.dir() + " to try again now); starting without one");
            }
            return null;
        }
        FileLock lock;
        try {
            lock = cache.lock(LOCK_WAIT_MILLIS);
        } catch (IOException e) {
            messages.println("mpirun: no AOT cache: cannot create " + cache.dir() + ": " + e.getMessage()
                    + "; starting without one");
            return null;
        }
        if (lock == null) {
            messages.println("mpirun: no AOT cache: another mpirun has been recording " + cache.dir()
                    + " for " + LOCK_WAIT_MILLIS / 1000 + " s; starting without one");
            return null;
        }
        try (var channel = lock.channel()) {
            if (cache.present()) {
                return cache.cacheFile(); // made by the mpirun we waited for
            }
            if (cache.failedRecently()) {
                return null;
            }
            String failure = record(rc, shaping, LauncherSettings.AOT_TRAINING_SECONDS.getInt(config), cache, messages);
            if (failure == null) {
                AotCache.prune(root, cache.dir());
                return cache.cacheFile();
            }
            messages.println("mpirun: could not record the AOT cache (" + failure + "; see " + cache.logFile()
                    + "); starting without it");
            try {
                Files.writeString(cache.failedFile(), failure + "\n");
            } catch (IOException e) {
                // the next job tries again
            }
            return null;
        } catch (IOException e) {
            messages.println("mpirun: no AOT cache: " + e.getMessage() + "; starting without one");
            return null;
        }
    }

    /** Runs the training job and puts the cache in place; returns null, or what went wrong. */
    private static String record(RankCommand rc, List<String> shaping, int budgetSeconds, AotCache cache,
            PrintStream messages)
            throws InterruptedException, IOException {
        Path temporary = cache.temporaryFile();
        long start = System.nanoTime();
        messages.println("mpirun: recording the AOT cache of Verbatim's classes and profiles in " + cache.dir()
                + " (once for these jars, JDK and JVM options; this takes seconds)");
        try (OutputStream log = Files.newOutputStream(cache.logFile())) {
            int status = runTraining(rc, shaping, budgetSeconds, temporary, log);
            if (status != 0) {
                return "the training job ended with status " + status;
            }
            if (!Files.isRegularFile(temporary) || Files.size(temporary) == 0) {
                return "the training wrote no cache";
            }
            String check = check(rc, shaping, temporary, log);
            if (check != null) {
                return check;
            }
            Files.move(temporary, cache.cacheFile(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            log.write(String.format("mpirun: AOT cache recorded in %.1f s%n", (System.nanoTime() - start) / 1e9)
                    .getBytes(StandardCharsets.UTF_8));
            return null;
        } finally {
            Files.deleteIfExists(temporary);
            Files.deleteIfExists(Path.of(temporary + ".config")); // the JVM's own temporary, if it left it
        }
    }

    /** The 2-rank training job, its output to {@code log}; returns its status. */
    static int runTraining(RankCommand rc, List<String> shaping, int budgetSeconds, Path output, OutputStream log)
            throws InterruptedException, IOException {
        // Unbound: pinned ranks crawl when a third busy process holds one of their cores, and
        // where the ranks ran does not change what the cache records.
        LaunchOptions options = LaunchOptions.local(2, true, withoutVerbatimSettings(System.getenv()),
                TIMEOUT_SECONDS, LaunchOptions.Binding.NONE);
        Job job = new Job(options, rank -> trainingCommand(rc, shaping, budgetSeconds, rank == 0 ? output : null), log, log,
                ShmCleaner.SHM, false);
        return job.run();
    }

    /**
     * The training runs with Verbatim's defaults (shm, default limits), whatever mpirun's own
     * environment says: a VERBATIM_* variable meant for the job (VERBATIM_CORE_TRANSPORTS=ib, a
     * mistyped value) must not fail the training. Null values tell {@link Job} to remove them.
     */
    static Map<String, String> withoutVerbatimSettings(Map<String, String> environment) {
        Map<String, String> unset = new java.util.HashMap<>();
        for (String name : environment.keySet()) {
            if (name.startsWith("VERBATIM_") && !name.startsWith("VERBATIM_LAUNCHER_")) {
                unset.put(name, null);
            }
        }
        return unset;
    }

    /**
     * With {@code verbatim.launcher.aot-profiles=false}, among the shaping options (so in the
     * cache's key and the training's command line): the recording leaves out the training's
     * method profiles, and the cache holds the classes only, loaded and linked. The profiles,
     * replayed in every rank, make the first messages faster (over tcp most) and a derived
     * datatype's pack slower (docs/launcher.md, "Warm start").
     */
    static final List<String> NO_PROFILES = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining");

    /** The options the cache depends on: the ranks' shaping ones, and {@link #NO_PROFILES} if so set. */
    static List<String> shaping(List<String> jvmOptions, Map<String, String> config) {
        List<String> shaping = new ArrayList<>(AotCache.shapingOptions(jvmOptions));
        if (!LauncherSettings.AOT_PROFILES.getBoolean(config)) {
            shaping.addAll(NO_PROFILES);
        }
        return shaping;
    }

    /** A training rank: the ranks' JVM options, the Verbatim class path alone, the Training class. */
    static List<String> trainingCommand(RankCommand rc, List<String> shaping, int budgetSeconds, Path output) {
        List<String> cmd = new ArrayList<>();
        cmd.add(rc.javaExecutable());
        cmd.add(RankCommand.NATIVE_ACCESS);
        if (output != null) {
            cmd.add("-XX:AOTCacheOutput=" + output);
        }
        cmd.addAll(shaping);
        cmd.add("-cp");
        cmd.add(rc.verbatimClassPath());
        cmd.add(MAIN);
        cmd.add("1");
        cmd.add(Integer.toString(budgetSeconds));
        return cmd;
    }

    /**
     * Starts a JVM with the ranks' options and {@code -XX:AOTMode=on}, which ends with an error
     * when the cache cannot be used; returns null if it can, else why not.
     */
    private static String check(RankCommand rc, List<String> shaping, Path file, OutputStream log)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(rc.javaExecutable(), RankCommand.NATIVE_ACCESS,
                "-XX:AOTMode=on", "-XX:AOTCache=" + file));
        cmd.addAll(shaping);
        cmd.addAll(List.of("-cp", rc.verbatimClassPath(), "-version"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().transferTo(log);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "the JVM did not start with the new cache within 60 s";
        }
        return p.exitValue() == 0 ? null : "a JVM with -XX:AOTMode=on refused the new cache";
    }
}
