package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * bom/pom.xml has no parent (importing it must bring only Verbatim's versions), so nothing keeps
 * it in step by itself: its version and every version in it are the parent's, and it lists every
 * module a program may depend on.
 */
class BomTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    /** Modules that are not for programs to depend on. */
    private static final Set<String> NOT_IN_BOM = Set.of("verbatim-mpi-tests", "verbatim-benchmarks",
            "verbatim-examples", "verbatim-distribution", "verbatim-bom");

    @Test
    void theBomListsEveryLibraryModuleAtTheParentsVersion() throws IOException {
        String parent = Files.readString(ROOT.resolve("pom.xml"));
        String version = first(parent, "<version>([^<]+)</version>");
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));
        assertEquals(version, first(bom, "<artifactId>verbatim-bom</artifactId>\\s*<version>([^<]+)</version>"));

        Set<String> listed = new TreeSet<>();
        Matcher entry = Pattern.compile("<artifactId>(verbatim-[^<]+)</artifactId><version>([^<]+)</version>")
                .matcher(bom);
        while (entry.find()) {
            assertEquals(version, entry.group(2), entry.group(1));
            listed.add(entry.group(1));
        }
        Set<String> libraries = new TreeSet<>();
        for (String module : all(parent, "<module>([^<]+)</module>")) {
            String artifact = first(Files.readString(ROOT.resolve(module).resolve("pom.xml")),
                    "</parent>\\s*<artifactId>([^<]+)</artifactId>");
            if (artifact != null && !NOT_IN_BOM.contains(artifact)) {
                libraries.add(artifact);
            }
        }
        assertEquals(libraries, listed);
    }

    private static String first(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? m.group(1) : null;
    }

    private static List<String> all(String text, String regex) {
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }
}
