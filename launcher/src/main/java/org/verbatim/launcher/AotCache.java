package org.verbatim.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where the JDK AOT caches of {@code mpirun --aot} live and what makes one valid.
 *
 * <p>A cache holds the classes (loaded and linked, JEP 483) and the method profiles (JEP 515;
 * unless {@link AotTraining#NO_PROFILES}) of Verbatim's hot path, recorded once by
 * {@link AotTraining} and then given to every rank with
 * {@code -XX:AOTCache}. The JVM accepts a cache only for the same JDK build, for a class path that
 * starts with the one it was recorded with (jars unchanged in size and time), and for compatible
 * options (heap mode, garbage collector, module options): so the cache's directory name is a
 * hash of the JDK, the Verbatim jars (path, size, modification time) and the ranks' JVM options
 * that shape the heap and the compilers ({@link #shapingOptions}); a rebuilt jar, another JDK or
 * other such options make a new key and a new cache. The JVM checks the same things itself and
 * silently starts without a cache it cannot use, so a stale cache costs speed, never correctness.
 *
 * <p>Layout: {@code <root>/<key>/verbatim.aot}, {@code training.log} (the last training's output)
 * and {@code lock}; the root is {@code $XDG_CACHE_HOME/verbatim/aot} or
 * {@code ~/.cache/verbatim/aot} unless {@code verbatim.launcher.aot-dir} says otherwise.
 */
final class AotCache {
    /** Bumped when the training or the layout changes in a way the key would not see. */
    static final String FORMAT = "verbatim-aot-1";
    static final String CACHE_FILE = "verbatim.aot";
    static final String LOG_FILE = "training.log";
    static final String FAILED_FILE = "failed";
    /** How long a failed training keeps later jobs from training again. */
    static final long RETRY_AFTER_MILLIS = 3_600_000;
    /** Caches kept per root; the least recently used beyond this are removed after a new one is made. */
    static final int KEEP = 6;

    private final Path dir;

    AotCache(Path dir) {
        this.dir = dir;
    }

    Path dir() {
        return dir;
    }

    Path cacheFile() {
        return dir.resolve(CACHE_FILE);
    }

    Path logFile() {
        return dir.resolve(LOG_FILE);
    }

    /** Marks a training that failed, so that later jobs start at once instead of training again. */
    Path failedFile() {
        return dir.resolve(FAILED_FILE);
    }

    /**
     * True if a training of this cache failed less than {@link #RETRY_AFTER_MILLIS} ago: jobs in
     * that time start without a cache at once; later ones try again (the failure may have been
     * a machine too busy to finish the training in time).
     */
    boolean failedRecently() {
        try {
            return System.currentTimeMillis() - Files.getLastModifiedTime(failedFile()).toMillis() < RETRY_AFTER_MILLIS;
        } catch (IOException e) {
            return false; // no marker
        }
    }

    /** The caches' root directory from the configuration and the environment. */
    static Path root(Map<String, String> config, Map<String, String> env) {
        String configured = LauncherSettings.AOT_DIR.get(config).trim();
        if (!configured.isEmpty()) {
            return Path.of(configured);
        }
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("verbatim").resolve("aot");
    }

    /**
     * Why a class path cannot be recorded, or null: the JVM archives classes from jar files only
     * (a non-empty directory on the class path stops the recording), so a class path of build
     * directories (a test run from the IDE or Maven) gets no cache.
     */
    static String unusableClassPath(String classPath) {
        if (classPath == null || classPath.isEmpty()) {
            return "no Verbatim class path";
        }
        for (String entry : classPath.split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (!entry.endsWith(".jar") || !Files.isRegularFile(p)) {
                return "the Verbatim class path has " + entry + ", not a jar file";
            }
        }
        return null;
    }

    /**
     * Why the user's JVM options exclude an mpirun cache, or null: options that choose their own
     * AOT cache or CDS archive, and agents, which may rewrite classes (the JVM would not use the
     * cache then anyway).
     */
    static String conflictingOption(List<String> jvmOptions) {
        for (String o : jvmOptions) {
            if (o.startsWith("-XX:AOT") || o.startsWith("-XX:SharedArchiveFile") || o.startsWith("-Xshare")
                    || o.startsWith("-XX:ArchiveClassesAtExit") || o.contains("AutoCreateSharedArchive")
                    || o.startsWith("-javaagent") || o.startsWith("-agent")) {
                return "the JVM option " + o + " chooses its own (or no) archive";
            }
        }
        return null;
    }

    /**
     * The user's JVM options that the training must run with too, because the cache records or
     * depends on them: heap size and mode, garbage collector, compiler settings (every
     * {@code -XX:} option and {@code -Xm*}/{@code -Xss}) and the module options. Others
     * ({@code -D}, {@code -ea}, {@code -Xlog}, {@code -verbose}) do not matter to the cache.
     */
    static List<String> shapingOptions(List<String> jvmOptions) {
        List<String> out = new ArrayList<>();
        for (String o : jvmOptions) {
            if (o.startsWith("-XX:") || o.startsWith("-Xm") || o.startsWith("-Xss") || o.startsWith("-Xint")
                    || o.startsWith("-Xcomp") || o.startsWith("--add-modules") || o.startsWith("--enable-native-access")) {
                out.add(o);
            }
        }
        return out;
    }

    /**
     * The cache key: 16 hex digits of a SHA-256 over the format, the JDK (the java executable's
     * real path and its {@code lib/modules} image's size and time), each Verbatim jar (path,
     * size, modification time) and the shaping JVM options.
     */
    static String key(String javaExecutable, String verbatimClassPath, List<String> shapingOptions)
            throws IOException {
        StringBuilder sb = new StringBuilder(FORMAT).append('\n');
        Path java = Path.of(javaExecutable).toRealPath();
        sb.append("java ").append(java).append('\n');
        Path modules = java.getParent().getParent().resolve("lib").resolve("modules");
        sb.append("modules ").append(describe(modules)).append('\n');
        for (String entry : verbatimClassPath.split(File.pathSeparator)) {
            sb.append("jar ").append(Path.of(entry).toAbsolutePath()).append(' ').append(describe(Path.of(entry)))
                    .append('\n');
        }
        for (String o : shapingOptions) {
            sb.append("option ").append(o).append('\n');
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    private static String describe(Path file) throws IOException {
        if (!Files.exists(file)) {
            return "absent";
        }
        return Files.size(file) + " " + Files.getLastModifiedTime(file).toMillis();
    }

    /** True if the cache exists; then marks it used now (pruning keeps the recently used ones). */
    boolean present() {
        Path f = cacheFile();
        if (!Files.isRegularFile(f)) {
            return false;
        }
        try {
            Files.setLastModifiedTime(dir, FileTime.fromMillis(System.currentTimeMillis()));
        } catch (IOException e) {
            // a read-only cache is still a cache
        }
        return true;
    }

    /**
     * Takes this cache's lock, waiting up to {@code waitMillis} for another mpirun that is making
     * the same cache; null if it did not come in time. Close the lock's channel to release it.
     */
    FileLock lock(long waitMillis) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        FileChannel channel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        long deadline = System.currentTimeMillis() + waitMillis;
        try {
            while (true) {
                FileLock lock;
                try {
                    lock = channel.tryLock();
                } catch (OverlappingFileLockException sameJvm) {
                    lock = null; // another thread of this JVM holds it (file locks are per process)
                }
                if (lock != null) {
                    return lock;
                }
                if (System.currentTimeMillis() >= deadline) {
                    channel.close();
                    return null;
                }
                Thread.sleep(100);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** A fresh name beside the cache for the training to write; renamed into place when complete. */
    Path temporaryFile() {
        return dir.resolve(CACHE_FILE + ".tmp-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
    }

    /**
     * Removes the least recently used caches under {@code root} beyond {@link #KEEP} (each is
     * some 20 MB, and every rebuild of the jars makes a new one). A JVM that has a removed cache
     * mapped keeps it until it ends.
     */
    static void prune(Path root, Path keep) {
        List<Path> dirs;
        try (Stream<Path> s = Files.list(root)) {
            dirs = new ArrayList<>(s.filter(Files::isDirectory).toList());
        } catch (IOException e) {
            return;
        }
        dirs.sort(Comparator.comparing(AotCache::lastUsed).reversed());
        for (int i = KEEP; i < dirs.size(); i++) {
            Path d = dirs.get(i);
            if (!d.equals(keep)) {
                deleteTree(d);
            }
        }
    }

    private static FileTime lastUsed(Path dir) {
        try {
            return Files.getLastModifiedTime(dir);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // best effort: another mpirun may be using it
        }
    }
}
