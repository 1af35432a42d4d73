package org.verbatim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared pointer's fetch-and-add hands out disjoint ranges to concurrent users. */
class SharedPointerTest {
    @TempDir
    Path dir;

    @Test
    void concurrentFetchAndAddNeverHandsOutAValueTwice() throws Exception {
        Path counter = SharedPointer.beside(dir.resolve("data"), 42);
        assertEquals("." + "data" + ".2a.shfp", counter.getFileName().toString());
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            SharedPointer p = new SharedPointer(counter);
            threads[t] = new Thread(() -> {
                try {
                    for (int i = 0; i < 200; i++) {
                        seen.add(p.fetchAndAdd(3));
                    }
                    p.close();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(800, seen.size());
        SharedPointer p = new SharedPointer(counter);
        assertEquals(2400, p.get());
        p.set(7);
        assertEquals(7, p.fetchAndAdd(1));
        p.close();
        p.delete();
        assertFalse(Files.exists(counter));
    }

    @Test
    void aMissingCounterReadsZeroAndSettingZeroMakesNoFile() throws Exception {
        Path counter = SharedPointer.beside(dir.resolve("x"), 1);
        SharedPointer p = new SharedPointer(counter);
        p.set(0);
        assertFalse(Files.exists(counter));
        assertEquals(0, p.get());
        p.close();
    }
}
