package org.verbatim.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering docs/architecture.md states, checked on the sources: the point-to-point protocols
 * and the shared base types never import the runtime package above them (they reach it through
 * ProtocolContext and the ext interfaces), the ext API imports no implementation, and mpi-core
 * imports no transport module.
 */
class ImportRulesTest {
    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern IMPORT = Pattern.compile(
            "^import (?:static )?(org\\.verbatim\\.[\\w.]+)\\.(\\w+|\\*);", Pattern.MULTILINE);
    private static final Pattern QUALIFIED = Pattern.compile("org\\.verbatim\\.runtime\\.([A-Z]\\w*)");

    @Test
    void lowerRuntimePackagesDoNotReachUp() throws IOException {
        List<String> violations = new ArrayList<>();
        int imports = 0;
        for (String pkg : List.of("p2p", "base", "ext", "rma")) {
            for (Path f : sources(MAIN.resolve("org/verbatim/runtime/" + pkg))) {
                String text = Files.readString(f);
                Matcher m = IMPORT.matcher(text);
                while (m.find()) {
                    imports++;
                    if (m.group(1).equals("org.verbatim.runtime")) {
                        violations.add(f + " imports org.verbatim.runtime." + m.group(2));
                    }
                    if (pkg.equals("base") && m.group(1).startsWith("org.verbatim.runtime.")) {
                        violations.add(f + " (base) imports " + m.group(1) + "." + m.group(2));
                    }
                    if (pkg.equals("ext") && (m.group(1).startsWith("org.verbatim.runtime.p2p")
                            || m.group(1).startsWith("org.verbatim.runtime.base"))) {
                        violations.add(f + " (ext) imports " + m.group(1) + "." + m.group(2));
                    }
                }
                Matcher q = QUALIFIED.matcher(text);
                while (q.find()) {
                    violations.add(f + " names org.verbatim.runtime." + q.group(1));
                }
            }
        }
        assertTrue(imports > 20, "the pattern found the imports (" + imports + ")");
        assertEquals(List.of(), violations);
    }

    @Test
    void mpiCoreImportsNoTransport() throws IOException {
        List<String> violations = new ArrayList<>();
        List<Path> all = sources(MAIN);
        assertTrue(all.size() > 50, "found the sources (" + all.size() + ")");
        for (Path f : all) {
            Matcher m = IMPORT.matcher(Files.readString(f));
            while (m.find()) {
                if (m.group(1).startsWith("org.verbatim.transport")) {
                    violations.add(f + " imports " + m.group(1) + "." + m.group(2));
                }
            }
        }
        assertEquals(List.of(), violations);
    }

    private static List<Path> sources(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".java")).toList();
        }
    }
}
