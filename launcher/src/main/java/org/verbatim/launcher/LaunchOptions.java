package org.verbatim.launcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * mpirun's command line: options first, then the program and its arguments.
 *
 * @param firstRank first rank this mpirun starts ({@code --ranks}; 0 by default)
 * @param lastRank  last rank this mpirun starts, inclusive ({@code ranks - 1} by default)
 * @param listen    {@code --listen HOST:PORT}: serve PMI there for ranks other mpiruns start, or null
 * @param join      {@code --join HOST:PORT}: start this mpirun's ranks for the job served there, or null
 * @param aot       {@code --aot} (true), {@code --no-aot} (false), or null: the setting
 *                  {@code verbatim.launcher.aot} decides
 * @param hosts     {@code --host}/{@code --hostfile}: the hosts and their slots (merged), or empty
 * @param oversubscribe {@code --oversubscribe}: more ranks than slots is allowed
 * @param workDir   {@code --wdir DIR}: the ranks' working directory (null: mpirun's)
 * @param prefix    {@code --prefix DIR}: Verbatim's directory on the other hosts (null: the same as here)
 * @param secretFromStdin {@code --secret-stdin}: the job's secret is the first line of stdin (how
 *                  an mpirun started over ssh gets it)
 * @param secret    the job's secret (see {@link org.verbatim.bootstrap.JobSecret}), or null: mpirun
 *                  makes one
 */
public record LaunchOptions(
        int ranks,
        boolean tagOutput,
        boolean printConfig,
        boolean help,
        Map<String, String> environment,
        long timeoutSeconds,
        Binding binding,
        List<String> program,
        int firstRank,
        int lastRank,
        String listen,
        String join,
        Boolean aot,
        List<HostList.Entry> hosts,
        boolean oversubscribe,
        String workDir,
        String prefix,
        boolean secretFromStdin,
        String secret) {

    /** Options for a job on this host only, as the AOT training runs it. */
    static LaunchOptions local(int ranks, boolean tagOutput, Map<String, String> environment, long timeoutSeconds,
            Binding binding) {
        return new LaunchOptions(ranks, tagOutput, false, false, environment, timeoutSeconds, binding, List.of(), 0,
                ranks - 1, null, null, false, List.of(), false, null, null, false, null);
    }

    /** True if this mpirun serves PMI to ranks that other mpiruns start ({@code --listen} or hosts). */
    public boolean serving() {
        return listen != null || !hosts.isEmpty();
    }

    /** The same options with ranks {@code first..last} started here ({@code last = first - 1}: none). */
    LaunchOptions withLocalRanks(int first, int last) {
        return new LaunchOptions(ranks, tagOutput, printConfig, help, environment, timeoutSeconds, binding, program,
                first, last, listen, join, aot, hosts, oversubscribe, workDir, prefix, secretFromStdin, secret);
    }

    /** The same options with the job's secret. */
    LaunchOptions withSecret(String jobSecret) {
        return new LaunchOptions(ranks, tagOutput, printConfig, help, environment, timeoutSeconds, binding, program,
                firstRank, lastRank, listen, join, aot, hosts, oversubscribe, workDir, prefix, secretFromStdin,
                jobSecret);
    }

    /** The ranks this mpirun starts itself. */
    public int localRanks() {
        return lastRank - firstRank + 1;
    }

    /** True if {@code rank} is started by this mpirun. */
    public boolean isLocal(int rank) {
        return rank >= firstRank && rank <= lastRank;
    }

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

            One job over several hosts, started over ssh:
              mpirun --host h1:4,h2:4 ...      or      mpirun --hostfile FILE ...
            places ranks by slot (h1 gets 0-3, h2 4-7; -np defaults to the slots' sum), starts
            this host's ranks itself and, on every other host, `ssh HOST .../bin/mpirun --join`
            for that host's ranks (the same path as here, or --prefix DIR). -x variables, the
            VERBATIM_* settings and the working directory go along; the job's secret goes
            through ssh's stdin. verbatim.launcher.ssh sets the ssh command.

            By hand, on the first host
              mpirun -np N --ranks 0-1 --listen 0.0.0.0:7400 ...
            serves PMI for all N ranks and starts 0-1; on each other host
              mpirun -np N --ranks 2-3 --join host-a:7400 ...
            starts its ranks with PMI_PORT=host-a:7400 and reports their exits to the first
            mpirun, which ends the whole job at the first failure anywhere.

            Options:
              -np N, -n N          number of ranks (default 1)
              --tag-output         prefix every output line with [rank]
              -x VAR[=VALUE]       set VAR for the ranks (to VALUE, or to mpirun's own value)
              --env VAR[=VALUE]    same as -x
              --timeout SECONDS    end the job with status 124 if it runs longer
              --bind-to core|none  pin rank r to core r mod cores (with taskset), or not; by
                                   default ranks are pinned when there are no more of them
                                   than online cores, as Open MPI does
              --host H[:N],...     run on these hosts, N slots each (default 1); -H, -host
              --hostfile FILE      hosts from FILE, one per line: `host slots=N` (# comments);
                                   also --machinefile
              --oversubscribe      allow more ranks than slots
              --wdir DIR           the ranks' working directory (default: mpirun's); -wd
              --prefix DIR         Verbatim's directory on the other hosts (default: this one)
              --ranks A-B          start only ranks A..B here (with --listen or --join)
              --listen HOST:PORT   serve PMI on HOST:PORT (port 0: any) for the ranks that
                                   other mpiruns start with --join
              --join HOST:PORT     start --ranks for the job that the mpirun at HOST:PORT serves;
                                   needs the serving mpirun's secret in VERBATIM_JOB_SECRET
              --secret-stdin       read the job's secret from the first line of stdin (used by
                                   the ssh start of --host; not needed by hand)
              --nameserver HOST:PORT  publish and look up names (MPI_Publish_name) at the
                                   bin/verbatim-nameserver there, shared with other mpiruns
              --nameserver-secret-file FILE  that name server's secret (its --secret-file, mode
                                   0600); or VERBATIM_NAMESERVER_SECRET
              --aot, --no-aot      start the ranks of the -cp/-jar shorthand with (or without)
                                   a JDK AOT cache of Verbatim's classes and method profiles,
                                   which makes the first tens of thousands of messages several
                                   times faster; on by default (verbatim.launcher.aot). The
                                   cache is recorded once per build of the jars, JDK and JVM
                                   options by a 2-rank training job (seconds) and kept
                                   in ~/.cache/verbatim/aot
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
        String rankRange = null;
        String listen = null;
        String join = null;
        Boolean aot = null;
        boolean ranksGiven = false;
        List<HostList.Entry> hosts = new ArrayList<>();
        boolean oversubscribe = false;
        String workDir = null;
        String prefix = null;
        boolean secretStdin = false;
        Map<String, String> env = new LinkedHashMap<>();
        int i = 0;
        loop:
        while (i < args.length) {
            String a = args[i];
            switch (a) {
                case "-np", "-n", "--np" -> {
                    ranks = positiveInt(a, value(args, i++));
                    ranksGiven = true;
                }
                case "--host", "-host", "-H" -> HostList.parseHostOption(value(args, i++), hosts);
                case "--hostfile", "-hostfile", "--machinefile", "-machinefile" ->
                        HostList.parseHostfile(java.nio.file.Path.of(value(args, i++)), hosts);
                case "--oversubscribe", "-oversubscribe" -> oversubscribe = true;
                case "--wdir", "-wdir", "-wd", "--wd" -> workDir = value(args, i++);
                case "--prefix", "-prefix" -> prefix = value(args, i++);
                case "--secret-stdin" -> secretStdin = true;
                case "--tag-output", "-tag-output" -> tag = true;
                case "--print-config" -> printConfig = true;
                case "--aot" -> aot = true;
                case "--no-aot" -> aot = false;
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
                case "--ranks" -> rankRange = value(args, i++);
                case "--listen" -> listen = hostPort(a, value(args, i++));
                case "--join" -> join = hostPort(a, value(args, i++));
                case "--nameserver", "--ompi-server" -> env.put("VERBATIM_LAUNCHER_NAMESERVER", hostPort(a, value(args, i++)));
                case "--nameserver-secret-file" -> env.put(NameServerSecret.FILE_VARIABLE, value(args, i++));
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
        hosts = HostList.merged(hosts);
        if (!hosts.isEmpty() && !ranksGiven) {
            ranks = hosts.stream().mapToInt(HostList.Entry::slots).sum(); // as Open MPI: one rank per slot
        }
        if (!hosts.isEmpty() && (listen != null || join != null || rankRange != null)) {
            throw new IllegalArgumentException("--host/--hostfile start the ranks on every host themselves; "
                    + "--listen, --join and --ranks are the way to do it by hand, not with them");
        }
        if (prefix != null && hosts.isEmpty()) {
            throw new IllegalArgumentException("--prefix is where Verbatim is on the other hosts: it needs --host or --hostfile");
        }
        int first = 0;
        int last = ranks - 1;
        if (rankRange != null) {
            int dash = rankRange.indexOf('-');
            first = nonNegativeInt("--ranks", dash < 0 ? rankRange : rankRange.substring(0, dash));
            last = dash < 0 ? first : nonNegativeInt("--ranks", rankRange.substring(dash + 1));
            if (first > last || last >= ranks) {
                throw new IllegalArgumentException("--ranks " + rankRange + " is not a range inside 0-"
                        + (ranks - 1) + " (-np " + ranks + ")");
            }
        }
        if (listen != null && join != null) {
            throw new IllegalArgumentException("--listen and --join exclude each other");
        }
        if (join != null && rankRange == null) {
            throw new IllegalArgumentException("--join needs --ranks: which ranks to start here");
        }
        if (listen == null && join == null && (first != 0 || last != ranks - 1)) {
            throw new IllegalArgumentException("--ranks " + rankRange + " leaves ranks to other hosts: "
                    + "serve them with --listen HOST:PORT (and start them there with --join)");
        }
        return new LaunchOptions(ranks, tag, printConfig, help, env, timeout, binding,
                new ArrayList<>(program), first, last, listen, join, aot, hosts, oversubscribe, workDir, prefix,
                secretStdin, null);
    }

    private static String hostPort(String option, String v) {
        int colon = v.lastIndexOf(':');
        if (colon <= 0 || colon == v.length() - 1) {
            throw new IllegalArgumentException(option + " needs HOST:PORT, got '" + v + "'");
        }
        int port = nonNegativeInt(option + " port", v.substring(colon + 1));
        if (port > 65535) {
            throw new IllegalArgumentException(option + ": port out of range: " + port);
        }
        return v;
    }

    private static int nonNegativeInt(String option, String v) {
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the message
        }
        throw new IllegalArgumentException(option + " needs a number >= 0, got '" + v + "'");
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
