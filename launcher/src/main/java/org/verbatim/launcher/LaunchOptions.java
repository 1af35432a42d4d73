package org.verbatim.launcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** mpirun's command line: options first, then the program and its arguments. */
public record LaunchOptions(
        int ranks,
        boolean tagOutput,
        boolean printConfig,
        boolean help,
        Map<String, String> environment,
        long timeoutSeconds,
        Binding binding,
        List<String> program) {

    /** Where ranks run: each pinned to one core (as Open MPI does by default), or anywhere. */
    public enum Binding {
        /** Core when there are no more ranks than online cores, else none. */
        AUTO,
        CORE,
        NONE
    }

    /** Words that start the {@code -cp}/{@code -jar} shorthand (the launcher supplies {@code java}). */
    static final Set<String> SHORTHAND_STARTS = Set.of("-cp", "-classpath", "--class-path", "-jar");

    public static final String USAGE = """
            Usage: mpirun -np N [options] java [jvm options] MainClass [args]
                   mpirun -np N [options] [jvm options] -cp CLASSPATH MainClass [args]
                   mpirun -np N [options] [jvm options] -jar app.jar [args]
                   mpirun -np N [options] program [args]

            Starts N local processes and serves them the PMI-1 protocol (PMI_PORT, PMI_ID,
            PMI_RANK, PMI_SIZE). The -cp/-jar shorthand runs a JDK >= 25 with the Verbatim jars
            and --enable-native-access=ALL-UNNAMED; a bare `java` also means that JDK.

            Options:
              -np N, -n N          number of ranks (default 1)
              --tag-output         prefix every output line with [rank]
              -x VAR[=VALUE]       set VAR for the ranks (to VALUE, or to mpirun's own value)
              --env VAR[=VALUE]    same as -x
              --timeout SECONDS    end the job with status 124 if it runs longer
              --bind-to core|none  pin rank r to core r mod cores (with taskset), or not; by
                                   default ranks are pinned when there are no more of them
                                   than online cores, as Open MPI does
              --print-config       print every Verbatim setting and its value in force, then
                                   run the program if one is given
              -h, --help           this text

            The job ends as soon as any rank exits with a non-zero status, is killed by a
            signal, exits without finalizing after PMI init, or calls abort; mpirun then stops
            the other ranks, removes /dev/shm/verbatim-<jobid>* and exits with that status.
            """;

    /** Parses mpirun's arguments; throws {@link IllegalArgumentException} with a clear message. */
    public static LaunchOptions parse(String[] args) {
        int ranks = 1;
        boolean tag = false;
        boolean printConfig = false;
        boolean help = false;
        long timeout = 0;
        Binding binding = Binding.AUTO;
        Map<String, String> env = new LinkedHashMap<>();
        int i = 0;
        loop:
        while (i < args.length) {
            String a = args[i];
            switch (a) {
                case "-np", "-n", "--np" -> {
                    ranks = positiveInt(a, value(args, i++));
                }
                case "--tag-output", "-tag-output" -> tag = true;
                case "--print-config" -> printConfig = true;
                case "-h", "--help", "-help" -> help = true;
                case "-x", "--env" -> {
                    String spec = value(args, i++);
                    int eq = spec.indexOf('=');
                    String name = eq < 0 ? spec : spec.substring(0, eq);
                    if (name.isEmpty()) {
                        throw new IllegalArgumentException(a + " needs VAR or VAR=VALUE, got '" + spec + "'");
                    }
                    String v = eq < 0 ? System.getenv(name) : spec.substring(eq + 1);
                    if (v != null) {
                        env.put(name, v);
                    }
                }
                case "--timeout" -> timeout = positiveInt(a, value(args, i++));
                case "--bind-to", "-bind-to" -> {
                    String v = value(args, i++);
                    binding = switch (v) {
                        case "core" -> Binding.CORE;
                        case "none" -> Binding.NONE;
                        default -> throw new IllegalArgumentException(a + " takes core or none, got '" + v + "'");
                    };
                }
                case "--" -> {
                    i++;
                    break loop;
                }
                default -> {
                    if (a.startsWith("-") && !SHORTHAND_STARTS.contains(a) && !isJvmOption(a)) {
                        throw new IllegalArgumentException("unknown option " + a + " (mpirun -h lists them)");
                    }
                    break loop;
                }
            }
            i++;
        }
        List<String> program = List.of(args).subList(i, args.length);
        if (program.isEmpty() && !help && !printConfig) {
            throw new IllegalArgumentException("no program given (mpirun -h shows the usage)");
        }
        return new LaunchOptions(ranks, tag, printConfig, help, env, timeout, binding,
                new ArrayList<>(program));
    }

    /** JVM flags that may precede {@code -cp}/{@code -jar} in the shorthand form. */
    static boolean isJvmOption(String a) {
        return a.startsWith("-X") || a.startsWith("-D") || a.startsWith("-ea") || a.startsWith("-da")
                || a.startsWith("--enable-") || a.startsWith("--add-") || a.startsWith("-agent")
                || a.startsWith("-verbose") || a.startsWith("-javaagent") || a.equals("-server");
    }

    private static String value(String[] args, int i) {
        if (i + 1 >= args.length) {
            throw new IllegalArgumentException(args[i] + " needs a value");
        }
        return args[i + 1];
    }

    private static int positiveInt(String option, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the message
        }
        throw new IllegalArgumentException(option + " needs a positive integer, got '" + v + "'");
    }
}
