package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeanJvmTest {
    private static final List<String> BOTH = List.of(LeanJvm.CLIENT_COMPILER_ONLY, LeanJvm.SERIAL_GC);

    @Test
    void autoAppliesBeyondFourRanksPerCore() {
        assertEquals(List.of(), LeanJvm.options("auto", 8, 2, List.of()));
        assertEquals(BOTH, LeanJvm.options("auto", 9, 2, List.of()));
        assertEquals(BOTH, LeanJvm.options("auto", 64, 2, List.of()));
        assertEquals(List.of(), LeanJvm.options("auto", 64, 16, List.of()));
        assertEquals(List.of(), LeanJvm.options("auto", 2, 0, List.of()), "an unknown core count counts as one");
        assertEquals(BOTH, LeanJvm.options("auto", 5, 0, List.of()));
    }

    @Test
    void onAndOffOverrideTheRankCount() {
        assertEquals(BOTH, LeanJvm.options("on", 1, 64, List.of()));
        assertEquals(List.of(), LeanJvm.options(" OFF ", 64, 2, List.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LeanJvm.options("maybe", 64, 2, List.of()));
        assertTrue(e.getMessage().contains("verbatim.launcher.lean-jvm"), e.getMessage());
    }

    @Test
    void theProgramsOwnCompilerAndGcChoicesWin() {
        assertEquals(List.of(LeanJvm.SERIAL_GC), LeanJvm.options("on", 64, 2, List.of("-XX:TieredStopAtLevel=4")));
        assertEquals(List.of(LeanJvm.SERIAL_GC), LeanJvm.options("on", 64, 2, List.of("-XX:-TieredCompilation")));
        assertEquals(List.of(LeanJvm.SERIAL_GC), LeanJvm.options("on", 64, 2, List.of("-Xint")));
        assertEquals(List.of(LeanJvm.CLIENT_COMPILER_ONLY), LeanJvm.options("on", 64, 2, List.of("-XX:+UseG1GC")));
        assertEquals(List.of(), LeanJvm.options("on", 64, 2, List.of("-XX:+UseZGC", "-XX:CICompilerCount=2")));
        assertEquals(BOTH, LeanJvm.options("on", 64, 2, List.of("-Xmx1g", "-XX:+UseCompressedOops")));
    }

    @Test
    void theOptionsGoBetweenTheCacheAndTheUsersOptions() {
        RankCommand rc = new RankCommand("/jdk/bin/java", "/v/core.jar");
        List<String> program = List.of("-Xmx1g", "-cp", "app.jar", "Main", "a");
        assertEquals(List.of("/jdk/bin/java", "--enable-native-access=ALL-UNNAMED", "-XX:AOTCache=/c/verbatim.aot",
                "-Xlog:aot=off,cds=off", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx1g", "-cp",
                "/v/core.jar:app.jar", "Main", "a"), rc.build(program, Path.of("/c/verbatim.aot"), BOTH));
        assertEquals(List.of("/jdk/bin/java", "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Xmx1g", "-cp", "app.jar:/v/core.jar", "Main", "a"),
                rc.build(program, null, BOTH));
        assertEquals(List.of("/jdk/bin/java", "-cp", "x", "Main"), rc.build(List.of("java", "-cp", "x", "Main"),
                null, BOTH), "the java form runs as given");
    }
}
