package org.verbatim.launcher;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.verbatim.bootstrap.JobSecret;

/**
 * {@code mpirun}: starts N local ranks and serves them PMI-1. Run through {@code bin/mpirun},
 * which finds a JDK >= 25 and puts the Verbatim jars on the class path.
 */
public final class Mpirun {
    private Mpirun() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = run(args, System.out, System.err, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = 130;
        }
        System.exit(status);
    }

    /**
     * Runs mpirun with {@code args}; the ranks' output goes to {@code out} and {@code err}, and
     * rank 0 reads this process's stdin if {@code forwardStdin}. Returns the exit status.
     */
    public static int run(String[] args, OutputStream out, OutputStream err, boolean forwardStdin)
            throws InterruptedException {
        return run(args, out, err, forwardStdin, System.getenv());
    }

    /** As {@link #run(String[], OutputStream, OutputStream, boolean)} with mpirun's environment {@code env}. */
    static int run(String[] args, OutputStream out, OutputStream err, boolean forwardStdin, Map<String, String> env)
            throws InterruptedException {
        PrintStream messages = new PrintStream(err, true, StandardCharsets.UTF_8);
        LaunchOptions options;
        List<String> command;
        RankCommand rankCommand = RankCommand.fromSystem();
        Map<String, String> config = LauncherSettings.current();
        boolean aot;
        HostPlan plan = null;
        try {
            options = LaunchOptions.parse(args);
            if (options.help()) {
                new PrintStream(out, true, StandardCharsets.UTF_8).print(LaunchOptions.USAGE);
                return 0;
            }
            if (options.printConfig()) {
                ConfigPrinter.print(new PrintStream(out, true, StandardCharsets.UTF_8), options.environment());
                if (options.program().isEmpty()) {
                    return 0;
                }
            }
            command = rankCommand.build(options.program());
            aot = options.aot() != null ? options.aot() : LauncherSettings.AOT.getBoolean(config);
            options = withSecret(options, env);
            LauncherServices.nameServer(options); // a name server without its secret: refused here
            if (options.workDir() != null && !java.nio.file.Files.isDirectory(Path.of(options.workDir()))) {
                throw new IllegalArgumentException("--wdir " + options.workDir() + ": no such directory");
            }
            if (!options.hosts().isEmpty()) {
                plan = placeOnHosts(options, config, env);
                options = plan.options();
            }
        } catch (IllegalArgumentException e) {
            messages.println("mpirun: " + e.getMessage());
            return 2;
        }
        List<String> rankJvm;
        try {
            RankCommand.Shorthand shorthand = RankCommand.shorthand(options.program());
            rankJvm = shorthand == null ? List.of() : new java.util.ArrayList<>(LeanJvm.options(
                    LauncherSettings.LEAN_JVM.get(config), options.localRanks(),
                    org.verbatim.bootstrap.HostInfo.onlineCores(), shorthand.jvmOptions()));
            if (shorthand != null) {
                rankJvm.addAll(YoungGeneration.options(LauncherSettings.YOUNG_GEN.get(config), shorthand.jvmOptions()));
            }
        } catch (IllegalArgumentException e) {
            messages.println("mpirun: " + e.getMessage());
            return 2;
        }
        Path cache = aot ? aotCache(options, rankCommand, config, messages) : null;
        if (cache != null || !rankJvm.isEmpty()) {
            command = rankCommand.build(options.program(), cache, rankJvm);
        }
        try {
            Job job = new Job(options, command, out, err, ShmCleaner.SHM, forwardStdin && options.isLocal(0));
            if (plan != null && plan.remote() != null) {
                job.startRemotely(plan.remote());
            }
            return job.run();
        } catch (java.io.IOException e) {
            messages.println("mpirun: " + e.getMessage());
            return 1;
        }
    }

    /** The options with local ranks for a --host/--hostfile job, and how to start the others. */
    private record HostPlan(LaunchOptions options, RemoteStarts.Plan remote) {
    }

    /**
     * The job's secret: the first line of stdin with --secret-stdin (an mpirun started over ssh),
     * else {@value JobSecret#VARIABLE} from the environment, else none (the job makes one); a
     * joining mpirun must have it.
     */
    private static LaunchOptions withSecret(LaunchOptions options, Map<String, String> env) {
        String secret;
        if (options.secretFromStdin()) {
            try {
                secret = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8))
                        .readLine();
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("--secret-stdin: cannot read stdin: " + e.getMessage());
            }
            if (secret == null || secret.isBlank()) {
                throw new IllegalArgumentException("--secret-stdin: stdin held no secret");
            }
            secret = secret.strip();
        } else {
            secret = JobSecret.of(env);
        }
        if (secret == null && options.join() != null) {
            throw new IllegalArgumentException("--join needs the job's secret: set " + JobSecret.VARIABLE + " to the "
                    + "value the serving mpirun printed (or that you exported for it)");
        }
        return secret == null ? options : options.withSecret(JobSecret.check(secret));
    }

    /**
     * Places the ranks on the hosts by slot; this host's ranks start here, the others' over ssh.
     * Names this host at most once.
     */
    private static HostPlan placeOnHosts(LaunchOptions options, Map<String, String> config, Map<String, String> env) {
        List<Placement.HostRanks> placed = Placement.bySlot(options.hosts(), options.ranks(), options.oversubscribe());
        Placement.HostRanks here = null;
        List<Placement.HostRanks> others = new java.util.ArrayList<>();
        for (Placement.HostRanks h : placed) {
            if (HostList.isLocal(h.host())) {
                if (here != null) {
                    throw new IllegalArgumentException("hosts " + here.host() + " and " + h.host()
                            + " are both this machine: name it once, with all its slots");
                }
                here = h;
            } else {
                others.add(h);
            }
        }
        LaunchOptions local = here == null ? options.withLocalRanks(0, -1)
                : options.withLocalRanks(here.first(), here.last());
        if (others.isEmpty()) {
            return new HostPlan(local, null);
        }
        String mpirunHere = System.getProperty("verbatim.launcher.mpirun");
        String remoteMpirun = options.prefix() != null ? Path.of(options.prefix(), "bin", "mpirun").toString()
                : mpirunHere;
        if (remoteMpirun == null) {
            throw new IllegalArgumentException("cannot start ranks on " + others.getFirst().host() + ": this mpirun "
                    + "was not started by bin/mpirun, so its path is unknown; give --prefix DIR");
        }
        List<String> ssh = List.of(LauncherSettings.SSH.get(config).strip().split("\\s+"));
        String pmiHost = LauncherSettings.PMI_ADDRESS.get(config);
        if (pmiHost.isBlank()) {
            pmiHost = RouteAddress.toward(others.getFirst().host());
        }
        Map<String, String> settings = new java.util.TreeMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("VERBATIM_") && !CARRIED_NOT.contains(k)) {
                settings.put(k, v);
            }
        });
        return new HostPlan(local, new RemoteStarts.Plan(List.copyOf(others), ssh, remoteMpirun, pmiHost, settings));
    }

    /** VERBATIM_* variables that stay on this host: where the JDK is, and the secret (it goes by stdin). */
    static final java.util.Set<String> CARRIED_NOT = java.util.Set.of("VERBATIM_JDK", "VERBATIM_MIN_JDK",
            "VERBATIM_MPIRUN_JVM_OPTS", "VERBATIM_LAUNCHER_SSH", "VERBATIM_LAUNCHER_PMI_ADDRESS", JobSecret.VARIABLE);

    /**
     * The AOT cache for the job's ranks, or null: only the -cp/-jar shorthand gets one (there
     * mpirun lays out the class path the cache needs). Reasons for none are printed when the
     * cache was asked for explicitly (--aot or the setting), failures to make one always.
     */
    private static Path aotCache(LaunchOptions options, RankCommand rankCommand, Map<String, String> config,
            PrintStream messages) throws InterruptedException {
        boolean explicit = options.aot() != null || config.containsKey(LauncherSettings.AOT.name());
        RankCommand.Shorthand shorthand = RankCommand.shorthand(options.program());
        if (shorthand == null) {
            if (explicit && !options.program().isEmpty()) {
                messages.println("mpirun: no AOT cache: it is for the -cp/-jar shorthand, where mpirun lays out "
                        + "the class path; starting without one");
            }
            return null;
        }
        return AotTraining.prepare(rankCommand, shorthand, explicit, config, System.getenv(), messages);
    }
}
