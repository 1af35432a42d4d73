package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md stays in step with the public classes of package {@code mpi}: every public method
 * and constructor of every public class is listed there (in the reference part or under
 * "beyond the original"), and every signature listed exists, public (or protected where the
 * listing says so), with those parameter types. The refused calls in its table exist too.
 */
class ApiDocTest {
    private static final Path DOC = Path.of("../docs/api.md");
    private static final Path SOURCES = Path.of("src/main/java/mpi");
    private static final Pattern SIGNATURE = Pattern.compile(
            "^(protected\\s+|public\\s+)?(?:(?:static|final|abstract|synchronized|default)\\s+)*"
                    + "(?:<[^>]+>\\s+)?(?:([\\w.$\\[\\]]+(?:<[^()]*>)?(?:\\[\\])*)\\s+)?(\\w+)"
                    + "\\s*\\((.*)\\)$");
    private static final Pattern CLASS_MARK = Pattern.compile(
            "(?:^//\\s*|^`)(?:public\\s+)?(?:(?:final|abstract|static)\\s+)*(?:class|interface)"
                    + "\\s+([\\w.]+)");
    private static final Pattern INLINE_CLASS = Pattern.compile(
            "^public\\s+(?:final\\s+)?class\\s+([\\w.]+)[^{]*\\{(.*)}\\s*$");
    private static final Pattern TYPE_VARIABLES = Pattern.compile(
            "^(?:(?:public|protected|static|final|abstract)\\s+)*<([^>]+(?:>[^>(]*)?)>\\s");
    private static final Pattern REFUSED_ROW = Pattern.compile("^\\|\\s*`(\\w+)\\.(\\w+)\\(");

    /** A member as listed: class, name, parameter types (simple names), protected or not. */
    record Listed(String owner, String name, List<String> params, boolean isProtected, int line) {
        String key() {
            return owner + "." + name + "(" + String.join(", ", params) + ")";
        }
    }

    @Test
    void everyPublicMethodIsListedAndEveryListedMethodExists() throws Exception {
        List<Listed> listed = parse(Files.readAllLines(DOC));
        Set<String> documented = new TreeSet<>();
        List<String> missing = new ArrayList<>();
        for (Listed l : listed) {
            documented.add(l.key());
            Class<?> c = Class.forName("mpi." + l.owner().replace('.', '$'));
            if (!exists(c, l)) {
                missing.add("line " + l.line() + ": " + l.key());
            }
        }
        assertEquals(List.of(), missing, "listed in docs/api.md but not in the code");
        List<String> undocumented = new ArrayList<>();
        for (Class<?> c : publicClasses()) {
            for (Executable e : members(c)) {
                if (e.getName().equals("toString") || e.getName().equals("hashCode")) {
                    continue; // java.lang.Object's contract, not the API's
                }
                String key = key(c, e);
                if (!documented.contains(key)) {
                    undocumented.add(key);
                }
            }
        }
        assertEquals(List.of(), undocumented, "public in the code but not in docs/api.md");
    }

    @Test
    void everyRefusedCallExists() throws Exception {
        int rows = 0;
        for (String line : Files.readAllLines(DOC)) {
            Matcher m = REFUSED_ROW.matcher(line);
            if (!m.find()) {
                continue;
            }
            rows++;
            Class<?> c = Class.forName("mpi." + m.group(1));
            String first = line.split("\\|")[1];
            Matcher names = Pattern.compile("`(?:\\w+\\.)?(\\w+)").matcher(first);
            while (names.find()) {
                String name = names.group(1);
                boolean found = name.equals(c.getSimpleName())
                        ? c.getConstructors().length > 0
                        : Stream.of(c.getMethods()).anyMatch(x -> x.getName().equals(name));
                assertTrue(found, () -> "refused " + c.getSimpleName() + "." + name
                        + " is not a public method or constructor");
            }
        }
        assertTrue(rows > 0, "docs/api.md has no table of refused calls");
    }

    /** Signatures in the java blocks, attributed to the class of their section. */
    static List<Listed> parse(List<String> lines) {
        List<Listed> out = new ArrayList<>();
        String owner = null;
        boolean code = false;
        for (int i = 0; i < lines.size(); i++) {
            String raw = lines.get(i);
            String line = raw.strip();
            if (line.startsWith("```")) {
                code = !code && line.startsWith("```java");
                continue;
            }
            if (!code) {
                if (line.startsWith("#")) {
                    owner = sectionClass(line.replaceFirst("^#+\\s*", ""));
                } else {
                    Matcher m = CLASS_MARK.matcher(line);
                    if (m.find() && classExists(m.group(1))) {
                        owner = m.group(1);
                    }
                }
                continue;
            }
            Matcher mark = CLASS_MARK.matcher(line);
            if (line.startsWith("//") && mark.find()) {
                owner = classExists(mark.group(1)) ? mark.group(1) : owner;
                continue;
            }
            Matcher inline = INLINE_CLASS.matcher(line);
            if (inline.find()) {
                for (String member : inline.group(2).split(";")) {
                    addSignature(out, inline.group(1), member, i + 1);
                }
                continue;
            }
            if (owner != null) {
                addSignature(out, owner, line, i + 1);
            }
        }
        return out;
    }

    private static void addSignature(List<Listed> out, String owner, String text, int line) {
        String s = text.replaceFirst("//.*$", "").strip();
        s = s.replaceFirst("\\s+throws\\s+[\\w., ]+;?$", "").replaceFirst(";$", "").strip();
        Matcher m = SIGNATURE.matcher(s);
        if (s.isEmpty() || !m.matches()) {
            return;
        }
        String simple = owner.substring(owner.lastIndexOf('.') + 1);
        if (m.group(2) == null && !m.group(3).equals(simple)) {
            return; // not a constructor, and no return type: not a signature
        }
        java.util.Map<String, String> bounds = new java.util.HashMap<>();
        Matcher g = TYPE_VARIABLES.matcher(s);
        if (g.find()) {
            for (String v : splitParams(g.group(1))) {
                String[] parts = v.strip().split("\\s+extends\\s+");
                bounds.put(parts[0].strip(), parts.length > 1 ? parts[1].strip() : "Object");
            }
        }
        List<String> params = new ArrayList<>();
        for (String p : splitParams(m.group(4))) {
            String t = p.strip().replaceAll("<[^<>]*>", "").replaceAll("\\s+\\w+$", "").strip();
            t = bounds.getOrDefault(t.replaceAll("\\s+", ""), t.replaceAll("\\s+", ""));
            params.add(t.substring(t.lastIndexOf('.') + 1));
        }
        out.add(new Listed(owner, m.group(3), params, "protected ".equals(m.group(1)) , line));
    }

    private static List<String> splitParams(String params) {
        List<String> out = new ArrayList<>();
        if (params.isBlank()) {
            return out;
        }
        int depth = 0;
        int start = 0;
        for (int i = 0; i < params.length(); i++) {
            char ch = params.charAt(i);
            depth += ch == '<' ? 1 : ch == '>' ? -1 : 0;
            if (ch == ',' && depth == 0) {
                out.add(params.substring(start, i));
                start = i + 1;
            }
        }
        out.add(params.substring(start));
        return out;
    }

    private static String sectionClass(String title) {
        for (String name : title.split("\\s*/\\s*")) {
            if (classExists(name.strip())) {
                return name.strip();
            }
        }
        return null;
    }

    private static boolean classExists(String name) {
        try {
            Class.forName("mpi." + name.replace('.', '$'));
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static boolean exists(Class<?> c, Listed l) {
        for (Executable e : all(c)) {
            String name = e instanceof Constructor<?> ? simpleName(c) : e.getName();
            int mods = e.getModifiers();
            boolean visible = Modifier.isPublic(mods) || (l.isProtected()
                    && Modifier.isProtected(mods));
            if (visible && name.equals(l.name()) && params(e).equals(l.params())) {
                return true;
            }
        }
        return false;
    }

    private static List<Executable> all(Class<?> c) {
        List<Executable> all = new ArrayList<>(List.of(c.getDeclaredConstructors()));
        for (Method m : c.getDeclaredMethods()) {
            if (!m.isSynthetic() && !m.isBridge()) {
                all.add(m);
            }
        }
        return all;
    }

    /** The public members a program can call on {@code c} (declared there). */
    private static List<Executable> members(Class<?> c) {
        List<Executable> out = new ArrayList<>();
        for (Executable e : all(c)) {
            if (Modifier.isPublic(e.getModifiers())) {
                out.add(e);
            }
        }
        return out;
    }

    private static String key(Class<?> c, Executable e) {
        String owner = c.getName().substring("mpi.".length()).replace('$', '.');
        String name = e instanceof Constructor<?> ? simpleName(c) : e.getName();
        return owner + "." + name + "(" + String.join(", ", params(e)) + ")";
    }

    private static String simpleName(Class<?> c) {
        return c.getSimpleName();
    }

    private static List<String> params(Executable e) {
        List<String> out = new ArrayList<>();
        Class<?>[] types = e.getParameterTypes();
        int skip = e instanceof Constructor<?> && e.getDeclaringClass().isMemberClass()
                && !Modifier.isStatic(e.getDeclaringClass().getModifiers()) ? 1 : 0;
        for (int i = skip; i < types.length; i++) {
            out.add(types[i].getSimpleName());
        }
        return out;
    }

    /** Every public top-level or member class of package mpi (from its sources). */
    private static List<Class<?>> publicClasses() throws IOException, ClassNotFoundException {
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path f : files.sorted().toList()) {
                String n = f.getFileName().toString();
                if (!n.endsWith(".java") || n.equals("package-info.java")) {
                    continue;
                }
                Class<?> c = Class.forName("mpi." + n.substring(0, n.length() - 5));
                if (Modifier.isPublic(c.getModifiers())) {
                    out.add(c);
                    for (Class<?> inner : c.getDeclaredClasses()) {
                        if (Modifier.isPublic(inner.getModifiers())) {
                            out.add(inner);
                        }
                    }
                }
            }
        }
        return out;
    }
}
