package org.verbatim.launcher;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

/**
 * Turns mpirun's program words into the command each rank runs. The {@code -cp}/{@code -jar}
 * shorthand becomes {@code <jdk>/bin/java --enable-native-access=ALL-UNNAMED [jvm options]
 * -cp <user>:<verbatim> Main args}; a bare {@code java} becomes the JDK's java; anything else runs
 * as given.
 *
 * @param javaExecutable the JDK >= 25 {@code java} (bin/mpirun passes the one bin/jdk-home finds)
 * @param verbatimClassPath the Verbatim jars (mpi-core, transports, their dependencies)
 */
public record RankCommand(String javaExecutable, String verbatimClassPath) {
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /** From the system properties bin/mpirun sets, else this JVM's own java and class path. */
    public static RankCommand fromSystem() {
        String java = System.getProperty("verbatim.launcher.java",
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        String cp = System.getProperty("verbatim.launcher.classpath", System.getProperty("java.class.path"));
        return new RankCommand(java, cp);
    }

    public List<String> build(List<String> program) {
        if (program.isEmpty()) {
            throw new IllegalArgumentException("no program given");
        }
        String first = program.getFirst();
        if (LaunchOptions.SHORTHAND_STARTS.contains(first) || LaunchOptions.isJvmOption(first)) {
            return shorthand(program);
        }
        List<String> cmd = new ArrayList<>(program);
        if (first.equals("java")) {
            cmd.set(0, javaExecutable);
        }
        return cmd;
    }

    private List<String> shorthand(List<String> program) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable);
        cmd.add(NATIVE_ACCESS);
        int i = 0;
        while (i < program.size() && !LaunchOptions.SHORTHAND_STARTS.contains(program.get(i))) {
            String option = program.get(i++);
            if (!LaunchOptions.isJvmOption(option)) {
                throw new IllegalArgumentException("expected JVM options then -cp or -jar, got '" + option + "'");
            }
            cmd.add(option);
        }
        if (i + 1 >= program.size()) {
            throw new IllegalArgumentException("-cp needs a class path and a main class; -jar needs a jar file");
        }
        String kind = program.get(i);
        String target = program.get(i + 1);
        List<String> rest = program.subList(i + 2, program.size());
        String mainClass;
        String userClassPath;
        if (kind.equals("-jar")) {
            userClassPath = target;
            mainClass = mainClassOf(target);
        } else {
            if (rest.isEmpty()) {
                throw new IllegalArgumentException(kind + " " + target + " needs a main class after it");
            }
            userClassPath = target;
            mainClass = rest.getFirst();
            rest = rest.subList(1, rest.size());
        }
        cmd.add("-cp");
        cmd.add(verbatimClassPath == null || verbatimClassPath.isEmpty()
                ? userClassPath : userClassPath + File.pathSeparator + verbatimClassPath);
        cmd.add(mainClass);
        cmd.addAll(rest);
        return cmd;
    }

    /** The Main-Class of a jar: java -jar would ignore -cp, so the shorthand runs the class itself. */
    static String mainClassOf(String jar) {
        try (JarFile jf = new JarFile(jar)) {
            String main = jf.getManifest() == null ? null
                    : jf.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (main == null || main.isBlank()) {
                throw new IllegalArgumentException(jar + " has no Main-Class in its manifest; use -cp " + jar + " MainClass");
            }
            return main.trim();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + jar + ": " + e.getMessage(), e);
        }
    }
}
