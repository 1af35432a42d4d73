package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The AOT cache's key, location, class-path layout, fallback and concurrent creation. */
@Timeout(60)
class AotCacheTest {
    @TempDir
    Path tmp;

    @Test
    void keyFollowsTheJarsTheJdkAndTheShapingOptions() throws Exception {
        Path a = jar("a.jar", "one");
        Path b = jar("b.jar", "two");
        String java = ProcessHandle.current().info().command().orElseThrow();
        String cp = a + ":" + b;
        String key = AotCache.key(java, cp, List.of());
        assertEquals(16, key.length());
        assertEquals(key, AotCache.key(java, cp, List.of()), "stable");
        assertNotEquals(key, AotCache.key(java, b + ":" + a, List.of()), "order counts");
        assertNotEquals(key, AotCache.key(java, cp, List.of("-XX:+UseSerialGC")), "options count");
        assertNotEquals(key, AotCache.key("/bin/sh", cp, List.of()), "another java");
        Files.setLastModifiedTime(a, FileTime.fromMillis(Files.getLastModifiedTime(a).toMillis() - 5_000));
        String touched = AotCache.key(java, cp, List.of());
        assertNotEquals(key, touched, "a rebuilt jar (new time)");
        Files.writeString(a, "one more");
        assertNotEquals(touched, AotCache.key(java, cp, List.of()), "a rebuilt jar (new size)");
    }

    @Test
    void shapingOptionsAreThoseTheCacheDependsOn() {
        assertEquals(List.of("-XX:+UseSerialGC", "-Xmx1g", "-Xss2m", "--add-modules=jdk.incubator.vector"),
                AotCache.shapingOptions(List.of("-XX:+UseSerialGC", "-Dapp=1", "-Xmx1g", "-ea", "-Xss2m",
                        "-Xlog:gc", "--add-modules=jdk.incubator.vector", "-verbose:gc")));
        assertNull(AotCache.conflictingOption(List.of("-Xmx1g", "-Dx=-XX:AOTCache")));
        for (String o : List.of("-XX:AOTCache=x.aot", "-XX:AOTMode=off", "-Xshare:off", "-XX:SharedArchiveFile=a.jsa",
                "-javaagent:agent.jar", "-agentlib:jdwp=transport=dt_socket")) {
            assertNotNull(AotCache.conflictingOption(List.of(o)), o);
        }
    }

    @Test
    void onlyAClassPathOfJarsCanBeRecorded() throws Exception {
        Path a = jar("a.jar", "x");
        assertNull(AotCache.unusableClassPath(a.toString()));
        Files.createDirectories(tmp.resolve("classes"));
        assertTrue(AotCache.unusableClassPath(a + ":" + tmp.resolve("classes")).contains("not a jar file"));
        assertTrue(AotCache.unusableClassPath(tmp.resolve("missing.jar").toString()).contains("not a jar file"));
    }

    @Test
    void cacheLivesUnderTheUsersCacheDirectory() {
        String home = System.getProperty("user.home");
        assertEquals(Path.of(home, ".cache", "verbatim", "aot"), AotCache.root(Map.of(), Map.of()));
        assertEquals(Path.of("/x/cache/verbatim/aot"), AotCache.root(Map.of(), Map.of("XDG_CACHE_HOME", "/x/cache")));
        assertEquals(Path.of(home, ".cache", "verbatim", "aot"),
                AotCache.root(Map.of(), Map.of("XDG_CACHE_HOME", "relative")), "XDG paths must be absolute");
        assertEquals(Path.of("/y"), AotCache.root(Map.of("verbatim.launcher.aot-dir", "/y"),
                Map.of("XDG_CACHE_HOME", "/x/cache")));
    }

    @Test
    void withACacheTheVerbatimJarsComeFirst() {
        RankCommand rc = new RankCommand("/jdk/bin/java", "/v/launcher.jar:/v/core.jar");
        List<String> program = List.of("-Xmx1g", "-cp", "app.jar:lib", "Main", "a");
        assertEquals(List.of("/jdk/bin/java", "--enable-native-access=ALL-UNNAMED", "-Xmx1g", "-cp",
                "app.jar:lib:/v/launcher.jar:/v/core.jar", "Main", "a"), rc.build(program));
        assertEquals(List.of("/jdk/bin/java", "--enable-native-access=ALL-UNNAMED", "-XX:AOTCache=/c/verbatim.aot",
                "-Xlog:aot=off,cds=off", "-Xmx1g", "-cp", "/v/launcher.jar:/v/core.jar:app.jar:lib", "Main", "a"),
                rc.build(program, Path.of("/c/verbatim.aot")));
        assertEquals(List.of("/jdk/bin/java", "-cp", "x", "Main"), rc.build(List.of("java", "-cp", "x", "Main"),
                Path.of("/c/verbatim.aot")), "the java form is left alone");
        assertNull(RankCommand.shorthand(List.of("java", "-cp", "x", "Main")));
        assertNull(RankCommand.shorthand(List.of("hostname")));
    }

    @Test
    void theTrainingRecordsWithTheSameClassPathAndOnlyRankZeroWrites() {
        RankCommand rc = new RankCommand("/jdk/bin/java", "/v/launcher.jar:/v/core.jar");
        List<String> zero = AotTraining.trainingCommand(rc, List.of("-XX:+UseSerialGC"), 7, Path.of("/c/t.aot"));
        assertEquals(List.of("/jdk/bin/java", "--enable-native-access=ALL-UNNAMED", "-XX:AOTCacheOutput=/c/t.aot",
                "-XX:+UseSerialGC", "-cp", "/v/launcher.jar:/v/core.jar", AotTraining.MAIN, "1", "7"), zero);
        assertFalse(String.join(" ", AotTraining.trainingCommand(rc, List.of(), 7, null)).contains("AOTCache"));
    }

    @Test
    void aCacheWithoutProfilesHasItsOwnKeyAndRecordsNone() {
        List<String> ranks = List.of("-XX:+UseSerialGC", "-Dx=1");
        assertEquals(List.of("-XX:+UseSerialGC"), AotTraining.shaping(ranks, Map.of()));
        List<String> none = AotTraining.shaping(ranks, Map.of("verbatim.launcher.aot-profiles", "false"));
        assertEquals(List.of("-XX:+UseSerialGC", "-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining"), none);
        RankCommand rc = new RankCommand("/jdk/bin/java", "/v/launcher.jar");
        String training = String.join(" ", AotTraining.trainingCommand(rc, none, 7, Path.of("/c/t.aot")));
        assertTrue(training.contains("-XX:AOTCacheOutput=/c/t.aot -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions "
                + "-XX:-AOTRecordTraining -cp"), training);
    }

    @Test
    void aFailedTrainingWarnsOnceAndStartsWithout() throws Exception {
        Path java = fakeJava("exit 3");
        RankCommand rc = new RankCommand(java.toString(), jar("v.jar", "v").toString());
        Map<String, String> config = Map.of("verbatim.launcher.aot-dir", tmp.resolve("aot").toString());
        RankCommand.Shorthand app = RankCommand.shorthand(List.of("-cp", "app.jar", "Main"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertNull(AotTraining.prepare(rc, app, false, config, Map.of(), print(err)));
        String[] lines = err.toString(StandardCharsets.UTF_8).strip().split("\n");
        assertEquals(2, lines.length, err::toString); // "recording ...", then the one warning
        assertTrue(lines[1].startsWith("mpirun: could not record the AOT cache (the training job ended with status 3"),
                lines[1]);
        err.reset();
        assertNull(AotTraining.prepare(rc, app, false, config, Map.of(), print(err)));
        assertEquals("", err.toString(StandardCharsets.UTF_8), "by default a known failure starts quietly");
        assertNull(AotTraining.prepare(rc, app, true, config, Map.of(), print(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("its training failed within the last hour"),
                err::toString);
        Path marker;
        try (var s = Files.walk(tmp.resolve("aot"))) {
            marker = s.filter(p -> p.getFileName().toString().equals(AotCache.FAILED_FILE)).findFirst().orElseThrow();
        }
        Files.setLastModifiedTime(marker, FileTime.fromMillis(System.currentTimeMillis() - AotCache.RETRY_AFTER_MILLIS - 1));
        err.reset();
        assertNull(AotTraining.prepare(rc, app, false, config, Map.of(), print(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("could not record"), "an hour later it tries again");
    }

    @Test
    void theTrainingRunsWithVerbatimsDefaults() {
        Map<String, String> unset = AotTraining.withoutVerbatimSettings(Map.of("VERBATIM_CORE_TRANSPORTS", "ib",
                "VERBATIM_LAUNCHER_AOT_DIR", "/x", "PATH", "/bin", "JAVA_TOOL_OPTIONS", "-Xmx1g"));
        assertEquals(1, unset.size(), unset::toString);
        assertTrue(unset.containsKey("VERBATIM_CORE_TRANSPORTS") && unset.get("VERBATIM_CORE_TRANSPORTS") == null);
    }

    @Test
    void noCacheForBuildDirectoriesOrOwnArchives() throws Exception {
        Path java = fakeJava("exit 0");
        Files.createDirectories(tmp.resolve("classes"));
        Map<String, String> config = Map.of("verbatim.launcher.aot-dir", tmp.resolve("aot").toString());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RankCommand dirs = new RankCommand(java.toString(), tmp.resolve("classes").toString());
        RankCommand.Shorthand app = RankCommand.shorthand(List.of("-cp", "app.jar", "Main"));
        assertNull(AotTraining.prepare(dirs, app, false, config, Map.of(), print(err)));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        assertNull(AotTraining.prepare(dirs, app, true, config, Map.of(), print(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("not a jar file"), err::toString);
        RankCommand jars = new RankCommand(java.toString(), jar("v.jar", "v").toString());
        err.reset();
        assertNull(AotTraining.prepare(jars, RankCommand.shorthand(List.of("-Xshare:off", "-cp", "a.jar", "Main")), true,
                config, Map.of(), print(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-Xshare:off"), err::toString);
        assertFalse(Files.exists(tmp.resolve("aot")), "nothing trained");
    }

    @Test
    void concurrentJobsTrainOnceAndShareTheCache() throws Exception {
        // A java that "records" a cache after a pause and counts its trainings.
        Path count = tmp.resolve("trainings");
        Path java = fakeJava("""
                for a in "$@"; do
                  case "$a" in -XX:AOTCacheOutput=*) sleep 1; echo cache > "${a#-XX:AOTCacheOutput=}"; echo x >> %s ;; esac
                done
                exit 0""".formatted(count));
        RankCommand rc = new RankCommand(java.toString(), jar("v.jar", "v").toString());
        Map<String, String> config = Map.of("verbatim.launcher.aot-dir", tmp.resolve("aot").toString());
        RankCommand.Shorthand app = RankCommand.shorthand(List.of("-cp", "app.jar", "Main"));
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Callable<Path> job = () -> AotTraining.prepare(rc, app, true, config, Map.of(),
                    print(new ByteArrayOutputStream()));
            List<Future<Path>> results = pool.invokeAll(List.of(job, job, job));
            Path first = results.getFirst().get();
            assertNotNull(first);
            for (Future<Path> f : results) {
                assertEquals(first, f.get());
            }
            assertEquals("cache\n", Files.readString(first));
            assertEquals(1, Files.readAllLines(count).size(), "one training");
            try (var files = Files.list(first.getParent())) {
                assertTrue(files.noneMatch(p -> p.getFileName().toString().contains(".tmp-")), "no temporary left");
            }
        } finally {
            pool.shutdownNow();
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertNotNull(AotTraining.prepare(rc, app, true, config, Map.of(), print(err)));
        assertEquals("", err.toString(StandardCharsets.UTF_8), "a present cache is used silently");
    }

    @Test
    void pruningKeepsTheMostRecentlyUsedCaches() throws Exception {
        Path root = tmp.resolve("aot");
        for (int i = 0; i < AotCache.KEEP + 3; i++) {
            Path d = Files.createDirectories(root.resolve("k" + i));
            Files.writeString(d.resolve(AotCache.CACHE_FILE), "c");
            Files.setLastModifiedTime(d, FileTime.fromMillis(1_000_000L * (i + 1)));
        }
        AotCache.prune(root, root.resolve("k0"));
        try (var dirs = Files.list(root)) {
            List<String> left = dirs.map(p -> p.getFileName().toString()).sorted().toList();
            assertEquals(AotCache.KEEP + 1, left.size(), left.toString());
            assertTrue(left.contains("k0"), "the new one stays even if its time is old");
            assertFalse(left.contains("k1"));
        }
    }

    private Path jar(String name, String content) throws Exception {
        Path p = tmp.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    private Path fakeJava(String body) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("jdk/bin"));
        Path java = dir.resolve("java");
        Files.writeString(java, "#!/bin/bash\n" + body + "\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return java;
    }

    private static PrintStream print(ByteArrayOutputStream out) {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }
}
