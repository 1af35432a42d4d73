package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class YoungGenerationTest {
    private static final List<String> NEW_SIZE = List.of("-XX:NewSize=16m");

    @Test
    void aSizeSetsTheFirstYoungGeneration() {
        assertEquals(List.of(), YoungGeneration.options(LauncherSettings.YOUNG_GEN.defaultValue(), List.of()),
                "off by default");
        assertEquals(NEW_SIZE, YoungGeneration.options("16m", List.of()));
        assertEquals(List.of("-XX:NewSize=32m"), YoungGeneration.options(" 32M ", List.of("-Xmx1g")));
        assertEquals(NEW_SIZE, YoungGeneration.options("16m", List.of("-XX:+UseSerialGC", "-Xms64m")));
        assertEquals(NEW_SIZE, YoungGeneration.options("16m", List.of("-XX:+UseG1GC", "-XX:MaxHeapSize=2g")));
    }

    @Test
    void theSettingTakesASizeAndOffWhereverItIsChecked() {
        // the ranks check every VERBATIM_* variable of their environment against its setting's kind
        LauncherSettings.YOUNG_GEN.check(java.util.Map.of(LauncherSettings.YOUNG_GEN.name(), "16m"));
        LauncherSettings.YOUNG_GEN.check(java.util.Map.of(LauncherSettings.YOUNG_GEN.name(), "off"));
    }

    @Test
    void offAndBadSizes() {
        assertEquals(List.of(), YoungGeneration.options("off", List.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> YoungGeneration.options("sixteen", List.of()));
        assertTrue(e.getMessage().contains("verbatim.launcher.young-gen"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> YoungGeneration.options("-16m", List.of()));
    }

    @Test
    void theProgramsOwnSizingWins() {
        for (String own : List.of("-Xmn64m", "-XX:NewSize=1g", "-XX:MaxNewSize=8m", "-XX:NewRatio=3",
                "-Xmx32m", "-Xms8m", "-Xmx40000k", "-XX:MaxHeapSize=50000000", "-XX:InitialHeapSize=1m",
                "-Xmxlots", "-XX:+UseZGC", "-XX:+UseShenandoahGC", "-XX:+UseEpsilonGC")) {
            assertEquals(List.of(), YoungGeneration.options("16m", List.of("-cp", "x", own)), own);
        }
    }

    @Test
    void itGoesWithTheOtherLauncherOptionsBeforeTheUsers() {
        RankCommand rc = new RankCommand("/jdk/bin/java", "/v/core.jar");
        assertEquals(List.of("/jdk/bin/java", "--enable-native-access=ALL-UNNAMED", "-XX:NewSize=16m", "-Xmx1g",
                "-cp", "app.jar:/v/core.jar", "Main"),
                rc.build(List.of("-Xmx1g", "-cp", "app.jar", "Main"), null, NEW_SIZE));
    }
}
