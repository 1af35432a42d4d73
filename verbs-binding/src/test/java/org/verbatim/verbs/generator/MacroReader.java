package org.verbatim.verbs.generator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the integer-valued object-like {@code #define}s of the RDMA headers, which castxml does
 * not report. {@code gcc -dM -E} gives the final definitions; {@code gcc -dD -E} tells which header
 * each came from; a small C program compiled by gcc evaluates them, so values are gcc's own.
 */
final class MacroReader {

    private static final Pattern DEFINE = Pattern.compile("^#define ([A-Za-z][A-Za-z0-9_]*)(?: (.*))?$");
    private static final Pattern LINE_MARKER = Pattern.compile("^# \\d+ \"([^\"]+)\".*$");
    private static final Pattern EXPRESSION = Pattern.compile("^[\\w\\s()<>|&~+\\-*/^]+$");

    private MacroReader() { }

    static List<Constant> read(Path work, Path source, List<String> includes, Set<String> enumerators) throws Exception {
        Map<String, String> origin = new HashMap<>();
        String current = "";
        for (String line : Tools.run(List.of("gcc", "-dD", "-E", source.toString())).split("\n")) {
            var marker = LINE_MARKER.matcher(line);
            if (marker.matches()) {
                current = marker.group(1);
                continue;
            }
            var d = DEFINE.matcher(line);
            if (d.matches() && Generator.isRdmaHeader(current)) {
                origin.put(d.group(1), current);
            }
        }
        Map<String, String> candidates = new LinkedHashMap<>();
        for (String line : Tools.run(List.of("gcc", "-dM", "-E", source.toString())).lines().sorted().toList()) {
            var d = DEFINE.matcher(line);
            if (!d.matches() || d.group(2) == null || d.group(2).isBlank()) {
                continue;
            }
            String name = d.group(1);
            if (origin.containsKey(name) && !enumerators.contains(name) && EXPRESSION.matcher(d.group(2)).matches()) {
                candidates.put(name, origin.get(name));
            }
        }
        return evaluate(work, includes, candidates);
    }

    /**
     * Compiles and runs a program that prints each candidate's value and type class. Candidates
     * that are not expressions (aliases of type names, say) fail to compile; their lines are
     * dropped and the program is compiled again.
     */
    private static List<Constant> evaluate(Path work, List<String> includes, Map<String, String> candidates) throws Exception {
        var remaining = new ArrayList<>(candidates.keySet());
        Path program = work.resolve("macros.c");
        Path binary = work.resolve("macros");
        for (int attempt = 0; ; attempt++) {
            var c = new StringBuilder("#include <stdio.h>\n");
            for (String h : includes) {
                c.append("#include <").append(h).append(">\n");
            }
            c.append("#define KIND(x) _Generic((x), int: \"int\", unsigned int: \"int\", long: \"long\", "
                    + "unsigned long: \"long\", long long: \"long\", unsigned long long: \"long\", default: \"skip\")\n");
            c.append("int main(void) {\n");
            int firstLine = c.toString().split("\n", -1).length;
            for (String name : remaining) {
                c.append("    printf(\"%s %s %lld\\n\", \"").append(name).append("\", KIND(").append(name)
                        .append("), (long long) (").append(name).append("));\n");
            }
            c.append("    return 0;\n}\n");
            Files.writeString(program, c);
            try {
                Tools.run(List.of("gcc", "-w", "-o", binary.toString(), program.toString()));
                break;
            } catch (java.io.IOException e) {
                var bad = new java.util.TreeSet<Integer>();
                var m = Pattern.compile("macros\\.c:(\\d+):").matcher(e.getMessage());
                while (m.find()) {
                    int index = Integer.parseInt(m.group(1)) - firstLine;
                    if (index >= 0 && index < remaining.size()) {
                        bad.add(index);
                    }
                }
                if (bad.isEmpty() || attempt > 5) {
                    throw e;
                }
                for (int i : bad.descendingSet()) {
                    remaining.remove(i);
                }
            }
        }
        var out = new ArrayList<Constant>();
        for (String line : Tools.run(List.of(binary.toString())).split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length == 3 && !f[1].equals("skip")) {
                out.add(new Constant(candidates.get(f[0]), f[0], Long.parseLong(f[2]), f[1].equals("long"), "#define"));
            }
        }
        return out;
    }
}
