package org.verbatim.verbs.raw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.verbs.Gcc;

/**
 * Compiles the generated C probe with gcc against the installed headers and compares every
 * field path's offset and size (and every record's size and alignment) with the Java layouts.
 */
class LayoutProbeTest {

    @Test
    void everyFieldPathMatchesGcc() throws Exception {
        var probe = Gcc.compile(Gcc.moduleDir().resolve("src/test/c/layout_probe.c"), "layout_probe");
        String output = Gcc.run(List.of(probe.toString()), Map.of());
        int passed = 0;
        List<String> failures = new ArrayList<>();
        for (String line : output.split("\n")) {
            String[] f = line.split(" ");
            String problem = check(f[0], f[1], Long.parseLong(f[2]), f[3]);
            if (problem == null) {
                passed++;
            } else {
                failures.add(line + ": " + problem);
            }
        }
        failures.stream().limit(50).forEach(System.out::println);
        System.out.println("layout check: " + passed + " passed, " + failures.size() + " failed");
        assertEquals(List.of(), failures);
        assertTrue(passed > 1000, "the probe covers the three headers' field paths, got only " + passed);
    }

    private static String check(String cls, String path, long offset, String size) throws Exception {
        GroupLayout layout = (GroupLayout) Class.forName("org.verbatim.verbs.raw." + cls).getField("LAYOUT").get(null);
        if (path.equals(".")) {
            if (layout.byteSize() != offset) {
                return "java size " + layout.byteSize();
            }
            long align = Long.parseLong(size);
            return layout.byteAlignment() == align ? null : "java alignment " + layout.byteAlignment();
        }
        var elements = new ArrayList<PathElement>();
        for (String token : path.split("\\.")) {
            elements.add(token.equals("[]") ? PathElement.sequenceElement(0) : PathElement.groupElement(token));
        }
        PathElement[] p = elements.toArray(PathElement[]::new);
        long javaOffset = layout.byteOffset(p);
        if (javaOffset != offset) {
            return "java offset " + javaOffset;
        }
        MemoryLayout member = layout.select(p);
        return size.equals("-") || member.byteSize() == Long.parseLong(size) ? null : "java size " + member.byteSize();
    }
}
