package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/mpirun --aot end to end (failsafe, after package): of two jobs started at once without a
 * cache one records it and the other waits for it, a later job reuses it, and in both every rank's JVM reports that it runs on the cache and loads
 * Verbatim's classes from it while the program's own class comes from its class path.
 */
@Timeout(150)
class AotIT {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void firstJobRecordsTheCacheAndTheNextReusesIt(@TempDir Path cacheRoot) throws Exception {
        Map<String, String> env = Map.of("VERBATIM_LAUNCHER_AOT_DIR", cacheRoot.toString(),
                "VERBATIM_LAUNCHER_AOT_TRAINING_SECONDS", "2");
        // The jobs skip MPI_Init's warm-up (seconds on a busy machine); the training keeps it.
        String[] args = {"-np", "2", "--aot", "--tag-output", "--timeout", "60", "-x", "VERBATIM_CORE_WARMUP=off",
            "-Xlog:aot=info", "-Xlog:class+load=info",
            "-cp", Path.of("target/test-classes").toAbsolutePath().toString(), MpiProbe.class.getName()};
        // Two jobs at once find no cache: one records it, the other waits for it; both use it.
        CompletableFuture<String[]> other = CompletableFuture.supplyAsync(() -> {
            try {
                return BinMpirunIT.run(ROOT, env, args);
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
        String[] first = BinMpirunIT.run(ROOT, env, args);
        String[] concurrent = other.get();
        for (String[] r : List.of(first, concurrent)) {
            assertEquals("0", r[0], () -> String.join("\n", r));
            assertRanksUsedTheCache(r);
        }
        assertEquals(1, Stream.of(first[2], concurrent[2]).filter(e -> e.contains("mpirun: recording the AOT cache"))
                .count(), () -> first[2] + "\n" + concurrent[2]);
        List<Path> caches;
        try (Stream<Path> s = Files.walk(cacheRoot)) {
            caches = s.filter(p -> p.getFileName().toString().equals(AotCache.CACHE_FILE)).toList();
        }
        assertEquals(1, caches.size(), caches::toString);

        String[] second = BinMpirunIT.run(ROOT, env, args);
        assertEquals("0", second[0], () -> String.join("\n", second));
        assertFalse(second[2].contains("recording the AOT cache"), second[2]);
        assertRanksUsedTheCache(second);
        assertTrue(second[1].contains("Opened AOT cache " + caches.getFirst()), "the same cache file");
    }

    @Test
    void noAotStartsWithoutACache(@TempDir Path cacheRoot) throws Exception {
        String[] r = BinMpirunIT.run(ROOT, Map.of("VERBATIM_LAUNCHER_AOT_DIR", cacheRoot.toString()),
                "-np", "2", "--no-aot", "--tag-output", "--timeout", "60", "-x", "VERBATIM_CORE_WARMUP=off",
                "-Xlog:aot=info",
                "-cp", Path.of("target/test-classes").toAbsolutePath().toString(), MpiProbe.class.getName());
        assertEquals("0", r[0], () -> String.join("\n", r));
        assertFalse(r[1].contains("Opened AOT cache"), r[1]);
        try (Stream<Path> s = Files.list(cacheRoot)) {
            assertEquals(0, s.count(), "nothing recorded");
        }
    }

    private static void assertRanksUsedTheCache(String[] r) {
        for (int rank = 0; rank < 2; rank++) {
            String tag = "[" + rank + "] ";
            assertTrue(r[1].contains(tag + "mpi rank " + rank + " of 2 ring ok"), r[1]);
            assertTrue(has(r[1], tag, "Using AOT-linked classes: true"), "rank " + rank + " on the cache");
            assertTrue(has(r[1], tag, "org.verbatim.runtime.MpiProcess source: shared objects file"),
                    "rank " + rank + " loads Verbatim's classes from the cache");
            assertTrue(has(r[1], tag, MpiProbe.class.getName() + " source: file:"),
                    "rank " + rank + " loads the program's class from its class path");
        }
    }

    private static boolean has(String out, String tag, String text) {
        return out.lines().anyMatch(l -> l.startsWith(tag) && l.contains(text));
    }
}
