package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LaunchOptionsTest {
    @Test
    void parsesOptionsUpToTheProgram() {
        LaunchOptions o = LaunchOptions.parse(new String[] {"-np", "4", "--tag-output", "-x", "A=1 2", "--env", "B=",
            "--timeout", "30", "java", "-cp", "x", "Main", "-np", "9"});
        assertEquals(4, o.ranks());
        assertTrue(o.tagOutput());
        assertEquals("1 2", o.environment().get("A"));
        assertEquals("", o.environment().get("B"));
        assertEquals(30, o.timeoutSeconds());
        assertEquals(List.of("java", "-cp", "x", "Main", "-np", "9"), o.program());
    }

    @Test
    void exportsMpirunsOwnValueForBareNames() {
        LaunchOptions o = LaunchOptions.parse(new String[] {"-x", "PATH", "-x", "SURELY_UNSET_VARIABLE_42", "true"});
        assertEquals(System.getenv("PATH"), o.environment().get("PATH"));
        assertFalse(o.environment().containsKey("SURELY_UNSET_VARIABLE_42"));
    }

    @Test
    void shorthandStartsTheProgram() {
        assertEquals(List.of("-cp", "a", "Main"), LaunchOptions.parse(new String[] {"-n", "2", "-cp", "a", "Main"}).program());
        assertEquals(List.of("-Xmx1g", "-jar", "a.jar"), LaunchOptions.parse(new String[] {"-Xmx1g", "-jar", "a.jar"}).program());
    }

    @Test
    void refusesBadInputClearly() {
        assertMessage("unknown option --bogus", "--bogus", "x");
        assertMessage("-np needs a positive integer, got '0'", "-np", "0", "x");
        assertMessage("-np needs a positive integer, got 'two'", "-np", "two", "x");
        assertMessage("-np needs a value", "-np");
        assertMessage("no program given", "-np", "2");
        assertMessage("--timeout needs a positive integer", "--timeout", "-1", "x");
    }

    @Test
    void helpAndPrintConfigNeedNoProgram() {
        assertTrue(LaunchOptions.parse(new String[] {"-h"}).help());
        assertTrue(LaunchOptions.parse(new String[] {"--print-config"}).printConfig());
    }

    @Test
    void rankCommandExpandsTheShorthand() {
        RankCommand rc = new RankCommand("/jdk/bin/java", "/v/core.jar:/v/shm.jar");
        assertEquals(List.of("/jdk/bin/java", "--enable-native-access=ALL-UNNAMED", "-Xmx64m", "-cp",
                "app.jar:/v/core.jar:/v/shm.jar", "app.Main", "a", "b"),
                rc.build(List.of("-Xmx64m", "-cp", "app.jar", "app.Main", "a", "b")));
        assertEquals(List.of("/jdk/bin/java", "-cp", "x", "M"), rc.build(List.of("java", "-cp", "x", "M")));
        assertEquals(List.of("/usr/bin/java", "M"), rc.build(List.of("/usr/bin/java", "M")));
        assertEquals(List.of("hostname"), rc.build(List.of("hostname")));
        assertThrows(IllegalArgumentException.class, () -> rc.build(List.of("-cp", "app.jar")));
    }

    @Test
    void rankCommandRunsTheMainClassOfAJar(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("app.jar");
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "app.Hello");
        try (JarOutputStream out = new JarOutputStream(new FileOutputStream(jar.toFile()), mf)) {
            out.flush();
        }
        RankCommand rc = new RankCommand("/jdk/bin/java", "/v/core.jar");
        assertEquals(List.of("/jdk/bin/java", "--enable-native-access=ALL-UNNAMED", "-cp", jar + ":/v/core.jar",
                "app.Hello", "x"), rc.build(List.of("-jar", jar.toString(), "x")));
        Path noMain = dir.resolve("lib.jar");
        try (JarOutputStream out = new JarOutputStream(new FileOutputStream(noMain.toFile()))) {
            out.flush();
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rc.build(List.of("-jar", noMain.toString())));
        assertTrue(e.getMessage().contains("no Main-Class"), e.getMessage());
    }

    @Test
    void rankRangesForJobsOverSeveralHosts() {
        LaunchOptions o = LaunchOptions.parse(new String[] {"-np", "4", "--ranks", "0-1", "--listen", "0.0.0.0:7400",
            "true"});
        assertEquals(0, o.firstRank());
        assertEquals(1, o.lastRank());
        assertEquals(2, o.localRanks());
        assertEquals("0.0.0.0:7400", o.listen());
        LaunchOptions j = LaunchOptions.parse(new String[] {"-np", "4", "--ranks", "3", "--join", "host-a:7400", "true"});
        assertEquals(3, j.firstRank());
        assertEquals(3, j.lastRank());
        assertTrue(j.isLocal(3) && !j.isLocal(2));
        LaunchOptions all = LaunchOptions.parse(new String[] {"-np", "3", "true"});
        assertEquals(0, all.firstRank());
        assertEquals(2, all.lastRank());
        assertMessage("--ranks 2-4 is not a range inside 0-3 (-np 4)", "-np", "4", "--ranks", "2-4", "--listen", "h:1", "x");
        assertMessage("--join needs --ranks: which ranks to start here", "-np", "4", "--join", "h:1", "x");
        assertMessage("--listen and --join exclude each other", "-np", "4", "--ranks", "1", "--listen", "h:1",
                "--join", "h:2", "x");
        assertMessage("--ranks 0-1 leaves ranks to other hosts: serve them with --listen HOST:PORT (and start them "
                + "there with --join)", "-np", "4", "--ranks", "0-1", "x");
        assertMessage("--join needs HOST:PORT, got 'nohost'", "-np", "4", "--ranks", "1", "--join", "nohost", "x");
    }

    private static void assertMessage(String expected, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LaunchOptions.parse(args));
        assertTrue(e.getMessage().contains(expected), () -> "'" + e.getMessage() + "' lacks '" + expected + "'");
    }
}
