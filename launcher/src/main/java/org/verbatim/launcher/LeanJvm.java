package org.verbatim.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * JVM options for the ranks of a heavily oversubscribed host ({@code verbatim.launcher.lean-jvm}).
 *
 * <p>With many more ranks than cores, a job's start-up is CPU: every rank's JVM loads and links
 * the same classes and FFM downcalls and compiles the same start-up methods, and on a 2-core host
 * 64 of them queue for the cores. About a third of a rank's start-up CPU was the optimising (C2)
 * compiler at work on methods that are hot only during start-up (the class-file code behind FFM
 * linking), so there the ranks run with the client compiler only ({@code -XX:TieredStopAtLevel=1})
 * and the serial collector (no parallel GC threads to schedule, a smaller heap footprint per
 * JVM). C1 code is slower than C2 code for long computations, which is why this applies only
 * beyond {@value #RANKS_PER_CORE} ranks per core (where the ranks block when idle and share
 * each core with many others anyway) or when asked for.
 */
final class LeanJvm {
    /** auto applies the options when a host has more than this many ranks per core. */
    static final int RANKS_PER_CORE = 4;
    static final String CLIENT_COMPILER_ONLY = "-XX:TieredStopAtLevel=1";
    static final String SERIAL_GC = "-XX:+UseSerialGC";

    private LeanJvm() {
    }

    /**
     * The options to add before the user's JVM options: none when {@code choice} is "off", or
     * "auto" and {@code localRanks <= RANKS_PER_CORE * cores}; each option is left out when the
     * user's own options already decide its matter (a compiler or GC choice of theirs wins).
     */
    static List<String> options(String choice, int localRanks, int cores, List<String> userJvmOptions) {
        boolean on = switch (choice.trim().toLowerCase(Locale.ROOT)) {
            case "on" -> true;
            case "off" -> false;
            case "auto" -> localRanks > (long) RANKS_PER_CORE * Math.max(1, cores);
            default -> throw new IllegalArgumentException(LauncherSettings.LEAN_JVM.name()
                    + ": expected auto, on or off, got " + choice);
        };
        List<String> out = new ArrayList<>();
        if (!on) {
            return out;
        }
        if (userJvmOptions.stream().noneMatch(LeanJvm::choosesCompiler)) {
            out.add(CLIENT_COMPILER_ONLY);
        }
        if (userJvmOptions.stream().noneMatch(LeanJvm::choosesGc)) {
            out.add(SERIAL_GC);
        }
        return out;
    }

    private static boolean choosesCompiler(String o) {
        return o.startsWith("-XX:TieredStopAtLevel") || o.contains("TieredCompilation") || o.equals("-Xint")
                || o.equals("-Xcomp") || o.startsWith("-XX:CICompilerCount");
    }

    private static boolean choosesGc(String o) {
        return o.startsWith("-XX:+Use") && o.endsWith("GC");
    }
}
