package org.verbatim.verbs.generator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.w3c.dom.Element;

/**
 * Generates the raw FFM layer of verbs-binding from the installed rdma-core headers.
 *
 * <p>castxml turns the headers into XML with exact bit offsets, sizes, enumerators and
 * prototypes; gcc supplies the integer macros; this program writes jextract-style Java into
 * {@code src/main/java/org/verbatim/verbs/raw} and the layout probe into {@code src/test/c}.
 *
 * <p>Usage: {@code Generator write <module dir>} rewrites the committed files;
 * {@code Generator check <module dir>} prints every difference and exits 1 if there is one.
 */
public final class Generator {

    /** The headers the bindings are generated from. */
    public static final List<String> HEADERS = List.of("infiniband/verbs.h", "rdma/rdma_cma.h", "rdma/rdma_verbs.h");
    /** The package of the generated raw layer. */
    public static final String PACKAGE = "org.verbatim.verbs.raw";
    /** Where the generated Java goes, relative to the module. */
    public static final Path JAVA_DIR = Path.of("src/main/java/org/verbatim/verbs/raw");
    /** Where the generated probe goes, relative to the module. */
    public static final Path PROBE = Path.of("src/test/c/layout_probe.c");

    private Generator() { }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !(args[0].equals("write") || args[0].equals("check"))) {
            System.err.println("usage: Generator write|check <verbs-binding module dir>");
            System.exit(2);
        }
        Path module = Path.of(args[1]);
        Map<Path, String> files = generate();
        if (args[0].equals("write")) {
            write(module, files);
            System.out.println("generated " + files.size() + " files under " + module);
        } else {
            List<String> differences = differences(module, files);
            differences.forEach(System.out::println);
            System.out.println(differences.isEmpty() ? "generated sources are up to date" : differences.size() + " differences");
            System.exit(differences.isEmpty() ? 0 : 1);
        }
    }

    static boolean isRdmaHeader(String path) {
        return path.contains("/infiniband/") || path.contains("/rdma/");
    }

    /** Runs castxml and gcc and returns every generated file by its path relative to the module. */
    public static Map<Path, String> generate() throws Exception {
        Path work = Files.createTempDirectory("verbs-generator");
        try {
            return generate(work);
        } finally {
            try (Stream<Path> s = Files.walk(work)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Map<Path, String> generate(Path work) throws Exception {
        Path source = work.resolve("headers.c");
        var include = new StringBuilder();
        HEADERS.forEach(h -> include.append("#include <").append(h).append(">\n"));
        Files.writeString(source, include);
        Path xmlFile = work.resolve("headers.xml");
        Tools.run(List.of("castxml", "--castxml-output=1", "--castxml-cc-gnu-c", "gcc", "-o", xmlFile.toString(), source.toString()));
        CastXml xml = new CastXml(xmlFile);
        var records = new RecordEmitter(xml, PACKAGE);
        var functions = new FunctionEmitter(xml, PACKAGE);
        Map<Path, String> out = new TreeMap<>();

        List<Element> topLevel = selectRecords(xml, records);
        for (Element r : topLevel) {
            out.put(JAVA_DIR.resolve(xml.recordName(r) + ".java"), records.emitFile(r));
        }

        Map<String, List<Element>> exported = new LinkedHashMap<>();
        Map<String, List<String>> inline = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        Map<String, List<Constant>> constants = new TreeMap<>();
        Set<String> enumerators = new HashSet<>();
        for (Element e : xml.elements()) {
            String file = xml.fileOf(e);
            if (!isRdmaHeader(file)) {
                continue;
            }
            if (e.getTagName().equals("Function") && seen.add(CastXml.name(e))) {
                if (e.getAttribute("inline").equals("1")) {
                    inline.computeIfAbsent(file, k -> new ArrayList<>()).add(CastXml.name(e));
                } else if (functions.supported(e)) {
                    exported.computeIfAbsent(file, k -> new ArrayList<>()).add(e);
                } else {
                    System.err.println("skipping " + CastXml.name(e) + ": a struct passed by value");
                }
            } else if (e.getTagName().equals("Enumeration")) {
                boolean wide = Long.parseLong(e.getAttribute("size")) == 64;
                String origin = CastXml.name(e).isEmpty() ? "anonymous enum" : "enum " + CastXml.name(e);
                for (Element v : FunctionEmitter.arguments(e)) {
                    if (enumerators.add(CastXml.name(v))) {
                        constants.computeIfAbsent(file, k -> new ArrayList<>())
                                .add(new Constant(file, CastXml.name(v), Long.parseLong(v.getAttribute("init")), wide, origin));
                    }
                }
            }
        }
        for (Constant c : MacroReader.read(work, source, HEADERS, enumerators)) {
            constants.computeIfAbsent(c.header(), k -> new ArrayList<>()).add(c);
        }
        Set<String> headers = new java.util.TreeSet<>(exported.keySet());
        headers.addAll(inline.keySet());
        for (String h : headers) {
            out.put(JAVA_DIR.resolve(JavaNames.headerClass(h) + ".java"),
                    functions.emitFile(h, exported.getOrDefault(h, List.of()), inline.getOrDefault(h, List.of())));
        }
        constants.forEach((h, list) -> out.put(JAVA_DIR.resolve(ConstantsEmitter.className(h) + ".java"),
                ConstantsEmitter.emitFile(PACKAGE, h, list)));
        out.put(JAVA_DIR.resolve("RuntimeHelper.java"), RuntimeHelperTemplate.source(PACKAGE));
        out.put(PROBE, new ProbeEmitter(xml, records).emit(HEADERS, topLevel));
        return out;
    }

    /** Named records of the RDMA headers and every named record they embed by value, sorted by name. */
    private static List<Element> selectRecords(CastXml xml, RecordEmitter records) {
        Map<String, Element> selected = new TreeMap<>();
        var queue = new ArrayDeque<Element>();
        for (Element e : xml.elements()) {
            boolean record = e.getTagName().equals("Struct") || e.getTagName().equals("Union");
            if (record && isRdmaHeader(xml.fileOf(e)) && !xml.recordName(e).isEmpty() && !e.getAttribute("incomplete").equals("1")) {
                queue.add(e);
            }
        }
        while (!queue.isEmpty()) {
            Element r = queue.poll();
            String name = xml.recordName(r);
            if (!name.isEmpty() && selected.putIfAbsent(name, r) != null) {
                continue;
            }
            for (RecordEmitter.Member m : records.members(r)) {
                if (RecordEmitter.innerRecord(m.type()) instanceof CType.Record inner) {
                    queue.add(inner.node());
                }
            }
        }
        return new ArrayList<>(selected.values());
    }

    static void write(Path module, Map<Path, String> files) throws Exception {
        Path javaDir = module.resolve(JAVA_DIR);
        if (Files.isDirectory(javaDir)) {
            try (Stream<Path> s = Files.list(javaDir)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
        }
        for (var e : files.entrySet()) {
            Path p = module.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, e.getValue());
        }
    }

    /** Every way the committed files differ from freshly generated ones. */
    public static List<String> differences(Path module, Map<Path, String> files) throws Exception {
        var diffs = new ArrayList<String>();
        for (var e : files.entrySet()) {
            Path p = module.resolve(e.getKey());
            if (!Files.exists(p)) {
                diffs.add("missing: " + e.getKey());
            } else if (!Files.readString(p).equals(e.getValue())) {
                diffs.add("differs: " + e.getKey());
            }
        }
        Path javaDir = module.resolve(JAVA_DIR);
        if (Files.isDirectory(javaDir)) {
            try (Stream<Path> s = Files.list(javaDir)) {
                s.map(module::relativize).filter(p -> !files.containsKey(p)).forEach(p -> diffs.add("stale: " + p));
            }
        }
        return diffs;
    }
}
