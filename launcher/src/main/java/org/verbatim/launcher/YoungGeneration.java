package org.verbatim.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The ranks' first young generation ({@code verbatim.launcher.young-gen}): {@code -XX:NewSize}
 * for the JVMs of the -cp/-jar shorthand.
 *
 * <p>Why: a rank bound to one core runs the serial collector, whose young generation starts at
 * a third of the initial heap (1/64 of the host's memory: 116 MiB of young generation on a 24 GiB
 * host). Until the first collection every allocation lands on a page of the heap that was never
 * touched, so each new 4 KiB page is a page fault (about 2 us in a virtual machine). A window of
 * nonblocking messages allocates the two {@code Request}s the API returns per message, so its
 * sender paid those faults for its first ~3 million messages: 52-58 ns per {@code iSend} before
 * the first collection and 35-41 ns after it, in the same run (docs/benchmarks.md, "The window's
 * first 100 MB of heap"). With a small first young generation the collection comes after a few
 * MiB, and from then on the young generation's pages are already mapped (a young collection of
 * short-lived objects costs about 0.2 ms here). Only the first size is set, not a cap: the serial
 * and parallel collectors still grow the young generation with the heap, and G1 treats it as a
 * lower bound of its own sizing.
 *
 * <p>Left out where the program decides the matter itself: its own young-generation options
 * (-Xmn, NewSize, MaxNewSize, NewRatio), a heap smaller than {@value #MIN_HEAP_MIB} MiB (-Xmx or
 * -Xms, where the JVM would warn about the size), or a collector other than serial, parallel or G1.
 */
final class YoungGeneration {
    /** Heaps smaller than this (MiB) keep the JVM's own young sizing. */
    static final long MIN_HEAP_MIB = 64;

    private YoungGeneration() {
    }

    /**
     * The options to add before the program's own JVM options: {@code -XX:NewSize=<size>}, or none
     * when {@code size} is "off" or the program's options decide its young generation.
     */
    static List<String> options(String size, List<String> userJvmOptions) {
        String s = size.trim().toLowerCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        if (s.equals("off") || s.isEmpty()) {
            return out;
        }
        if (!s.matches("[0-9]+[kmg]?")) {
            throw new IllegalArgumentException(LauncherSettings.YOUNG_GEN.name()
                    + ": expected a size such as 16m, or off, got " + size);
        }
        if (userJvmOptions.stream().anyMatch(YoungGeneration::decidesIt)) {
            return out;
        }
        out.add("-XX:NewSize=" + s);
        return out;
    }

    private static boolean decidesIt(String o) {
        if (o.startsWith("-Xmn") || o.startsWith("-XX:NewSize=") || o.startsWith("-XX:MaxNewSize=")
                || o.startsWith("-XX:NewRatio=")) {
            return true;
        }
        if (o.startsWith("-XX:+Use") && o.endsWith("GC")) {
            return !(o.equals("-XX:+UseSerialGC") || o.equals("-XX:+UseParallelGC") || o.equals("-XX:+UseG1GC"));
        }
        String heap = o.startsWith("-Xmx") || o.startsWith("-Xms") ? o.substring(4)
                : o.startsWith("-XX:MaxHeapSize=") ? o.substring(16)
                : o.startsWith("-XX:InitialHeapSize=") ? o.substring(20) : null;
        return heap != null && mebibytes(heap) < MIN_HEAP_MIB;
    }

    /** A JVM size (bytes, or with k/m/g/t) in MiB; an unreadable one counts as small. */
    private static double mebibytes(String size) {
        String s = size.trim().toLowerCase(Locale.ROOT);
        if (!s.matches("[0-9]+[kmgt]?")) {
            return 0;
        }
        char unit = s.charAt(s.length() - 1);
        double n = Double.parseDouble(Character.isDigit(unit) ? s : s.substring(0, s.length() - 1));
        return switch (unit) {
            case 'k' -> n / 1024;
            case 'm' -> n;
            case 'g' -> n * 1024;
            case 't' -> n * 1024 * 1024;
            default -> n / (1024 * 1024);
        };
    }
}
