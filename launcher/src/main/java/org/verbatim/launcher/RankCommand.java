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
 * -cp <user>:<verbatim> Main args}, or with an AOT cache {@code <jdk>/bin/java
 * --enable-native-access=ALL-UNNAMED -XX:AOTCache=<file> -Xlog:aot=off,cds=off [jvm options] -cp <verbatim>:<user> Main
 * args}, mpirun's own JVM options ({@link LeanJvm}) before the user's; a bare {@code java} becomes the JDK's java; anything else runs as given.
 *
 * @param javaExecutable the JDK >= 25 {@code java} (bin/mpirun passes the one bin/jdk-home finds)
 * @param verbatimClassPath the Verbatim jars (mpi-core, transports, their dependencies)
 */
public record RankCommand(String javaExecutable, String verbatimClassPath) {
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    static final String QUIET_AOT = "-Xlog:aot=off,cds=off";

    /** From the system properties bin/mpirun sets, else this JVM's own java and class path. */
    public static RankCommand fromSystem() {
        String java = System.getProperty("verbatim.launcher.java",
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        String cp = System.getProperty("verbatim.launcher.classpath", System.getProperty("java.class.path"));
        return new RankCommand(java, cp);
    }

    public List<String> build(List<String> program) {
        return build(program, null);
    }

    /**
     * The rank command; with {@code aotCache} (only for the shorthand, see {@link #shorthand})
     * the ranks load that JDK AOT cache and the class path puts the Verbatim jars first, since
     * a cache is valid only for a class path that starts with the one it was recorded with.
     */
    public List<String> build(List<String> program, java.nio.file.Path aotCache) {
        return build(program, aotCache, List.of());
    }

    /**
     * As {@link #build(List, java.nio.file.Path)}, with {@code launcherJvmOptions} (mpirun's own,
     * see {@link LeanJvm}) before the user's JVM options in the shorthand; the other forms run as
     * given.
     */
    public List<String> build(List<String> program, java.nio.file.Path aotCache, List<String> launcherJvmOptions) {
        if (program.isEmpty()) {
            throw new IllegalArgumentException("no program given");
        }
        Shorthand s = shorthand(program);
        if (s != null) {
            return command(s, aotCache, launcherJvmOptions);
        }
        List<String> cmd = new ArrayList<>(program);
        if (program.getFirst().equals("java")) {
            cmd.set(0, javaExecutable);
        }
        return cmd;
    }

    /**
     * The {@code -cp}/{@code -jar} shorthand taken apart.
     *
     * @param jvmOptions the JVM options before {@code -cp}/{@code -jar}
     * @param userClassPath the program's class path (the jar for {@code -jar})
     */
    public record Shorthand(List<String> jvmOptions, String userClassPath, String mainClass, List<String> args) {
    }

    /** The shorthand form of {@code program}, or null for the {@code java ...} and program forms. */
    public static Shorthand shorthand(List<String> program) {
        if (program.isEmpty()) {
            return null;
        }
        String first = program.getFirst();
        if (!LaunchOptions.SHORTHAND_STARTS.contains(first) && !LaunchOptions.isJvmOption(first)) {
            return null;
        }
        List<String> options = new ArrayList<>();
        int i = 0;
        while (i < program.size() && !LaunchOptions.SHORTHAND_STARTS.contains(program.get(i))) {
            String option = program.get(i++);
            if (!LaunchOptions.isJvmOption(option)) {
                throw new IllegalArgumentException("expected JVM options then -cp or -jar, got '" + option + "'");
            }
            options.add(option);
        }
        if (i + 1 >= program.size()) {
            throw new IllegalArgumentException("-cp needs a class path and a main class; -jar needs a jar file");
        }
        String kind = program.get(i);
        String target = program.get(i + 1);
        List<String> rest = program.subList(i + 2, program.size());
        if (kind.equals("-jar")) {
            return new Shorthand(List.copyOf(options), target, mainClassOf(target), List.copyOf(rest));
        }
        if (rest.isEmpty()) {
            throw new IllegalArgumentException(kind + " " + target + " needs a main class after it");
        }
        return new Shorthand(List.copyOf(options), target, rest.getFirst(), List.copyOf(rest.subList(1, rest.size())));
    }

    private List<String> command(Shorthand s, java.nio.file.Path aotCache, List<String> launcherJvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable);
        cmd.add(NATIVE_ACCESS);
        if (aotCache != null) {
            cmd.add("-XX:AOTCache=" + aotCache);
            // A JVM that cannot use the cache runs on without it but prints warning and error
            // lines on every rank; the cache is an optimization, so say nothing (a later
            // -Xlog:aot among the user's options shows it all again).
            cmd.add(QUIET_AOT);
        }
        cmd.addAll(launcherJvmOptions);
        cmd.addAll(s.jvmOptions());
        cmd.add("-cp");
        cmd.add(classPath(s.userClassPath(), aotCache != null));
        cmd.add(s.mainClass());
        cmd.addAll(s.args());
        return cmd;
    }

    /**
     * The ranks' class path: the user's first, so that a program may override a library class
     * as usual; with an AOT cache the Verbatim jars first, the prefix the cache was recorded with.
     */
    String classPath(String userClassPath, boolean verbatimFirst) {
        if (verbatimClassPath == null || verbatimClassPath.isEmpty()) {
            return userClassPath;
        }
        return verbatimFirst ? verbatimClassPath + File.pathSeparator + userClassPath
                : userClassPath + File.pathSeparator + verbatimClassPath;
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
